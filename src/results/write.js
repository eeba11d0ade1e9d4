import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { UsageError } from '../errors.js'

// Every file log-bench writes goes through here. The bytes go to a temporary file beside the
// target, are fsynced and renamed into place: a reader (or a Ctrl-C, or a full disk) sees the
// previous complete file or the new one, never half of one. The temporary name is unpredictable
// and created exclusively (O_CREAT | O_EXCL): whatever is planted there, a file or a symbolic link,
// is never opened or followed. rename replaces the target's directory entry, so a symbolic link
// planted at the target itself is replaced, and the file it points to is never written.
export function writeFileAtomic (file, data) {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data
  const tmp = path.join(path.dirname(file), `.${path.basename(file).slice(0, 100)}.${randomBytes(8).toString('hex')}.tmp`)
  let fd = null
  let created = false
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fd = fs.openSync(tmp, 'wx')
    created = true
    for (let at = 0; at < bytes.length;) {
      const written = fs.writeSync(fd, bytes, at)
      if (written === 0) throw Object.assign(new Error('short write'), { code: 'ENOSPC' })
      at += written
    }
    fs.fsyncSync(fd)
    fs.closeSync(fd)
    fd = null
    fs.renameSync(tmp, file)
  } catch (err) {
    if (fd !== null) fs.closeSync(fd)
    if (created) fs.rmSync(tmp, { force: true })
    throw new UsageError(`cannot write ${file}: ${ioReason(err)}${IO_REASONS[err.code] ? ` (${err.code})` : ''}`)
  }
}

export function writeJsonAtomic (file, value) {
  writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n')
}

const IO_REASONS = { ENOSPC: 'no space left on device', EDQUOT: 'disk quota exceeded', EROFS: 'read-only file system', EACCES: 'permission denied', EPERM: 'permission denied', EISDIR: 'it is a directory', ENOENT: 'its directory no longer exists', ENOTDIR: 'a part of the path is a file' }

// Why a file operation failed, in words (the output checks in src/cli/validate.js use it too).
export function ioReason (err) {
  return IO_REASONS[err.code] ?? err.message.split('\n')[0]
}
