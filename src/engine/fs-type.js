import fs from 'node:fs'

// statfs(2) magic numbers of the file systems a benchmark is likely to write to: tmpfs (memory)
// and a disk are different benchmarks, so every file run records which one it wrote to.
const FS_TYPES = new Map([
  [0xef53, 'ext2/3/4'],
  [0x01021994, 'tmpfs'],
  [0x858458f6, 'ramfs'],
  [0x794c7630, 'overlay'],
  [0x58465342, 'xfs'],
  [0x9123683e, 'btrfs'],
  [0x2fc12fc1, 'zfs'],
  [0xf2f52010, 'f2fs'],
  [0x6969, 'nfs'],
  [0xff534d42, 'cifs'],
  [0x65735546, 'fuse'],
  [0x01021997, '9p'],
  [0x4d44, 'vfat'],
  [0x5346544e, 'ntfs'],
  [0x73717368, 'squashfs'],
  [0x1021994, 'tmpfs']
])

// The type of the file system holding dir (e.g. "tmpfs", "ext2/3/4"), "0x…" for one not listed,
// null where it cannot be read.
export function fsTypeOf (dir) {
  try {
    const { type } = fs.statfsSync(dir)
    return FS_TYPES.get(type) ?? `0x${type.toString(16)}`
  } catch {
    return null
  }
}
