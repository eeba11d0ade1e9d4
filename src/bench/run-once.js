import cluster from 'node:cluster'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Interrupted, RunFailure } from '../errors.js'
import { createReceiver } from '../sinks/index.js'
import { fsTypeOf } from './fs-type.js'
import { startSampler } from './sampler.js'
import { DEFAULT_WORKLOAD, judgeArrivals } from './workloads.js'

const WORKER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker.js')
const STDERR_TAIL_BYTES = 4096
const LIVE_EVERY_MS = 500

const ms = (fromNs, toNs) => Number(toNs - fromNs) / 1e6

export { Interrupted, RunFailure }

// Starts the transport's receiving end in the run's directory. One that cannot start (e.g.
// rsyslogd failing) is the run's failure with the reason, { error }, not the harness's; the
// directory is removed then. Shared by run and http.
export async function openReceiver (transport, options) {
  try {
    return { receiver: await createReceiver(transport, options), error: null }
  } catch (err) {
    fs.rmSync(options.dir, { recursive: true, force: true })
    if (!(err instanceof RunFailure)) throw err
    return { receiver: null, error: err.message }
  }
}

// One run of one cell in fresh processes: fork the workers, wait until every logger is built,
// release them together, wait until every adapter has closed and the receiver has seen the last
// event, then verify. Never throws for a logger's failure: that becomes { ok: false, error }.
// onLive, if given, receives about every 0.5 s what the run looks like from outside:
// { elapsedMs, arrived, bytes, rssBytes } (the receiver's progress() and the workers' summed RSS).
export async function runOnce ({ adapterFile, transport, cpus, events, payload, workload = DEFAULT_WORKLOAD, variant = 'default', timeoutMs, maxOldSpaceSize, signal, verify = true, receiverOptions = {}, baseDir = os.tmpdir(), onLive = null }) {
  const beganNs = process.hrtime.bigint()
  const dir = fs.mkdtempSync(path.join(baseDir, 'log-bench-'))
  const workers = []
  const state = { releasedNs: null, started: new Map(), unblocked: new Map(), closed: new Map(), heap: new Map() }
  const { receiver, error } = await openReceiver(transport, { workers: cpus, events, payload, workload, dir, ...receiverOptions })
  if (error) return judgeArrivals(finish({ ok: false, error, state, workers, sample: { series: [], peakRssBytes: 0 } }, { cpus, events, payload, overheadMs: 0, verify }), { workload, events })
  let sampler = null
  let liveTimer = null
  let outcome
  try {
    outcome = await drive()
  } finally {
    clearInterval(liveTimer)
    const sample = sampler ? sampler.stop() : { series: [], peakRssBytes: 0 }
    await killAll(workers)
    if (outcome && !outcome.ok && verify && state.releasedNs) outcome.partial = await countAfterFailure(receiver, cpus * events)
    await receiver.stop()
    fs.rmSync(dir, { recursive: true, force: true })
    if (outcome) {
      outcome.sample = sample
      outcome.doneMeans = verify ? receiver.doneMeans : 'every logger\'s close() resolved (nothing to count)'
      outcome.fsType = transport === 'file' ? fsTypeOf(baseDir) : null
    }
  }
  const overheadMs = ms(beganNs, process.hrtime.bigint())
  return judgeArrivals(finish(outcome, { cpus, events, payload, overheadMs, verify }), { workload, events })

  async function drive () {
    const execArgv = maxOldSpaceSize ? [`--max-old-space-size=${maxOldSpaceSize}`] : []
    const watch = watcher(signal, timeoutMs)
    // The receiving end dying (a sink or rsyslogd killed) is the cause of whatever the loggers do next.
    receiver.onFailure?.((reason) => watch.fail(`${reason} during the run`))
    try {
      for (let workerId = 0; workerId < cpus; workerId++) {
        const config = { adapterFile, transport, workerId, events, payload, workload, variant, target: receiver.target(workerId) }
        // stdio is set for every fork: cluster keeps settings between calls, and a receiver may give
        // each worker its own stdout (the console transport's native pipe).
        cluster.setupPrimary({ exec: WORKER_FILE, execArgv, args: [], stdio: ['ignore', receiver.stdoutFor?.(workerId) ?? 'pipe', 'pipe', 'ipc'] })
        const worker = cluster.fork({ LOG_BENCH_WORKER: JSON.stringify(config) })
        receiver.forked?.(workerId)
        workers.push(track(worker, workerId, receiver, state, watch, maxOldSpaceSize))
      }
      await watch.until(() => workers.every((w) => w.ready), 'building the logger')
      state.releasedNs = process.hrtime.bigint()
      for (const w of workers) w.worker.send({ type: 'start' })
      sampler = startSampler({
        pids: workers.map((w) => w.worker.process.pid),
        startNs: state.releasedNs,
        heapOf: () => [...state.heap.values()].reduce((a, b) => a + b, 0)
      })
      if (onLive) liveTimer = setInterval(() => onLive({ elapsedMs: ms(state.releasedNs, process.hrtime.bigint()), rssBytes: sampler.latestRssBytes(), ...receiver.progress?.() }), LIVE_EVERY_MS)
      await watch.until(() => workers.every((w) => w.exited && w.closed),
        () => (state.unblocked.size === cpus ? 'waiting for the logger\'s close() to resolve' : 'logging'))
      const sent = cpus * events
      const counts = await watch.race(receiver.settle({ sent }), 'verifying')
      return { ok: true, counts, sent, state, workers }
    } catch (err) {
      if (err instanceof Interrupted) throw err
      if (err instanceof RunFailure) return { ok: false, error: err.message, state, workers }
      throw err
    } finally {
      watch.dispose()
    }
  }
}

// Follows one worker's messages and exit; any exit before 'closed' fails the run with a reason.
function track (worker, workerId, receiver, state, watch, maxOldSpaceSize) {
  const entry = { worker, workerId, ready: false, closed: null, exited: false, stderrTail: '' }
  const child = worker.process
  child.stderr.on('data', (chunk) => { entry.stderrTail = (entry.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES) })
  if (receiver.consumesStdout) receiver.attach(workerId, child)
  else child.stdout?.resume()
  worker.on('message', (msg) => {
    if (!msg || typeof msg !== 'object') return
    if (msg.type === 'ready') entry.ready = true
    else if (msg.type === 'heap') state.heap.set(workerId, msg.heapBytes)
    else if (msg.type === 'unblocked') {
      state.unblocked.set(workerId, BigInt(msg.at))
      state.started.set(workerId, BigInt(msg.startedAt))
    }
    else if (msg.type === 'closed') { entry.closed = msg; state.closed.set(workerId, BigInt(msg.at)) }
    else if (msg.type === 'error') entry.error = `worker ${workerId} failed while ${phaseName(msg.phase)}: ${msg.message}`
    watch.poke()
  })
  // A worker's last IPC messages can still be in flight when its exit is reported: judge the exit
  // only once the IPC channel has closed too, so a clean finish is never mistaken for a crash.
  let exit = null
  const judge = () => {
    if (!exit || entry.exited || (child.connected && !exit.late)) return
    entry.exited = true
    if (entry.closed) return watch.poke()
    const reason = entry.error ?? exitReason(workerId, exit.code, exit.signal, entry.stderrTail, maxOldSpaceSize)
    // Ctrl-C reaches the workers too (same process group); give the primary's own signal handler
    // the moment it needs to call it an interruption rather than a crash.
    if (exit.signal === 'SIGINT' || exit.signal === 'SIGTERM') setTimeout(() => watch.fail(reason), 200)
    else watch.fail(reason)
  }
  worker.on('exit', (code, signal) => {
    exit = { code, signal, late: false }
    judge()
    setTimeout(() => { exit.late = true; judge() }, 1000).unref()
  })
  child.once('disconnect', judge)
  return entry
}

function phaseName (phase) {
  return { setup: 'building the logger', logging: 'logging', close: 'closing the logger', uncaught: 'running (uncaught error)' }[phase] ?? phase
}

export function exitReason (workerId, code, signal, stderrTail, maxOldSpaceSize) {
  if (/heap out of memory|Reached heap limit|Allocation failed/i.test(stderrTail)) {
    return `worker ${workerId} ran out of memory (JavaScript heap limit${maxOldSpaceSize ? ` of ${maxOldSpaceSize} MB` : ''} reached)`
  }
  const lastLine = stderrTail.trim().split('\n').filter(Boolean).pop()
  if (signal === 'SIGKILL') return `worker ${workerId} was killed by SIGKILL${lastLine ? `: ${lastLine}` : ' (by the system, e.g. the out-of-memory killer, or by a user)'}`
  if (signal) return `worker ${workerId} was killed by ${signal}${lastLine ? `: ${lastLine}` : ''}`
  return `worker ${workerId} crashed with exit code ${code}${lastLine ? `: ${lastLine}` : ''}`
}

// Waits for conditions on the run's state, failing on a worker failure, the run's time limit, or an interrupt.
function watcher (signal, timeoutMs) {
  let waiter = null
  let failure = null
  let phase = 'starting'
  const check = () => {
    if (!waiter) return
    if (signal?.aborted) return waiter.reject(new Interrupted(signal.reason ?? 'SIGINT'))
    if (failure) return waiter.reject(new RunFailure(failure))
    if (waiter.condition()) waiter.resolve()
  }
  const timer = setTimeout(() => {
    failure ??= `timed out after ${timeoutMs / 1000} s while ${typeof phase === 'function' ? phase() : phase}`
    check()
  }, timeoutMs)
  const onAbort = () => check()
  signal?.addEventListener('abort', onAbort)
  return {
    poke: check,
    fail (reason) { failure ??= reason; check() },
    until (condition, name) {
      phase = name
      return new Promise((resolve, reject) => {
        waiter = { condition, resolve, reject }
        check()
      }).finally(() => { waiter = null })
    },
    race (promise, name) {
      phase = name
      return new Promise((resolve, reject) => {
        waiter = { condition: () => false, resolve () {}, reject }
        check()
        promise.then(resolve, reject)
      }).finally(() => { waiter = null })
    },
    dispose () {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
  }
}

async function killAll (workers) {
  await Promise.all(workers.map((w) => new Promise((resolve) => {
    const child = w.worker.process
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', resolve)
    child.kill('SIGKILL')
  })))
}

// A failed run still says how much had arrived when it failed (e.g. a logger that timed out
// after losing most of its events); unknown when the receiving end itself failed.
const COUNT_AFTER_FAILURE_MS = 15_000
async function countAfterFailure (receiver, sent) {
  let timer
  try {
    return await Promise.race([
      receiver.settle({ sent }),
      new Promise((resolve) => { timer = setTimeout(() => resolve(null), COUNT_AFTER_FAILURE_MS) })
    ])
  } catch {
    return null
  } finally {
    clearTimeout(timer)
  }
}

function finish (outcome, { cpus, events, payload, overheadMs, verify }) {
  const { state, workers, sample } = outcome
  // The run's start is the earliest worker's first log call; the spread is how far apart the
  // workers began (the barrier's release reaching each of them).
  const starts = [...state.started.values()]
  const startNs = starts.length ? starts.reduce((a, b) => (b < a ? b : a)) : null
  const startSpreadMs = starts.length === cpus ? ms(startNs, starts.reduce((a, b) => (b > a ? b : a))) : null
  const unblockedMs = startNs && state.unblocked.size === cpus ? Math.max(...[...state.unblocked.values()].map((t) => ms(startNs, t))) : null
  const closedStats = workers.map((w) => w.closed).filter(Boolean)
  const sum = (key) => closedStats.length === cpus ? closedStats.reduce((a, c) => a + c[key], 0) : null
  const base = {
    unblockedMs,
    cpuUserMs: sum('cpuUserMs'),
    cpuSystemMs: sum('cpuSystemMs'),
    maxRssBytes: closedStats.length ? Math.max(...closedStats.map((c) => c.maxRssBytes)) : (sample.peakRssBytes || null),
    totalRssPeakBytes: sample.peakRssBytes || null,
    maxHeapBytes: closedStats.length ? Math.max(...closedStats.map((c) => c.heapPeakBytes)) : null,
    gcCount: sum('gcCount'),
    gcPauseMs: sum('gcPauseMs'),
    overheadMs: null,
    startSpreadMs,
    doneMeans: outcome.doneMeans ?? null,
    fsType: outcome.fsType ?? null,
    timeseries: sample.series
  }
  if (!outcome.ok) {
    const partial = outcome.partial ?? null
    return {
      ok: false,
      status: 'failed',
      error: outcome.error,
      sent: cpus * events,
      received: partial?.received ?? null,
      corrupt: partial?.corrupt ?? null,
      duplicates: partial?.duplicates ?? null,
      dropRate: partial?.dropRate ?? null,
      countedAfterFailure: partial !== null,
      doneMs: null,
      eventsPerSec: null,
      mbPerSec: null,
      ...base
    }
  }
  const { sent } = outcome
  // A baseline that sends nothing (noop) has nothing to count: its counts are unknown, not zero.
  const counts = verify ? outcome.counts : { received: null, corrupt: null, duplicates: null, dropRate: null, lastArrivalNs: null }
  const lastCloseNs = [...state.closed.values()].reduce((a, b) => (b > a ? b : a))
  const doneNs = counts.lastArrivalNs && counts.lastArrivalNs > lastCloseNs ? counts.lastArrivalNs : lastCloseNs
  const doneMs = ms(startNs, doneNs)
  return {
    ok: true,
    status: 'ok',
    error: null,
    sent,
    received: counts.received,
    corrupt: counts.corrupt,
    duplicates: counts.duplicates,
    dropRate: counts.dropRate,
    doneMs,
    eventsPerSec: doneMs > 0 ? sent / (doneMs / 1000) : null,
    mbPerSec: doneMs > 0 ? messageBytes(cpus, events, payload) / 1e6 / (doneMs / 1000) : null,
    ...base,
    overheadMs: Math.max(0, overheadMs - doneMs),
    primaryPeakRssBytes: sample.primaryPeakRssBytes ?? null,
    sinkMaxRssBytes: outcome.counts.sinkMaxRssBytes ?? null,
    receiverSocketDrops: outcome.counts.receiverSocketDrops ?? null,
    rsyslogStats: outcome.counts.rsyslogStats ?? null,
    sinkNice: outcome.counts.sinkNice ?? null,
    sinkUdpQueuedBytesMax: outcome.counts.sinkUdpQueuedBytesMax ?? null,
    consoleReader: outcome.counts.consoleReader ?? null,
    pipeBytes: outcome.counts.pipeBytes ?? null
  }
}

// Bytes of message text the workers produced (their own "w<id> <seq>: <payload>"), without the
// logger's formatting: the same figure for every library, so MB/s compares like with like.
export function messageBytes (cpus, events, payload) {
  let digits = 0
  for (let width = 1, low = 0; low < events; width++, low = low * 10 || 10) {
    digits += (Math.min(events, low === 0 ? 10 : low * 10) - low) * width
  }
  let idDigits = 0
  for (let id = 0; id < cpus; id++) idDigits += String(id).length
  const fixed = 1 + 1 + 2 + Buffer.byteLength(payload)
  return cpus * digits + idDigits * events + cpus * events * fixed
}
