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
  const tmp = stage(file, data)
  try {
    fs.renameSync(tmp, file)
  } catch (err) {
    fs.rmSync(tmp, { force: true })
    throw writeError(file, err)
  }
}

// A file that must not replace anything (a run's .cpuprofile beside its results): staged as above,
// then linked to its name, which fails if anything (a file, a symbolic link) is there already.
// Returns false in that case, and writes nothing.
export function writeNewFile (file, data) {
  const tmp = stage(file, data)
  try {
    fs.linkSync(tmp, file)
    return true
  } catch (err) {
    if (err.code === 'EEXIST') return false
    throw writeError(file, err)
  } finally {
    fs.rmSync(tmp, { force: true })
  }
}

// Several files that belong together (a page and its charts): each is staged in a temporary file
// beside its target first, in directories created as needed, and only when every one is on disk are
// they renamed into place. A failure on the way (a full disk) removes the staged files and the
// directories made for them: nothing of the set is written, not a partial chart, not an empty folder.
export function writeFilesAtomic (files) {
  const madeDirs = []
  const staged = []
  try {
    for (const { file, data } of files) {
      const made = fs.mkdirSync(path.dirname(file), { recursive: true })
      if (made) madeDirs.push(made)
      staged.push({ file, tmp: stage(file, data) })
    }
  } catch (err) {
    for (const { tmp } of staged) fs.rmSync(tmp, { force: true })
    // mkdirSync returns the first directory it made; the ones under it were made by this call too.
    for (const dir of madeDirs.reverse()) removeEmptyTree(dir)
    throw err instanceof UsageError ? err : writeError(path.dirname(files[staged.length]?.file ?? ''), err)
  }
  for (const { file, tmp } of staged) {
    try {
      fs.renameSync(tmp, file)
    } catch (err) {
      for (const rest of staged) fs.rmSync(rest.tmp, { force: true })
      throw writeError(file, err)
    }
  }
}

// Removes a directory and the directories under it, as long as they hold nothing else.
export function removeEmptyTree (dir) {
  try {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) removeEmptyTree(path.join(dir, entry.name))
    }
    fs.rmdirSync(dir)
  } catch {}
}

// Writes the bytes to a new temporary file beside `file` (created exclusively, fsynced); returns its path.
function stage (file, data) {
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
    return tmp
  } catch (err) {
    if (fd !== null) fs.closeSync(fd)
    if (created) fs.rmSync(tmp, { force: true })
    throw writeError(file, err)
  }
}

const writeError = (file, err) => new UsageError(`cannot write ${file}: ${ioReason(err)}${IO_REASONS[err.code] ? ` (${err.code})` : ''}`)

export function writeJsonAtomic (file, value) {
  writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n')
}

const IO_REASONS = { ENOSPC: 'no space left on device', EDQUOT: 'disk quota exceeded', EROFS: 'read-only file system', EACCES: 'permission denied', EPERM: 'permission denied', EISDIR: 'it is a directory', ENOENT: 'its directory no longer exists', ENOTDIR: 'a part of the path is a file' }

// Why a file operation failed, in words (the output checks in src/api/validate.js use it too).
export function ioReason (err) {
  return IO_REASONS[err.code] ?? err.message.split('\n')[0]
}
