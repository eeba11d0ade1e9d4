import { fork } from 'node:child_process'
import cluster from 'node:cluster'
import { RunFailure } from '../errors.js'
import { openFilesLimit } from '../limits.js'
import { atLastResort } from './last-resort.js'
import { invalidMessage, oneLine } from './messages.js'

// The primary's side of every process it forks (run workers, http server workers, the load
// generator): configuration over IPC, a stderr tail for the failure message, stdout to the receiver,
// and an exit judged only once the last IPC message can have arrived.

const STDERR_TAIL_BYTES = 4096
// After 'exit', how long to wait for the IPC channel to close before judging the exit anyway.
const LATE_EXIT_MS = 1000

const PHASES = {
  setup: 'building the logger',
  logging: 'logging',
  listen: 'starting to listen',
  close: 'closing the logger',
  load: 'putting the server under load',
  uncaught: 'running (uncaught error)'
}

// Gives a child its configuration when it asks for it (receiveConfig in child-side.js).
export function answerConfigure (child, config) {
  child.on('message', (msg) => {
    if (msg?.type === 'configure' && child.connected !== false) child.send({ type: 'config', config, primaryNs: String(process.hrtime.bigint()) })
  })
}

// Follows one child (a ChildProcess, e.g. a cluster worker's .process). It answers the child's
// 'configure' request with `config`: over IPC rather than in the environment, whose size the kernel
// limits (a 1 MiB payload failed the fork with E2BIG), and only once the child listens, so the
// configuration cannot arrive before the child's handler exists. onMessage sees every message
// object; onExit(failure, signal, kind, code) is called once, with failure null when the child had sent its
// last message (`lastMessage`, 'closed' by default), else the reason and its kind (see RunFailure). A child's last IPC
// messages can still be in flight when its exit is reported: the exit is judged only once the IPC
// channel has closed too, so a clean finish is never mistaken for a crash.
// Messages are checked against `messages` (see messages.js): a malformed one is the child's failure,
// and the child is killed.
export function trackChild (child, { name, config, messages = {}, receiver = null, workerId = 0, maxOldSpaceSize = null, phases = {}, lastMessage = 'closed', onMessage = () => {}, onExit }) {
  const entry = { child, workerId, closed: null, exited: false, error: null, invalid: null, stderrTail: '' }
  answerConfigure(child, config)
  child.stderr?.on('data', (chunk) => { entry.stderrTail = (entry.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES) })
  if (receiver?.consumesStdout) receiver.attach(workerId, child)
  else child.stdout?.resume()
  child.on('message', (msg) => {
    if (!msg || typeof msg !== 'object' || entry.invalid) return
    const invalid = invalidMessage(messages, msg)
    if (invalid) {
      entry.invalid = `${name} sent a malformed "${msg.type}" message (${invalid}); is the adapter calling process.send?`
      signalChild(child)
      return
    }
    if (msg.type === lastMessage) entry.closed = msg
    else if (msg.type === 'error') entry.error = `${name} failed while ${phaseName(phases, msg.phase)}: ${oneLine(msg.message)}`
    onMessage(msg)
  })
  // A fork that failed (EMFILE, EAGAIN: no process, so no 'exit' will follow) is the child's
  // failure with the system's reason; any other 'error' (a send on a closed channel) is followed
  // by the exit that is judged.
  child.on('error', (err) => {
    if (child.pid !== undefined || entry.exited) return
    entry.exited = true
    onExit(`${name} could not be started: ${spawnReason(err)}`, null, { kind: 'error' })
  })
  let exit = null
  const judge = () => {
    if (!exit || entry.exited || (child.connected && !exit.late)) return
    entry.exited = true
    if (entry.invalid) return onExit(entry.invalid, exit.signal, { kind: 'error' })
    // A logger that threw (or rejected) in the background while closing sends its error, and its
    // close() may still resolve after it: the error wins over a later 'closed'.
    if (entry.error) return onExit(entry.error, exit.signal, { kind: 'error' })
    if (entry.closed) return onExit(null, exit.signal, null, exit.code)
    onExit(
      exitReason(name, exit.code, exit.signal, entry.stderrTail, maxOldSpaceSize),
      exit.signal,
      exitKind(exit.code, exit.signal, entry.stderrTail)
    )
  }
  child.on('exit', (code, signal) => {
    exit = { code, signal, late: false }
    judge()
    setTimeout(() => { exit.late = true; judge() }, LATE_EXIT_MS).unref()
  })
  child.once('disconnect', judge)
  // A message to a child that has just gone fails with an 'error' (EPIPE, or its channel closed
  // meanwhile): its exit says what happened. A child that could not be started has no exit to wait for.
  child.on('error', (err) => {
    if (child.pid !== undefined) return
    entry.error ??= `${name} could not be started: ${oneLine(err.message)}`
    exit = { code: null, signal: null, late: true }
    judge()
  })
  return entry
}

function phaseName (phases, phase) {
  if (Object.hasOwn(phases, phase)) return phases[phase]
  return Object.hasOwn(PHASES, phase) ? PHASES[phase] : oneLine(phase)
}

const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/i

// The kind of an exit before the child's last message (see RunFailure), beside exitReason's words.
export function exitKind (code, signal, stderrTail) {
  if (OUT_OF_MEMORY.test(stderrTail)) return { kind: 'out-of-memory' }
  if (signal) return { kind: 'killed', signal }
  return { kind: 'crashed', exitCode: code }
}

export function exitReason (name, code, signal, stderrTail, maxOldSpaceSize) {
  if (OUT_OF_MEMORY.test(stderrTail)) {
    return `${name} ran out of memory (JavaScript heap limit${maxOldSpaceSize ? ` of ${maxOldSpaceSize} MB` : ''} reached)`
  }
  const lastLine = stderrTail.trim().split('\n').filter(Boolean).pop()
  if (signal === 'SIGKILL') return `${name} was killed by SIGKILL${lastLine ? `: ${lastLine}` : ' (by the system, e.g. the out-of-memory killer, or by a user)'}`
  if (signal) return `${name} was killed by ${signal}${lastLine ? `: ${lastLine}` : ''}`
  return `${name} crashed with exit code ${code}${lastLine ? `: ${lastLine}` : ''}`
}

// Whether a child this process started is running and has a pid of its own. A child whose spawn
// failed (EMFILE, EAGAIN) has no pid, yet node keeps its handle until the next tick, and kill() then
// signals the pid the handle holds: 0 (this process's whole group, the user's shell with it) or
// whatever else the field held.
export function isRunning (child) {
  return Number.isInteger(child?.pid) && child.pid > 0 && child.exitCode === null && child.signalCode === null
}

// The one way to signal a child: only one that runs (isRunning). Returns whether it was signalled.
export function signalChild (child, signal = 'SIGKILL') {
  return isRunning(child) && child.kill(signal)
}

// Signals the process group that a detached child leads (its pid is the group's id): the child and
// whatever it started (a wrapper script's children), where any of them still runs.
export function signalGroup (pid, signal = 'SIGKILL') {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    return process.kill(-pid, signal)
  } catch {
    return false
  }
}

// SIGKILLs every child still running; resolves once all have exited.
export async function killChildren (children) {
  await Promise.all(children.map((child) => new Promise((resolve) => {
    if (!isRunning(child)) return resolve()
    child.once('exit', resolve)
    signalChild(child)
  })))
}

// Why a process could not be started, with what to change where the system's limits were the cause.
export function spawnReason (err) {
  const limit = openFilesLimit()
  if (err?.code === 'EMFILE' || /Too many open files/.test(err?.message)) return `${err.message} (the limit on open files, ulimit -n, is ${limit ?? 'reached'}: raise it or use fewer workers)`
  if (err?.code === 'EAGAIN') return `${err.message} (the system refused another process: a limit on processes, ulimit -u, or memory)`
  return err?.message ?? String(err)
}

// Forks one worker process running `exec`, under `runtime` (see src/versions/runtimes.js; null: the
// Node running log-bench), and returns its ChildProcess. Node workers are node:cluster workers, as
// the seed's were (http's servers share their port through it). node:cluster has no execPath
// setting: its fork() hands child_process.fork() no execPath, which then takes process.execPath,
// so that is what is set for the moment of the (synchronous) fork. Other runtimes get a plain
// child_process.fork() with execPath: a Bun 1.4 worker that loads node:cluster (log4js does)
// announces itself to the primary with a message Node's IPC cannot parse, and the primary dies.
// stdio is set for every fork: cluster keeps settings between calls.
// env: variables added to the worker's environment (the run's tag, src/engine/leftovers.js).
export function forkWorker (options) {
  const child = forkProcess(options)
  forked.add(child)
  child.once('exit', () => forked.delete(child))
  child.once('error', () => { if (!isRunning(child)) forked.delete(child) })
  return child
}

// The workers running now: a second stop signal ends them at once (src/engine/last-resort.js).
const forked = new Set()
atLastResort('processes', () => { for (const child of forked) signalChild(child) })

function forkProcess ({ exec, execArgv = [], stdio, runtime = null, env = {} }) {
  const argv = [...(runtime?.execArgv ?? []), ...execArgv]
  if (runtime && runtime.name !== 'node') return fork(exec, [], { execPath: runtime.execPath, execArgv: argv, stdio, env: { ...process.env, ...env } })
  cluster.setupPrimary({ exec, execArgv: argv, args: [], stdio })
  if (!runtime || runtime.execPath === process.execPath) return clusterProcess(env)
  const own = process.execPath
  process.execPath = runtime.execPath
  try {
    return clusterProcess(env)
  } finally {
    process.execPath = own
  }
}

// Runs `fork` (a forkWorker call, with whatever opens the worker's stdio); a fork that throws (the
// system out of file descriptors or memory) is the run's failure with the reason, not the harness's.
export function startWorker (name, fork) {
  try {
    return fork()
  } catch (err) {
    throw new RunFailure(`${name} could not be started: ${spawnReason(err)}`)
  }
}

// node:cluster re-emits its process's 'error' on the Worker, where nothing else listens: a failed
// spawn, or its own answer to a worker ended while it started to listen failing with EPIPE (an http
// run interrupted at that moment took the harness down). The process's own 'error' is its
// tracker's (trackChild), so the repetition is dropped.
function clusterProcess (env) {
  const worker = cluster.fork(env)
  worker.on('error', () => {})
  return worker.process
}
