import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { forkWorker, killChildren, startWorker, trackChild } from '../engine/children.js'
import { MESSAGES } from '../engine/messages.js'
import { endTagged, newRunTag, TAG_VARIABLE } from '../engine/leftovers.js'
import { worstLoopDelay } from '../engine/costs.js'
import { ServerFailure } from '../errors.js'
import { COUNTED_SERVER_NODE_FLAGS, countingRuntime, readCompilerCount, readCount } from '../engine/instructions.js'
import { maxOf } from '../stats.js'

const SERVER_WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server-worker.js')
const PHASES = { uncaught: 'serving requests (uncaught error)' }
const countFile = (dir, workerId) => path.join(dir, `instructions-${workerId}.out`)

// Forks the server's cluster workers (stdout and stderr are pipes to this process, read by the
// receiver like `run` reads its workers). `listening` resolves with the port once every worker
// listens; `failed` rejects with the reason as soon as a worker fails or exits before it was stopped.
// settings: the cell's (src/http/matrix.js); each worker's configuration is the settings plus its
// workerId and target, under the same names. Counted (measure 'instructions'): each worker runs
// under the counter and leaves its count in countDir.
export function startServer (settings, { receiver, countDir = null }) {
  const { cpus } = settings
  const runtime = settings.runtimeBinary ?? null
  const counted = settings.measure === 'instructions'
  let reportFailure
  const failed = new Promise((resolve, reject) => {
    reportFailure = (reason, kind) => reject(new ServerFailure(reason, kind))
  })
  failed.catch(() => {})
  const entries = []
  const tag = newRunTag()
  let announce
  const listening = new Promise((resolve) => { announce = resolve })
  for (let workerId = 0; workerId < cpus; workerId++) {
    const config = { ...settings, workerId, target: receiver.target(workerId) }
    // A receiver may give each worker its own stdout (the console transport's native pipe).
    const forkedUnder = counted
      ? countingRuntime(runtime, settings, countFile(countDir, workerId), COUNTED_SERVER_NODE_FLAGS)
      : runtime
    let child
    try {
      child = startWorker(`server worker ${workerId}`, () => forkWorker({ exec: SERVER_WORKER, stdio: ['ignore', receiver.stdoutFor?.(workerId) ?? 'pipe', 'pipe', 'ipc'], runtime: forkedUnder, env: { [TAG_VARIABLE]: tag } }))
    } catch (err) {
      // The workers already forked are this handle's to end (kill()).
      reportFailure(err.message, err.failure)
      break
    }
    receiver.forked?.(workerId)
    const entry = trackChild(child, {
      name: `server worker ${workerId}`,
      config,
      messages: MESSAGES.serverWorker,
      receiver,
      workerId,
      phases: PHASES,
      onMessage (msg) {
        if (msg.type !== 'listening') return
        entry.port = msg.port
        if (entries.every((e) => e.port !== null)) announce({ port: msg.port })
      },
      onExit (failure, signal, kind) {
        if (failure) reportFailure(failure, kind)
        else entry.onClosed?.()
      }
    })
    entry.port = null
    entry.onClosed = null
    entries.push(entry)
  }
  return {
    listening,
    failed,
    pids: entries.map((e) => e.child.pid),
    measure () {
      for (const e of entries) e.child.send({ type: 'measure' })
    },
    // Asks every worker to close its server and logger; resolves once each has reported and exited.
    async stop () {
      await Promise.all(entries.map((e) => new Promise((resolve) => {
        e.onClosed = resolve
        e.child.send({ type: 'stop' })
      })))
      const closed = entries.map((e) => e.closed)
      const sum = (key) => closed.reduce((total, c) => total + c[key], 0)
      return {
        logged: sum('logged'),
        served: closed.every((c) => c.served != null) ? sum('served') : null,
        cpuUserMs: sum('cpuUserMs'),
        cpuSystemMs: sum('cpuSystemMs'),
        measuredMs: maxOf(closed.map((c) => c.measuredMs)),
        eventLoopDelayNs: worstLoopDelay(closed.map((c) => c.eventLoopDelayNs ?? null)),
        maxRssBytes: maxOf(closed.map((c) => c.maxRssBytes)),
        // Each worker's count, once it has exited (the counter writes it at the exit).
        instructions: counted
          ? entries.reduce((total, e) => total + readCount(settings, countFile(countDir, e.workerId)), 0)
          : null,
        // Of those, V8's compilers' (null where the counter cannot tell them apart: perf).
        compilerInstructions: counted
          ? sumOrNull(entries.map((e) => readCompilerCount(settings, countFile(countDir, e.workerId))))
          : null
      }
    },
    // Processes the adapter started in the server workers, still running: ended, and named.
    endLeftovers: () => endTagged(tag),
    async kill () {
      await killChildren(entries.map((e) => e.child))
      endTagged(tag)
    }
  }
}

const sumOrNull = (values) => (values.some((v) => v == null) ? null : values.reduce((a, b) => a + b, 0))
