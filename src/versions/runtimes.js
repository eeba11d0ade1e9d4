// --runtime: which binary runs the workers (run's loggers, http's servers). The primary, the
// receiving ends and the native readers stay in the Node running log-bench. Registry runtimes come
// from the npm registry's own binary packages, installed into the version cache like a library:
// node-<platform>-<arch> (the Node.js project's binaries, one package version per Node release),
// @oven/bun-<platform>-<arch> (Bun's, the packages its own npm installer uses), @deno/<platform>-<arch>-glibc
// (Deno's). Each is checked once by starting a worker under it (probe-worker.js).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { UsageError } from '../errors.js'
import { forkWorker, signalChild, spawnReason } from '../engine/children.js'
import { cacheRoot, ensureInstalled } from './cache.js'
import { DEFAULT_RUNTIME, parseRuntimes } from './runtime-names.js'

export { DEFAULT_RUNTIME, parseRuntimes }

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'probe-worker.js')
const PROBE_TIMEOUT_MS = 30_000

// The registry package holding a runtime's binary for this machine, and the binary inside it.
const { platform, arch } = process
export const RUNTIME_PACKAGES = {
  node: () => ({ packageName: `node-${platform}-${arch}`, binary: path.join('bin', platform === 'win32' ? 'node.exe' : 'node') }),
  bun: () => ({ packageName: `@oven/bun-${platform}-${arch}${arch === 'x64' && !hasAvx2() ? '-baseline' : ''}`, binary: path.join('bin', 'bun') }),
  deno: () => ({ packageName: `@deno/${platform}-${arch}${platform === 'linux' ? '-glibc' : ''}`, binary: 'deno' })
}

// Bun's default x64 build needs AVX2; its -baseline build runs on older CPUs.
function hasAvx2 () {
  try {
    return / avx2 /.test(fs.readFileSync('/proc/cpuinfo', 'utf8').replace(/\n/g, ' '))
  } catch {
    return true
  }
}

// Installs what is missing, then starts a worker under each runtime: [{ spec, name, version, label,
// execPath, execArgv, unsupported }], unsupported being null or why no worker can run under it.
export async function resolveRuntimes (entries, { cache = null, progress, signal = null } = {}) {
  const resolved = []
  for (const runtime of parseRuntimes(entries)) {
    resolved.push(await resolveRuntime(runtime, cacheRoot(cache), { progress, signal }))
  }
  const labels = resolved.map((r) => r.label)
  const twice = labels.find((l, i) => labels.indexOf(l) !== i)
  if (twice) throw new UsageError(`--runtime names ${twice} twice (${resolved.filter((r) => r.label === twice).map((r) => r.spec).join(' and ')}): give each runtime once`)
  return resolved
}

// What forks a process under a runtime (forkWorker in src/engine/children.js): its name and binary,
// as a cell's settings carry it (plain data; the record names the runtime by its label).
export function runtimeBinary (runtime) {
  return { name: runtime.name, execPath: runtime.execPath, execArgv: runtime.execArgv }
}

// The Node running log-bench: nothing to install or check.
export function currentRuntime () {
  return { spec: DEFAULT_RUNTIME, name: 'node', version: process.versions.node, label: `node ${process.versions.node}`, execPath: process.execPath, execArgv: [], unsupported: null }
}

async function resolveRuntime (runtime, root, { progress, signal }) {
  if (runtime.kind === 'node' && runtime.range === null) return currentRuntime()
  let execPath
  if (runtime.kind === 'path') execPath = checkBinary(runtime.file, runtime.spec)
  else {
    const { packageName, binary } = RUNTIME_PACKAGES[runtime.kind]()
    const { dir } = await ensureInstalled({ root, kind: 'runtimes', packageName, range: runtime.range ?? '*', what: runtime.kind, progress, signal })
    execPath = checkBinary(path.join(dir, 'node_modules', packageName, binary), runtime.spec)
  }
  // Deno runs a file with `deno run`, and asks before every file or network access unless allowed.
  const execArgv = runtime.kind === 'deno' || (runtime.kind === 'path' && /deno[^/\\]*$/.test(execPath)) ? ['run', '--allow-all'] : []
  const probe = await probeRuntime(execPath, execArgv)
  const name = probe.name ?? versionLine(execPath)?.name ?? path.basename(execPath)
  const version = probe.version ?? versionLine(execPath)?.version ?? null
  return { spec: runtime.spec, name, version, label: version ? `${name} ${version}` : name, execPath, execArgv, unsupported: probe.unsupported }
}

function checkBinary (file, spec) {
  let stat
  try {
    stat = fs.statSync(file)
  } catch (err) {
    throw new UsageError(`--runtime ${spec}: ${file} ${err.code === 'ENOENT' ? 'does not exist' : `cannot be read (${err.code})`}`)
  }
  if (!stat.isFile()) throw new UsageError(`--runtime ${spec}: ${file} is not a file (give the runtime's binary, e.g. /usr/local/bin/node)`)
  try {
    fs.accessSync(file, fs.constants.X_OK)
  } catch {
    throw new UsageError(`--runtime ${spec}: ${file} is not executable`)
  }
  return file
}

// "v22.1.0" (node), "1.4.5" (bun), "deno 2.9.6 (stable, ...)": for a runtime whose worker failed.
function versionLine (execPath) {
  try {
    const line = execFileSync(execPath, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0].trim()
    const match = /^(?:(\w+) )?v?(\d+\.\d+\.\d+\S*)/.exec(line)
    return match ? { name: match[1]?.toLowerCase() ?? (/bun/.test(execPath) ? 'bun' : 'node'), version: match[2] } : null
  } catch {
    return null
  }
}

// Starts probe-worker.js as run and http start their workers; resolves with { name, version,
// unsupported } (unsupported: null, or the reason the worker did not report).
function probeRuntime (execPath, execArgv) {
  return new Promise((resolve) => {
    let child
    try {
      child = forkWorker({ exec: PROBE, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], runtime: { name: null, execPath, execArgv } })
    } catch (err) {
      return resolve({ unsupported: `cannot start a worker under ${execPath}: ${err.message}` })
    }
    let stderr = ''
    let answer = null
    child.stderr?.on('data', (chunk) => { stderr = (stderr + chunk).slice(-4096) })
    child.on('message', (msg) => { if (msg?.type === 'runtime' && typeof msg.name === 'string') answer = msg })
    const timer = setTimeout(() => signalChild(child), PROBE_TIMEOUT_MS)
    child.on('error', (err) => {
      // A spawn that failed has no 'exit' to wait for.
      if (child.pid !== undefined) return (stderr += `\n${err.message}`)
      clearTimeout(timer)
      resolve({ unsupported: `cannot start a worker under ${execPath}: ${spawnReason(err)}` })
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (answer) return resolve({ name: answer.name, version: String(answer.version), unsupported: null })
      const last = stderr.replace(/\x1b\[[0-9;]*m/g, '').trim().split('\n').map((l) => l.trim()).filter(Boolean).slice(-1)[0]
      const how = signal === 'SIGKILL' ? `did not report within ${PROBE_TIMEOUT_MS / 1000} s` : `exited with ${signal ?? `code ${code}`}`
      resolve({ unsupported: `a node:cluster worker under this runtime ${how} before reporting over IPC${last ? `: ${last}` : ''}` })
    })
  })
}
