// The per-user cache of installed library versions and runtimes. Each install is one npm install
// into a directory of its own, named by the exact version it got (`pino@9.14.0`), so a version once
// installed is reused offline and two versions never share a dependency tree.
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import semver from 'semver'
import { EXIT, exitCodeFor, Interrupted, STOP_SIGNALS, UsageError } from '../errors.js'
import { signalChild } from '../engine/children.js'
import { isAlive, ownerOf } from '../engine/run-dir.js'

// --cache DIR, else $XDG_CACHE_HOME/log-bench, else ~/.cache/log-bench (the XDG base directory rule).
export function cacheRoot (given = null, env = process.env) {
  if (given != null) return path.resolve(given)
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return path.join(env.XDG_CACHE_HOME, 'log-bench')
  return path.join(os.homedir(), '.cache', 'log-bench')
}

// A package name as a directory name: "@oven/bun-linux-x64" -> "@oven+bun-linux-x64".
export const safeName = (packageName) => packageName.replace('/', '+')

const COMPLETE = '.log-bench-complete'

// The versions of a package installed (completely) under kind ('libs' or 'runtimes'), newest first:
// [{ version, dir }].
export function cachedVersions (root, kind, packageName) {
  const base = path.join(root, kind)
  let names
  try {
    names = fs.readdirSync(base)
  } catch {
    return []
  }
  const prefix = `${safeName(packageName)}@`
  return names
    .filter((n) => n.startsWith(prefix) && semver.valid(n.slice(prefix.length)))
    .map((n) => ({ version: n.slice(prefix.length), dir: path.join(base, n) }))
    .filter((v) => fs.existsSync(path.join(v.dir, COMPLETE)))
    .sort((a, b) => semver.rcompare(a.version, b.version))
}

// What a NAME@RANGE can ask for: a semver range (9, ^9.1, 2.4.7, >=5 <7) or a dist-tag (latest, next).
export function checkRange (packageName, range) {
  if (semver.validRange(range) || /^[a-z][\w.-]*$/i.test(range)) return
  throw new UsageError(`"${packageName}@${range}": "${range}" is neither a version range (9, 2.4.7, ^9.1) nor a dist-tag (latest)`)
}

// The version a NAME@RANGE asks for, installed: an exact version already cached is used as it is;
// otherwise the registry says which version the range means today (the newest match, as npm
// install would pick) and that one is used from the cache or installed, under a lock. Without the
// registry (offline), the newest cached match is used, and said so. Returns { version, dir,
// installed } where dir holds node_modules/<package>.
// signal: an AbortSignal (the API's) that stops npm and rejects with Interrupted; without one, Ctrl-C
// and SIGTERM stop npm and exit as interrupted (the command line).
export async function ensureInstalled ({
  root,
  kind,
  packageName,
  range,
  what = packageName,
  progress = defaultProgress,
  signal = null
}) {
  checkRange(packageName, range)
  const cachedAt = (version) => cachedVersions(root, kind, packageName).find((v) => v.version === version)
  const exact = semver.valid(range) && cachedAt(semver.valid(range))
  if (exact) return { ...exact, installed: false }
  const wanted = await registryVersion(packageName, range, signal)
  if (wanted.offline) {
    const fallback = semver.validRange(range) &&
      cachedVersions(root, kind, packageName).find((v) => semver.satisfies(v.version, range))
    if (!fallback) throw new UsageError(`cannot install ${packageName}@${range}: the npm registry is unreachable (${wanted.offline}) and no cached version matches (see log-bench list --versions ${what})`)
    progress(`the npm registry is unreachable (${wanted.offline}): using the cached ${what} ${fallback.version} for ${packageName}@${range}`)
    return { ...fallback, installed: false }
  }
  const hit = cachedAt(wanted.version)
  if (hit) return { ...hit, installed: false }
  makeDir(path.join(root, kind))
  return withLock(root, progress, async () => {
    // Another run may have installed it while this one waited for the lock.
    const raced = cachedAt(wanted.version)
    if (raced) return { ...raced, installed: false }
    const started = Date.now()
    progress(`installing ${what} ${wanted.version} (${packageName}@${range}) into ${path.join(root, kind)}: first use, later runs reuse it offline`)
    const { version, dir } = await npmInstall({
      base: path.join(root, kind),
      packageName,
      version: wanted.version,
      signal
    })
    progress(`installed ${what} ${version} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    return { version, dir, installed: true }
  })
}

// npm view NAME@RANGE version: { version } (the newest match), { offline: code } when the registry
// cannot be reached; a range nothing matches, or a package that does not exist, is bad input.
async function registryVersion (packageName, range, signal) {
  const { code, stdout, stderr } = await runNpm(['view', `${packageName}@${range}`, 'version', '--json', '--fetch-retries=1', '--fetch-timeout=20000'], { what: `looking up ${packageName}@${range}`, signal })
  let answer = null
  try { answer = JSON.parse(stdout) } catch {}
  if (code === 0) {
    const versions = (Array.isArray(answer) ? answer : [answer]).filter((v) => semver.valid(v))
    if (versions.length === 0) throw new UsageError(`no published version of ${packageName} matches "${range}" (see npm view ${packageName} versions)`)
    return { version: versions.sort(semver.rcompare)[0] }
  }
  const errorCode = answer?.error?.code ?? /code (E[A-Z0-9]+)/.exec(stderr)?.[1] ?? null
  if (OFFLINE_CODES.includes(errorCode)) return { offline: errorCode }
  throw new UsageError(npmFailure(packageName, range, answer?.error, stderr))
}

const OFFLINE_CODES = ['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ETIMEDOUT', 'ECONNRESET', 'ENETUNREACH', 'EHOSTUNREACH']

function defaultProgress (line) {
  process.stderr.write(`${line}\n`)
}

function makeDir (dir) {
  try {
    fs.mkdirSync(dir, { recursive: true })
  } catch (err) {
    throw new UsageError(`cannot create the version cache ${dir}: ${err.code ?? err.message} (give a writable directory with --cache DIR)`)
  }
  try {
    fs.accessSync(dir, fs.constants.W_OK)
  } catch {
    throw new UsageError(`the version cache ${dir} is not writable (give a writable directory with --cache DIR)`)
  }
}

// One install at a time per cache: a lock file created exclusively, naming its owner as the results
// lock and run directories do (pid and start time, src/engine/run-dir.js). A lock whose owner is
// gone (killed mid-install), or whose pid is now another process's (it started later), is taken
// over at once. A lock of an older log-bench holds the pid alone: its owner is whatever has that pid.
const LOCK_WAIT_MS = 10 * 60_000
export async function withLock (root, progress, fn) {
  const lock = path.join(root, '.install.lock')
  const mine = JSON.stringify(ownerOf(process.pid))
  const deadline = Date.now() + LOCK_WAIT_MS
  let told = false
  for (;;) {
    try {
      fs.writeFileSync(lock, mine, { flag: 'wx' })
      break
    } catch (err) {
      if (err.code !== 'EEXIST') throw new UsageError(`cannot lock the version cache ${root}: ${err.code ?? err.message}`)
      const owner = lockOwner(readOr(lock, ''))
      if (!owner || !isAlive(owner)) {
        fs.rmSync(lock, { force: true })
        continue
      }
      if (Date.now() > deadline) throw new UsageError(`the version cache ${root} has been locked by process ${owner.pid} for ${LOCK_WAIT_MS / 60_000} minutes; if no log-bench is installing, remove ${lock}`)
      if (!told) progress(`waiting for process ${owner.pid}, which is installing into ${root}`)
      told = true
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  // Released also when the process exits inside fn (Ctrl-C during an install exits from there).
  const release = () => {
    if (readOr(lock, '') === mine) fs.rmSync(lock, { force: true })
  }
  process.once('exit', release)
  try {
    return await fn()
  } finally {
    process.off('exit', release)
    release()
  }
}

function readOr (file, fallback) {
  try {
    return fs.readFileSync(file, 'utf8').trim()
  } catch {
    return fallback
  }
}

// The lock's owner, { pid, started }, or null where it names none (empty, unreadable, not a pid).
function lockOwner (text) {
  let owner
  try {
    owner = JSON.parse(text)
  } catch {
    return null
  }
  if (Number.isInteger(owner)) owner = { pid: owner, started: null }
  return Number.isInteger(owner?.pid) && owner.pid > 0 ? owner : null
}

// Runs npm with its output captured: { code, stdout, stderr }. Given an AbortSignal, the npm child
// is stopped when it aborts (then `cleanup` runs and the call rejects with Interrupted). Without one
// (the command line), on Ctrl-C, SIGTERM, a hang-up or SIGQUIT the npm child is stopped and waited
// for (it may still be writing into the directory that `cleanup` removes), then `cleanup` runs and
// log-bench exits with the signal's code (130, 143, …). A second signal while waiting ends npm at once.
const NPM_STOP_GRACE_MS = 5000
async function runNpm (args, { cwd = process.cwd(), what, cleanup = () => {}, signal = null }) {
  if (signal?.aborted) throw new Interrupted(reasonOf(signal))
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const child = spawn(npm, [...args, '--loglevel=error', '--no-update-notifier'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let aborted = false
  let stopping = false
  const stop = (name) => {
    if (stopping) return signalChild(child)
    stopping = true
    const end = () => {
      let left = ''
      try { cleanup() } catch (err) { left = ` (could not remove what it left: ${err.code ?? err.message})` }
      process.stderr.write(`\n${name}: stopped ${what}${left}\n`)
      process.exit(name === 'SIGTERM' ? EXIT.TERMINATED : name === 'SIGINT' ? EXIT.INTERRUPTED : exitCodeFor(name))
    }
    if (child.exitCode !== null || child.signalCode !== null) return end()
    const force = setTimeout(() => signalChild(child), NPM_STOP_GRACE_MS)
    child.once('exit', () => { clearTimeout(force); end() })
    signalChild(child, 'SIGTERM')
  }
  const abort = () => {
    aborted = true
    signalChild(child, 'SIGTERM')
  }
  if (signal) signal.addEventListener('abort', abort, { once: true })
  else for (const name of STOP_SIGNALS) process.on(name, stop)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => { stdout = (stdout + chunk).slice(-1 << 20) })
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-8192) })
  try {
    const code = await new Promise((resolve) => {
      child.once('error', (err) => { stderr += `\n${err.code === 'ENOENT' ? 'npm was not found on PATH' : err.message}`; resolve(-1) })
      child.once('close', resolve)
    })
    if (aborted) {
      cleanup()
      throw new Interrupted(reasonOf(signal))
    }
    return { code, stdout, stderr }
  } finally {
    signal?.removeEventListener('abort', abort)
    if (!stopping) for (const name of STOP_SIGNALS) process.off(name, stop)
  }
}

const reasonOf = (signal) => (typeof signal.reason === 'string' ? signal.reason : 'abort')

// npm install of one exact version into a fresh directory beside the others, renamed into place
// (`<name>@<version>`) only once complete. No install scripts (none of the packages log-bench
// installs needs one: the runtimes ship their binary in the tarball), no audit, no funding notes,
// no lock file, production dependencies only. On Ctrl-C the directory is removed.
async function npmInstall ({ base, packageName, version, signal }) {
  const tmp = path.join(base, `.install-${crypto.randomBytes(6).toString('hex')}`)
  fs.mkdirSync(tmp)
  fs.writeFileSync(path.join(tmp, 'package.json'), '{ "private": true }\n')
  try {
    const { code, stderr } = await runNpm(['install', `${packageName}@${version}`, '--ignore-scripts', '--no-audit', '--no-fund', '--omit=dev', '--no-package-lock'], {
      cwd: tmp,
      what: `installing ${packageName}@${version}`,
      cleanup: () => fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 5 }),
      signal
    })
    if (code !== 0) throw new UsageError(npmFailure(packageName, version, null, stderr))
    const got = JSON.parse(readOr(path.join(tmp, 'node_modules', packageName, 'package.json'), '{}')).version
    if (got !== version) throw new UsageError(`npm install ${packageName}@${version} finished but left ${got ? `version ${got}` : `no ${packageName}/package.json`}`)
    fs.writeFileSync(path.join(tmp, COMPLETE), `${packageName}@${version}\n`)
    const dir = path.join(base, `${safeName(packageName)}@${version}`)
    fs.rmSync(dir, { recursive: true, force: true })
    fs.renameSync(tmp, dir)
    return { version, dir }
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true })
    throw err
  }
}

// npm's own reason, in one line: "no published version matches", "no such package", "offline".
export function npmFailure (packageName, range, error, stderr) {
  const lines = stderr.split('\n').map((l) => l.replace(/^npm (error|ERR!)\s*/, '').trim()).filter(Boolean)
  const code = error?.code ?? /^code (\S+)/.exec(lines.find((l) => /^code \S+/.test(l)) ?? '')?.[1]
  const summary = error?.summary ?? lines.find((l) => /^404 /.test(l))?.replace(/^404\s*/, '') ?? ''
  if (code === 'ETARGET' || (code === 'E404' && /No match found for version/i.test(summary))) return `no published version of ${packageName} matches "${range}" (see npm view ${packageName} versions)`
  if (code === 'E404') return `${packageName} is not in the npm registry (404)`
  if (OFFLINE_CODES.includes(code)) return `cannot install ${packageName}@${range}: the npm registry is unreachable (${code})`
  const reason = error?.summary ?? lines.find((l) => !/^(code|errno|syscall|A complete log|path|command|signal|404\s*$)\b/.test(l)) ?? 'no reason given'
  return `npm ${error ? 'view' : 'install'} ${packageName}@${range} failed${code ? ` (${code})` : ''}: ${reason.split('\n')[0]}`
}
