import fs from 'node:fs'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { isAlive, ownerOf } from '../engine/run-dir.js'
import { ioReason, removeEmptyTree } from './write.js'

// One log-bench at a time per results file: two runs with the same --out would each rewrite the
// file with their own runs, and the last save would win. The lock is a file beside the results
// (.<name>.lock), created exclusively, naming its owner like a run directory does (pid and start
// time); it is removed when the process exits however it can (end, error, Ctrl-C). A lock whose
// owner is gone (killed with SIGKILL, a power cut) is taken over, so it never blocks for long.
export function lockResults (out) {
  const lock = path.join(path.dirname(out), `.${path.basename(out)}.lock`)
  const mine = JSON.stringify(ownerOf(process.pid)) + '\n'
  // --out may name a directory still to be made: the lock goes there first, and if no results follow
  // (a run that failed before its first save), the directories made for it go with the lock.
  let madeDir
  try {
    madeDir = fs.mkdirSync(path.dirname(out), { recursive: true })
  } catch (err) {
    throw new UsageError(`cannot write ${out}: ${ioReason(err)}${err.code ? ` (${err.code})` : ''}; no run was saved`)
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      createExclusive(lock, mine)
      const release = () => {
        try {
          if (fs.readFileSync(lock, 'utf8') === mine) fs.unlinkSync(lock)
        } catch {}
        if (madeDir) removeEmptyTree(madeDir)
        process.off('exit', release)
      }
      process.on('exit', release)
      return release
    } catch (err) {
      if (err.code !== 'EEXIST') throw new UsageError(`cannot write ${out}: ${ioReason(err)}${err.code ? ` (${err.code})` : ''}; no run was saved`)
    }
    const owner = readOwner(lock)
    // An empty lock a moment old is another log-bench between creating it and writing its owner.
    if (!owner && ageMs(lock) < FRESH_MS) throw new UsageError(`${out} is being written by another log-bench that is just starting: wait for it to finish, or give another --out`)
    if (owner && isAlive(owner)) throw new UsageError(`${out} is being written by another log-bench (pid ${owner.pid}): wait for it to finish, or give another --out`)
    // Stale (its owner is gone) or unreadable: take it over once; a second failure means another
    // log-bench took it over at the same moment. A temporary file of the results (killed while
    // saving) is that owner's too: removed with its lock.
    removeStaleTemporaries(out)
    fs.rmSync(lock, { force: true })
  }
  throw new UsageError(`${out} is being written by another log-bench that started at the same moment: give another --out`)
}

// The lock file with its owner in it, or no file at all (a full disk fails the write, not the create).
function createExclusive (lock, content) {
  const fd = fs.openSync(lock, 'wx')
  try {
    fs.writeSync(fd, content)
  } catch (err) {
    fs.closeSync(fd)
    fs.rmSync(lock, { force: true })
    throw err
  }
  fs.closeSync(fd)
}

const FRESH_MS = 2000

// The temporary names writeFileAtomic gives `out`: .<name>.<16 hex digits>.tmp beside it.
function removeStaleTemporaries (out) {
  const prefix = `.${path.basename(out).slice(0, 100)}.`
  const dir = path.dirname(out)
  let names = []
  try { names = fs.readdirSync(dir) } catch {}
  for (const name of names) {
    if (name.startsWith(prefix) && /^[0-9a-f]{16}\.tmp$/.test(name.slice(prefix.length))) fs.rmSync(path.join(dir, name), { force: true })
  }
}

function ageMs (file) {
  try {
    return Date.now() - fs.statSync(file).mtimeMs
  } catch {
    return Infinity
  }
}

function readOwner (lock) {
  try {
    const owner = JSON.parse(fs.readFileSync(lock, 'utf8'))
    return Number.isInteger(owner?.pid) ? owner : null
  } catch {
    return null
  }
}
