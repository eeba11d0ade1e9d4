import { fork } from 'node:child_process'
import { answerConfigure, signalChild, spawnReason } from '../../engine/children.js'
import { RunFailure } from '../../errors.js'
import { SINK_PROCESS } from './arrivals.js'

// The harness's handle on the embedded sink: the sink runs in its own process (sink-process.js) so
// that receiving never competes with the harness's primary for an event loop.

const START_TIMEOUT_MS = 10_000
const STOP_GRACE_MS = 2_000
const STDERR_TAIL_BYTES = 2048

// Starts the sink in a child process and resolves once it listens. The handle's counts() asks the
// child for its counters; exited resolves with a reason when the child ends for any cause.
// The sink failing or dying, whenever it happens (starting, a counts request in flight or asked
// of a dead sink), rejects with a RunFailure: the run's failure with its reason, not the harness's.
export async function spawnSink (options) {
  // The options go over IPC when the child asks (the payload can be 1 MiB: too large for the environment).
  const child = fork(SINK_PROCESS, [], {
    env: { ...process.env, LOG_BENCH_SINK: '1' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc']
  })
  answerConfigure(child, options)
  let stderrTail = ''
  child.stderr.on('data', (chunk) => { stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES) })
  let stopping = false
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(sinkExitReason(child.pid, code, signal, stderrTail, stopping)))
    // A fork that failed (EMFILE) has no 'exit' to come.
    child.on('error', (err) => { if (child.pid === undefined) resolve(`the embedded syslog sink could not be started: ${spawnReason(err)}`) })
  })
  const pending = new Map()
  let nextId = 0
  let arrivedFrames = 0
  child.on('message', (msg) => {
    if (msg?.type === 'arrivals') arrivedFrames = msg.frames
    if (msg?.type === 'counts' && pending.has(msg.id)) {
      pending.get(msg.id).resolve(msg.counts)
      pending.delete(msg.id)
    }
  })
  exited.then((reason) => {
    for (const request of pending.values()) request.reject(new RunFailure(reason))
    pending.clear()
  })
  const started = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new RunFailure(`the embedded syslog sink did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS)
    const onMessage = (msg) => {
      if (msg?.type !== 'listening' && msg?.type !== 'error') return
      clearTimeout(timer)
      child.off('message', onMessage)
      if (msg.type === 'listening') resolve(msg.sink)
      else reject(new RunFailure(msg.message ?? 'the embedded syslog sink failed to start'))
    }
    child.on('message', onMessage)
    exited.then((reason) => { clearTimeout(timer); reject(new RunFailure(`${reason} while starting`)) })
  }).catch(async (err) => {
    await stopChild()
    throw err
  })

  async function stopChild () {
    stopping = true
    if (child.exitCode !== null || child.signalCode !== null) return
    // A sink that died but is not reaped yet still looks connected: the send then fails (EPIPE),
    // which without a callback would be an uncaught 'error'. Its exit is awaited either way.
    if (child.connected) child.send({ type: 'stop' }, () => {})
    const timer = setTimeout(() => signalChild(child), STOP_GRACE_MS)
    await exited
    clearTimeout(timer)
  }

  return {
    ...started,
    pid: child.pid,
    exited,
    // Frames (messages) received so far as last reported, within ARRIVALS_EVERY_MS (arrivals.js).
    arrivals: () => arrivedFrames,
    counts ({ exact = false } = {}) {
      if (!child.connected) return exited.then((reason) => { throw new RunFailure(reason) })
      return new Promise((resolve, reject) => {
        const id = nextId++
        pending.set(id, { resolve, reject })
        // The sink can die between the check above and this send: report why it died, not EPIPE.
        child.send({ type: 'counts', id, exact }, (err) => {
          if (!err) return
          pending.delete(id)
          exited.then((reason) => reject(new RunFailure(reason)))
        })
      })
    },
    // --receiver-rate, --receiver-stall: stop slowing down (the run failed or was stopped).
    release () {
      if (child.connected) child.send({ type: 'release' }, () => {})
    },
    stop: stopChild
  }
}

function sinkExitReason (pid, code, signal, stderrTail, stopping) {
  if (stopping && code === 0) return 'the embedded syslog sink was stopped'
  const lastLine = stderrTail.trim().split('\n').filter(Boolean).pop()
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`
  return `the embedded syslog sink (pid ${pid}) ${how}${lastLine ? `: ${lastLine}` : ''}`
}
