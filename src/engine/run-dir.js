import fs from 'node:fs'
import path from 'node:path'
import { atLastResort } from './last-resort.js'

// A run's directory (its log files, the console capture, rsyslogd's files) is removed by the run
// itself, also on failure and Ctrl-C. Only a primary killed outright (SIGKILL, out of memory, a
// power cut) leaves one behind, possibly gigabytes of capture. So each directory names its owner
// (pid and the process's start time, which tells a reused pid apart), and the first run in a base
// directory removes the directories whose owner is gone. A directory without that file, of
// another user, a symlink, or of a live owner (another log-bench running beside this one) is left
// alone.

const OWNER_FILE = '.log-bench-owner'
const NAME = /^log-bench-(http-)?[A-Za-z0-9]{6}$/
const swept = new Set()

export function makeRunDir (baseDir, prefix = 'log-bench-') {
  const note = sweepOnce(baseDir)
  if (note) process.stderr.write(`log-bench: ${note}\n`)
  // Those a finished run removed are forgotten (there is one at a time, or a few for http).
  for (const earlier of made) if (!fs.existsSync(earlier)) made.delete(earlier)
  let dir = null
  try {
    dir = fs.mkdtempSync(path.join(baseDir, prefix))
    fs.writeFileSync(path.join(dir, OWNER_FILE), JSON.stringify(ownerOf(process.pid)) + '\n', { flag: 'wx' })
    made.add(dir)
    return dir
  } catch (err) {
    // A full TMPDIR (or --dir) fails the run with this reason, and leaves no directory behind.
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
    throw new Error(`cannot make the run's directory in ${baseDir}: ${RUN_DIR_REASONS[err.code] ?? err.message}${RUN_DIR_REASONS[err.code] ? ` (${err.code})` : ''}`)
  }
}

// The run directories this process made: a run removes its own as it ends; a second stop signal
// (src/engine/last-resort.js) removes those still there that name this process as their owner.
const made = new Set()
atLastResort('directories', () => {
  const self = ownerOf(process.pid)
  for (const dir of made) {
    made.delete(dir)
    try {
      const owner = JSON.parse(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8'))
      if (owner?.pid === self.pid && owner?.started === self.started) fs.rmSync(dir, { recursive: true, force: true })
    } catch {
      // Already removed by its run, or not ours any more.
    }
  }
})

const RUN_DIR_REASONS = { ENOSPC: 'no space left on device', EDQUOT: 'disk quota exceeded', EROFS: 'read-only file system', EACCES: 'permission denied' }

// The first time in this process for a base directory: removes the stale run directories there and
// says so in words (null when there were none, or it was swept before). A session sweeps the base
// directories of its cells first (src/runner/session.js), so that the API says it as a warning;
// makeRunDir sweeps on its own for callers without one.
export function sweepOnce (baseDir) {
  const resolved = path.resolve(baseDir)
  if (swept.has(resolved)) return null
  swept.add(resolved)
  const { removed, bytes } = sweepStaleRunDirs(baseDir)
  return removed ? `removed ${removed} run director${removed > 1 ? 'ies' : 'y'} (${formatBytes(bytes)}) left in ${baseDir} by a log-bench that was killed` : null
}

export function sweepStaleRunDirs (baseDir) {
  let removed = 0
  let bytes = 0
  let names = []
  try { names = fs.readdirSync(baseDir) } catch { return { removed, bytes } }
  const uid = process.getuid?.()
  for (const name of names.filter((n) => NAME.test(n))) {
    const dir = path.join(baseDir, name)
    try {
      const stat = fs.lstatSync(dir)
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue
      const ownerFile = path.join(dir, OWNER_FILE)
      if (!fs.lstatSync(ownerFile).isFile()) continue
      const owner = JSON.parse(fs.readFileSync(ownerFile, 'utf8'))
      if (!Number.isInteger(owner?.pid) || isAlive(owner)) continue
      const size = treeBytes(dir)
      fs.rmSync(dir, { recursive: true, force: true })
      removed++
      bytes += size
    } catch {
      // No owner file, unreadable, or gone meanwhile: not ours to judge.
    }
  }
  return { removed, bytes }
}

// The owner is alive if its pid exists and, where /proc tells it, started when the owner file says.
export function isAlive ({ pid, started }) {
  try {
    process.kill(pid, 0)
  } catch (err) {
    if (err.code === 'ESRCH') return false
  }
  const now = ownerOf(pid).started
  return started == null || now == null || now === started
}

// Field 22 of /proc/PID/stat: the process's start time in clock ticks since boot (null elsewhere).
export function ownerOf (pid) {
  let started = null
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {}
  return { pid, started }
}

function treeBytes (dir) {
  let total = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      try { total += fs.lstatSync(path.join(entry.parentPath ?? entry.path, entry.name)).size } catch {}
    }
  }
  return total
}

function formatBytes (n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} GB`
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`
  return `${Math.round(n / 1e3)} kB`
}
