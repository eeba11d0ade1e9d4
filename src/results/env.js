import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { UsageError } from '../errors.js'
import { cpusOf } from '../engine/affinity.js'
import { boundedSeries } from '../engine/bounded-series.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

// log-bench's own package.json, read once.
let ownPackage = null
const packageJson = () => (ownPackage ??= JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')))

export function toolVersion () {
  return packageJson().version
}

// The repository to clone for the code a results file was measured with (package.json's repository).
export function repositoryUrl () {
  const { repository } = packageJson()
  const url = typeof repository === 'string' ? repository : repository?.url
  return typeof url === 'string' ? url.replace(/^git\+/, '') : null
}

// A file of that repository as a reader opens it (docs/costs.md#heading), for a page that may be read
// away from the clone; null where package.json names no repository.
export function repositoryFileUrl (file) {
  const url = repositoryUrl()
  return url ? `${url.replace(/\.git$/, '')}/blob/main/${file}` : null
}

function gitCommit () {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

// Tracked files under log-bench's root that differ from that commit when the runs began: [] for a
// clean checkout, null outside a git checkout. A page's Reproduce block names them, since checking
// out the commit alone would not give the code (or the scenario) that ran. The published results and
// their charts are left out: runs write them (the results job runs one scenario after another in one
// checkout) and no run reads them.
export const codeChanges = (files) => files.filter((file) => typeof file === 'string' && !/^(results|images)\//.test(file))

function gitChanges () {
  try {
    const out = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    return codeChanges(out.split('\n').filter(Boolean).map((line) => line.slice(3)))
  } catch {
    return null
  }
}

function osName () {
  try {
    const release = fs.readFileSync('/etc/os-release', 'utf8')
    const pretty = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(release)
    if (pretty) return `${pretty[1]} (${os.type()} ${os.release()} ${os.arch()})`
  } catch {}
  return `${os.type()} ${os.release()} ${os.arch()}`
}

// A record names no folder of the machine that measured: a path inside the directory log-bench ran
// in is kept relative to it, one outside it by its file name alone.
export function recordedPath (file) {
  const relative = path.relative(process.cwd(), file)
  return relative.startsWith('..') || path.isAbsolute(relative) ? path.basename(file) : relative
}

// The same for the paths inside a command line: the working directory's prefix comes off.
export function recordedCommand (command) {
  return command.split(process.cwd() + path.sep).join('')
}

// Everything a reader needs to judge or reproduce the numbers.
// command: the command line that gives the same options (the API's options written as one).
export function collectEnv ({ options, libVersions, command }) {
  const cpus = os.cpus()
  return {
    node: process.version,
    v8: process.versions.v8,
    os: osName(),
    platform: process.platform,
    arch: process.arch,
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    cpuCount: cpus.length,
    // A taskset or a container's CPU set around log-bench narrows what its runs may use.
    allowedCpus: cpusOf('self'),
    memoryBytes: os.totalmem(),
    ...machineLoad(),
    machine: machineKind(),
    hostname: os.hostname(),
    logBenchVersion: toolVersion(),
    gitCommit: gitCommit(),
    gitChanges: gitChanges(),
    libVersions,
    command: typeof command === 'string' ? recordedCommand(command) : command,
    options,
    time: new Date().toISOString()
  }
}

// Whether the machine is a virtual machine, and in a container: a VM's CPUs are shared with other
// guests (steal time) and a page's times are that VM's. systemd-detect-virt where installed; else the
// DMI vendor (/sys/class/dmi/id/sys_vendor) and the CPU's hypervisor flag (/proc/cpuinfo), which every
// hypervisor sets for its guests; a container from /.dockerenv or /run/.containerenv.
// { virtual: true | false | null (not known), hypervisor, container, how }.
const VM_VENDORS = /QEMU|KVM|VMware|Xen|Microsoft Corporation|innotek|VirtualBox|Amazon EC2|Google|DigitalOcean|Hetzner|OpenStack|Parallels|Bochs/i

export function machineKind ({ detect = detectVirt, read = readText, exists = fs.existsSync } = {}) {
  const vm = detect('--vm')
  const container = detect('--container')
  if (vm != null) {
    return { virtual: vm !== 'none', hypervisor: vm === 'none' ? null : vm, container: container && container !== 'none' ? container : containerFile(exists), how: 'systemd-detect-virt' }
  }
  const vendor = read('/sys/class/dmi/id/sys_vendor')?.trim() || null
  const flagged = /^flags\s*:.*\bhypervisor\b/m.test(read('/proc/cpuinfo') ?? '')
  const known = vendor != null || read('/proc/cpuinfo') != null
  return {
    virtual: vendor && VM_VENDORS.test(vendor) ? true : flagged ? true : known ? false : null,
    hypervisor: vendor && VM_VENDORS.test(vendor) ? vendor : null,
    container: containerFile(exists),
    how: vendor != null ? 'DMI vendor and the CPU hypervisor flag' : 'the CPU hypervisor flag'
  }
}

function detectVirt (flag) {
  try {
    return execFileSync('systemd-detect-virt', [flag], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null
  } catch (err) {
    // It exits 1 printing "none" where there is none; absent (ENOENT), it says nothing.
    return typeof err.stdout === 'string' && err.stdout.trim() ? err.stdout.trim() : null
  }
}

function readText (file) {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

function containerFile (exists) {
  if (exists('/.dockerenv')) return 'docker'
  if (exists('/run/.containerenv')) return 'podman'
  return null
}

// The versions of the packages a library needs for a transport (an adapter's transportPackages:
// winston-syslog for winston over udp), from the project's node_modules: { package: version }.
// uses: [{ adapter, transport }], the plan's libraries and transports as its cells pair them.
export function transportVersions (uses) {
  const versions = Object.create(null)
  const names = uses.flatMap(({ adapter, transport }) => adapter?.transportPackages?.[transport] ?? [])
  for (const name of names) {
    if (Object.hasOwn(versions, name)) continue
    try {
      versions[name] = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version ?? null
    } catch {
      versions[name] = null
    }
  }
  return { ...versions }
}

// rsyslogd's version ("8.2302.0"), where a run starts one; null where it cannot say.
export function rsyslogdVersion (binary, { timeoutMs = 5000 } = {}) {
  // In a process group of its own, ended whole when it answered or timed out: the binary may be a
  // wrapper (LOG_BENCH_RSYSLOGD) that leaves children behind, and nothing started here may outlive it.
  return new Promise((resolve) => {
    let out = ''
    let child
    const endGroup = () => {
      try { process.kill(-child.pid, 'SIGKILL') } catch {}
    }
    try {
      child = spawn(binary, ['-v'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] })
    } catch {
      return resolve(null)
    }
    const timer = setTimeout(() => { endGroup(); resolve(null) }, timeoutMs)
    child.stdout.on('data', (chunk) => { out += chunk })
    child.on('error', () => { clearTimeout(timer); resolve(null) })
    // Its own exit ends what it left in its group; its output is whole once every holder closed it.
    child.on('exit', endGroup)
    child.on('close', () => {
      clearTimeout(timer)
      resolve(/rsyslogd\s+(\S+)/.exec(out)?.[1] ?? null)
    })
  })
}

// { name: version } of the libraries measured; a library measured at several versions (pino@9,
// pino@10) has them all, comma-separated.
export function libVersionsOf (libs) {
  // Keyed by names that are data ("constructor", "__proto__"): no inherited property answers.
  const versions = Object.create(null)
  for (const lib of libs) {
    const known = Object.hasOwn(versions, lib.name) && versions[lib.name] ? versions[lib.name].split(', ') : []
    if (lib.version != null && !known.includes(lib.version)) known.push(lib.version)
    versions[lib.name] = known.length ? known.join(', ') : lib.version
  }
  return versions
}

// How busy the machine was when the command began: the load average over 1, 5 and 15 minutes and
// the memory available to new processes (os.freemem(): MemAvailable on Linux). Other processes'
// work slows and spreads the times a run measures; instruction counts are not affected.
function machineLoad () {
  return { loadAverage: os.loadavg(), availableMemoryBytes: os.freemem() }
}

// How busy the machine stayed while the runs went on: the 1-minute load average every 10 s, as
// env.loadSamples [[seconds since env.time, load], …] (the first at once), so that a page can say
// whether the load at the start lasted. A resumed document adds to its own, counted from its start.
// The timer does not keep a process alive (the API runs inside a user's). stop() ends the sampling.
export const LOAD_SAMPLE_MS = 10_000
// The samples a document keeps at most (the results schema's maxItems): 27 h 46 min at 10 s, then
// thinned (boundedSeries).
export const LOAD_SAMPLES = 10_000

export function sampleLoad (env, { everyMs = LOAD_SAMPLE_MS, now = Date.now, loadavg = os.loadavg } = {}) {
  const start = Date.parse(env.time)
  env.loadSamples ??= []
  const samples = boundedSeries(LOAD_SAMPLES, env.loadSamples)
  const take = () => {
    const seconds = Number.isFinite(start) ? Math.max(0, Math.round((now() - start) / 100) / 10) : 0
    samples.push([seconds, Math.round(loadavg()[0] * 100) / 100])
  }
  take()
  const timer = setInterval(take, everyMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}

// From a 1-minute load average of half the CPUs on, another process is running about half the time
// on each CPU: a timed run gets slower and its runs spread. LOG_BENCH_BUSY_LOAD sets the threshold per
// CPU (0 warns always, "off" never).
const BUSY_LOAD_PER_CPU = 0.5

export function busyThreshold (value = process.env.LOG_BENCH_BUSY_LOAD) {
  if (value == null || value === '') return BUSY_LOAD_PER_CPU
  if (value === 'off') return Infinity
  const threshold = Number(value)
  if (!(threshold >= 0) || !Number.isFinite(threshold)) throw new UsageError(`LOG_BENCH_BUSY_LOAD must be a load average per CPU such as 0.5 (0 warns always), or off, got "${value}"`)
  return threshold
}

// The warning for an env whose machine was busy at the start (see busyThreshold), else null.
export function busyWarning ({ loadAverage, cpuCount, availableMemoryBytes }, perCpu = busyThreshold()) {
  const [lastMinute] = loadAverage ?? []
  if (lastMinute == null || lastMinute < perCpu * cpuCount) return null
  const memory = availableMemoryBytes == null ? '' : `, ${(availableMemoryBytes / 1024 ** 3).toFixed(1)} GiB of memory available`
  return `the machine is busy: load average ${lastMinute.toFixed(2)} over the last minute on ${cpuCount} CPU${cpuCount === 1 ? '' : 's'}${memory}; times measured now are slower and spread more than on a quiet machine (this warns from ${perCpu} per CPU; LOG_BENCH_BUSY_LOAD sets it)`
}

// The conditions each command began in, one entry each ({ file, shard, env }): a merged file's
// shards each began on their own machine at their own load (env.shards keeps each one's); any other
// file, its env. Merged files from before the shards kept their load: their env, as it is.
export function startEnvs (envs) {
  const perShard = (env) => Array.isArray(env?.shards) && env.shards.some((s) => Array.isArray(s?.loadAverage))
  return envs.flatMap(({ file, env }) => (perShard(env)
    ? env.shards.map((s) => ({ file, shard: s.shard, env: s }))
    : [{ file, shard: null, env }]))
}
