import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { ioReason } from '../results/write.js'
import { leavesDir } from '../paths.js'
import { MAX_SHARDS } from '../limits.js'

// The checks of option values, so that each command gives the same one-line answers to bad input;
// which option takes which check, with what limits, is in the option tables (option-tables.js).

// An option given twice arrives as an array: say so instead of guessing which one was meant.
function single (value, name) {
  if (Array.isArray(value)) throw new UsageError(`--${name} was given more than once (${value.join(', ')}): give it once, with a comma list where it takes several values`)
  return value
}

export function list (value, name) {
  single(value, name)
  const items = String(value ?? '').split(',').map((s) => s.trim()).filter(Boolean)
  if (items.length === 0) throw new UsageError(`--${name} is empty: give one or more values separated by commas`)
  return items
}

// A whole number as people write it: 1000000, 1e6, 1_000_000 or 1,000,000 (grouped by thousands);
// null for anything else. Inside a comma list (--cpus 1,8) a comma separates values instead.
export function wholeNumber (text) {
  const t = String(text).trim()
  let digits = null
  if (/^\d+(?:_\d+)*$/.test(t)) digits = t.replace(/_/g, '')
  else if (/^\d{1,3}(?:,\d{3})+$/.test(t)) digits = t.replace(/,/g, '')
  else if (/^\d+(?:\.\d+)?e\+?\d+$/i.test(t)) digits = t
  const n = digits === null ? NaN : Number(digits)
  return Number.isSafeInteger(n) ? n : null
}

export function positiveInt (value, name, { min = 1, max = Number.MAX_SAFE_INTEGER, why = '' } = {}) {
  single(value, name)
  const n = wholeNumber(value)
  if (n === null || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`
    throw new UsageError(`--${name} must be ${range}${why}, got "${value}"`)
  }
  return n
}

export function positiveIntList (value, name, limits) {
  return [...new Set(list(value, name).map((v) => positiveInt(v, name, limits)))]
}

export function positiveNumber (value, name, { max = Infinity, why = '' } = {}) {
  single(value, name)
  const n = Number(value)
  if (String(value).trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a number > 0, got "${value}"`)
  if (n > max) throw new UsageError(`--${name} must be at most ${max.toLocaleString('en-US')}${why}, got "${value}"`)
  return n
}

export function nonNegativeNumber (value, name, { max = Infinity, why = '' } = {}) {
  single(value, name)
  const n = Number(value)
  if (String(value).trim() === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be a number >= 0, got "${value}"`)
  if (n > max) throw new UsageError(`--${name} must be at most ${max.toLocaleString('en-US')}${why}, got "${value}"`)
  return n
}

// Node's timers cannot wait longer than 2^31 - 1 ms (24.8 days): a longer limit would fire at once.
// Time limits in seconds stay well below it, leaving room for the set-up time added to a run's limit.
export const MAX_SECONDS = 1_000_000
const TIMER_LIMIT = ' (Node\'s timers cannot wait longer than 24.8 days)'

export function seconds (value, name, { allowZero = false } = {}) {
  return (allowZero ? nonNegativeNumber : positiveNumber)(value, name, { max: MAX_SECONDS, why: TIMER_LIMIT })
}

// --shard k/n: share k of n of the plan.
export function parseShard (text) {
  const match = /^(\d+)\/(\d+)$/.exec(String(text).trim())
  const k = match && Number(match[1])
  const n = match && Number(match[2])
  if (!match || n < 1 || k < 1 || k > n || n > MAX_SHARDS) throw new UsageError(`--shard must be k/n with 1 <= k <= n <= ${MAX_SHARDS.toLocaleString('en-US')} (e.g. 1/2), got "${text}"`)
  return { k, n }
}

// Every option given twice arrives as an array: one check for all commands (src/cli/main.js), so
// `--out a --out b` is refused the same way everywhere. Positionals (report's and merge's files) may repeat.
export function refuseRepeatedOptions (argv, positionals = ['files']) {
  for (const [key, value] of Object.entries(argv)) {
    if (key === '_' || key === '$0' || positionals.includes(key) || /[A-Z]/.test(key)) continue
    single(value, key)
  }
}

// hints: { value: 'what to give instead' } for names people try that are not allowed.
export function oneOf (values, allowed, name, hints = {}) {
  for (const v of values) {
    if (!allowed.includes(v)) throw new UsageError(`unknown ${name} "${v}": ${Object.hasOwn(hints, v) ? hints[v] : `use one of ${allowed.join(', ')}`}`)
  }
  return values
}

// Output paths are checked before any work starts, the same way for every command that writes
// (run and http results, merge --out, report --out and --images, a scenario's output).
const KERNEL_FILE_SYSTEMS = ['/proc', '/sys']

function kindOf (stat) {
  if (stat.isDirectory()) return 'a directory'
  if (stat.isFIFO()) return 'a FIFO (named pipe)'
  if (stat.isSocket()) return 'a socket'
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device'
  return null
}

// The path itself when it exists, else its nearest existing ancestor, after refusing kernel file
// systems (Node's recursive mkdir never returns there) and paths that run through a file.
function nearestExisting (resolved, label) {
  let existing = resolved
  while (!fs.existsSync(existing)) existing = path.dirname(existing)
  const real = fs.realpathSync(existing)
  const kernel = KERNEL_FILE_SYSTEMS.find((root) => [resolved, real].some((p) => p === root || p.startsWith(root + '/')))
  if (kernel) throw new UsageError(`${label} is under ${kernel}, a kernel file system, not a place for files: give a path on a disk`)
  if (existing !== resolved && !fs.statSync(real).isDirectory()) throw new UsageError(`${label} runs through ${existing}, which is a file, not a directory: give a path in a directory`)
  return existing
}

function requireWritableDir (dir, label, hint) {
  try {
    fs.accessSync(dir, fs.constants.W_OK)
  } catch (err) {
    throw new UsageError(`${label}: cannot write in ${dir} (${ioReason(err)})${hint}`)
  }
}

function isSymbolicLink (file) {
  try {
    return fs.lstatSync(file).isSymbolicLink()
  } catch {
    return false
  }
}

// The same file: the same path, or (hard links, other spellings) the same device and inode.
function sameFile (a, b) {
  if (path.resolve(a) === path.resolve(b)) return true
  try {
    const [x, y] = [fs.statSync(a), fs.statSync(b)]
    return x.dev === y.dev && x.ino === y.ino
  } catch {
    return false
  }
}

// Whether an existing file is a log-bench results document, judged by its first bytes (the writer
// puts "tool": "log-bench" there) without reading a large file whole.
export function isResultsFile (file) {
  let fd
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK)
    if (!fs.fstatSync(fd).isFile()) return false
    const head = Buffer.alloc(4096)
    const n = fs.readSync(fd, head, 0, head.length, 0)
    return /"tool"\s*:\s*"log-bench"/.test(head.toString('utf8', 0, n)) && /"kind"\s*:\s*"results"/.test(head.toString('utf8', 0, n))
  } catch {
    return false
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

// A file to be replaced atomically (src/results/write.js): a regular file or nothing yet, in a
// writable directory. A symbolic link is refused: the rename would replace the link, not its target.
// create: the missing parent directories may be made (by the first write).
// inputs: files this command reads; none of them may be replaced. notResults: the output is not a
// results file (a page, a CSV), so an existing results file there is refused, not replaced.
export function outputFile (file, { label = `--out ${file}`, create = false, hint = '', inputs = [], notResults = false } = {}) {
  filePathText(file, label)
  const resolved = path.resolve(String(file))
  if (isSymbolicLink(resolved)) throw new UsageError(`${label} is a symbolic link: give the path of the file itself (log-bench replaces its output files, and would replace the link)`)
  const input = inputs.find((f) => sameFile(resolved, String(f)))
  if (input !== undefined) throw new UsageError(`${label} is ${path.resolve(String(input)) === resolved ? 'one of the inputs' : `the same file as the input ${input}`}: writing it would replace what is being read; give another path`)
  const existing = nearestExisting(resolved, label)
  if (existing === resolved) {
    if (notResults && isResultsFile(resolved)) throw new UsageError(`${label} holds log-bench results, which this output would replace: give another path (results pages end in .md, CSV in .csv)`)
    const kind = kindOf(fs.statSync(resolved))
    if (kind === 'a directory') throw new UsageError(`${label} is a directory: give a file path such as ${path.join(String(file), 'results.json')}`)
    if (kind) throw new UsageError(`${label} is ${kind}, not a regular file: give a file path`)
    try {
      fs.accessSync(resolved, fs.constants.W_OK)
    } catch (err) {
      throw new UsageError(`${label}: cannot write it (${ioReason(err)})${hint}`)
    }
  }
  const dir = path.dirname(resolved)
  if (!fs.existsSync(dir)) {
    if (!create) throw new UsageError(`${label}: directory ${dir} does not exist`)
    // Created by the first write (src/results/write.js), so that input refused later leaves nothing behind.
    requireWritableDir(nearestExisting(dir, label), label, hint)
    return resolved
  }
  requireWritableDir(dir, label, hint)
  return resolved
}

// The text of an output file's path, before it is resolved (which would turn '' into the current
// directory and drop a trailing slash): not empty, and not in a directory's form.
export function filePathText (file, label = `--out ${file}`) {
  const text = String(file ?? '')
  const name = label.split(' ')[0]
  if (text.trim() === '') throw new UsageError(`${(name.startsWith('--') ? name : label).trimEnd()} is empty: give a file path`)
  if (/[/\\]$/.test(text)) throw new UsageError(`${label} ends in "${text.slice(-1)}", which names a directory: give a file path, such as ${text.replace(/[/\\]+$/, '') || 'results.json'}`)
  if (/(^|[/\\])\.{1,2}$/.test(text)) throw new UsageError(`${label} names a directory: give a file path, such as ${path.join(text, 'results.json')}`)
  return text
}

// An output that exists is replaced only with --force: a page or a CSV may be the user's own notes.
export function refuseExisting (file, { force = false, label = `--out ${file}` } = {}) {
  if (force || !fs.existsSync(file)) return
  throw new UsageError(`${label} already exists: add --force to replace it, or give another --out`)
}

// A scenario's `output` is a name inside the scenario, which may come from anyone: it stays under
// the current directory (through symbolic links too), so it never creates directories elsewhere,
// and it replaces only a log-bench results file. --out is the user's own choice and decides instead.
export function scenarioOutput (output, { label, inputs = [] }) {
  const leaves = leavesDir(output)
  if (leaves) throw new UsageError(`${label} ${leaves === 'outside' ? 'is outside' : 'leads outside'} the current directory${leaves === 'outside' ? '' : ' through a symbolic link'} (${process.cwd()}): a scenario writes its results under the directory it is run from; give --out to write elsewhere`)
  const resolved = path.resolve(String(output))
  if (fs.existsSync(resolved) && fs.statSync(resolved).isFile() && !isResultsFile(resolved)) throw new UsageError(`${label} exists and is not a log-bench results file: it is never replaced; give --out, or remove the file`)
  return outputFile(output, { label, create: true, inputs })
}

// A results file is hours of measurements: one that exists is replaced only with --force.
export function refuseToReplace (file, { force = false, label = file } = {}) {
  if (force || !fs.existsSync(file)) return
  let runs = null
  try { runs = JSON.parse(fs.readFileSync(file, 'utf8'))?.runs } catch {}
  const holds = Array.isArray(runs) ? `already holds results (${runs.length} run${runs.length === 1 ? '' : 's'})` : 'already exists'
  throw new UsageError(`${label} ${holds}: add --force to replace it, or give another --out`)
}

// A directory files will be written into (report's charts): an existing writable directory, or a
// path that can become one. Nothing is created here, so a refused input leaves nothing behind.
export function outputDirectory (dir, { label = `--images ${dir}` } = {}) {
  const resolved = path.resolve(String(dir))
  const existing = nearestExisting(resolved, label)
  if (existing === resolved && !fs.statSync(resolved).isDirectory()) throw new UsageError(`${label} is a file, not a directory: give a directory for the charts`)
  requireWritableDir(existing, label, '')
  return resolved
}

export function defaultOutput (prefix = 'run') {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const file = path.resolve('results', `${prefix}-${stamp}.json`)
  return outputFile(file, { label: `the default results file ${file}`, create: true, hint: ': give --out with a path you can write' })
}

// A directory the runs write their temporary files into (--dir): it must exist, be a directory and
// be writable, checked before anything runs.
export function writableDirectory (value, name) {
  const dir = path.resolve(String(value))
  let stat = null
  try { stat = fs.statSync(dir) } catch {}
  if (!stat) throw new UsageError(`--${name} ${value} does not exist: give an existing directory (e.g. /tmp, or a directory on the disk you want to measure)`)
  if (!stat.isDirectory()) throw new UsageError(`--${name} ${value} is not a directory: give a directory the runs may write their files into`)
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK)
  } catch {
    throw new UsageError(`--${name} ${value}: cannot write there (permission denied): give a writable directory`)
  }
  return dir
}

// The system's temporary directory (TMPDIR, else /tmp), where runs make their directories unless
// --dir names another: checked before anything runs, so that a TMPDIR that does not exist, is a file
// or cannot be written is one line, not a failed mkdtemp in the middle of a session.
export function temporaryDirectory ({ orDir = true } = {}) {
  const dir = os.tmpdir()
  const or = orDir ? ', or give --dir' : ''
  const named = process.env.TMPDIR ? `TMPDIR ${dir}` : `the temporary directory ${dir}`
  let stat = null
  try { stat = fs.statSync(dir) } catch {}
  if (!stat) throw new UsageError(`${named} does not exist: set TMPDIR to an existing writable directory${or}`)
  if (!stat.isDirectory()) throw new UsageError(`${named} is not a directory: set TMPDIR to an existing writable directory${or}`)
  // Making a directory is the test: permission bits say yes to root on a read-only file system.
  try {
    fs.rmdirSync(fs.mkdtempSync(path.join(dir, '.log-bench-check-')))
  } catch (err) {
    throw new UsageError(`${named}: cannot make a directory there (${ioReason(err)}): set TMPDIR to a writable directory${or}`)
  }
  return dir
}

// --cache DIR: where library versions and runtimes are installed; created on first install, so it
// may not exist yet, but what exists there must be a directory.
export function cacheDirectory (value) {
  if (value == null) return null
  single(value, 'cache')
  const dir = String(value)
  if (dir.trim() === '') throw new UsageError('--cache is empty: give a directory')
  let stat = null
  try { stat = fs.statSync(dir) } catch {}
  if (stat && !stat.isDirectory()) throw new UsageError(`--cache ${dir} is not a directory`)
  return path.resolve(dir)
}
