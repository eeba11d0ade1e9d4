import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Interrupted, RunFailure } from '../errors.js'
import { failIfRefused, openReceiver } from '../runner/receiver.js'
import { fsTypeOf } from '../engine/fs-type.js'
import { makeRunDir } from '../engine/run-dir.js'
import { forkWorker, killChildren, signalChild, startWorker, trackChild } from '../engine/children.js'
import { MESSAGES } from '../engine/messages.js'
import { endTagged, leftBehindReason, newRunTag, TAG_VARIABLE } from '../engine/leftovers.js'
import { joinMeasures } from '../engine/worker-measures.js'
import { startSampler } from '../engine/sampler.js'
import { judgeOverload, longestGapMs, memoryGrowth } from '../results/judge/overload.js'
import { REACHED_RATE_SHARE } from '../engine/pacing.js'
import { watcher } from '../runner/watcher.js'
import { countingRuntime, readCount } from '../engine/instructions.js'
import { DEFAULT_WORKLOAD, judgeArrivals } from '../engine/workloads.js'
import { DEFAULT_ENDING } from '../engine/endings.js'
import { deliveryLatency } from '../sinks/verifier.js'
import { profilePrefix, saveProfiles } from './profiles.js'
import { transportIs } from '../engine/transports.js'
import { lateWritesWords, sumLateWrites } from '../engine/late-writes.js'
import { maxOf } from '../stats.js'

const WORKER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker.js')
const LIVE_EVERY_MS = 500
// One call in 32 timed (at random, 32 apart on average): timing every call cost more than 5% of
// pino's own time per call; docs/costs.md has the measurement.
export const DEFAULT_CALL_TIMING = { sampleEvery: 32 }

const ms = (fromNs, toNs) => Number(toNs - fromNs) / 1e6
// --ending return: a process that has not ended by itself this long after its last call is held
// alive by the logger (an open socket, a timer); it is ended with SIGKILL and recorded as keptAlive.
export const RETURN_LIMIT_MS = 5000
// --timeout counts from the release: starting the workers and building their loggers is not the
// run's time (nor timed), and on a busy machine it is the machine's speed (8 to 11 s a run with 2
// workers of raw at load average 22 to 28 on 2 cores, when --timeout 3 failed every run there).
// A create() that never resolves still fails the run, after the longer of this and --timeout.
const SETUP_LIMIT_MS = 60_000

// One run of one cell in fresh processes: fork the workers, wait until every logger is built,
// release them together, wait until every adapter has closed and the receiver has seen the last
// event, then verify. Never throws for a logger's failure: that becomes { ok: false, error }.
// settings: the cell's (src/run/plan.js), read as they are; each worker's configuration is the
// settings plus its workerId and target (where its receiving end listens), so the worker reads the
// same names. signal (an AbortSignal) interrupts the run. onLive, if given, receives about every
// 0.5 s what the run looks like from outside: { elapsedMs, arrived, bytes, rssBytes } (the
// receiver's progress() and the workers' summed RSS).
export async function runOnce (settings, { signal = null, onLive = null } = {}) {
  const {
    transport,
    cpus,
    events,
    payload,
    workload = DEFAULT_WORKLOAD,
    timeoutMs,
    maxOldSpaceSize = null,
    verify = true,
    rate = null,
    ending = DEFAULT_ENDING
  } = settings
  const baseDir = settings.dir ?? os.tmpdir()
  const runtime = settings.runtimeBinary ?? null
  const counted = settings.measure === 'instructions'
  const beganNs = process.hrtime.bigint()
  const workers = []
  const state = {
    releasedNs: null,
    started: new Map(),
    unblocked: new Map(),
    loopReturned: new Map(),
    held: new Map(),
    longestHeld: new Map(),
    closed: new Map(),
    exits: new Map(),
    keptAlive: new Set(),
    heap: new Map(),
    callStamps: new Map(),
    // Per worker, what it wrote once close() was called (src/engine/late-writes.js).
    late: new Map(),
    leftBehind: []
  }
  const failedBefore = (error) => judgeArrivals(finish(
    { ok: false, error, state, workers, sample: { series: [], peakRssBytes: 0 } },
    { cpus, events, payload, overheadMs: 0, verify, rate, ending }
  ), { workload, events })
  let dir
  try {
    dir = makeRunDir(baseDir)
  } catch (err) {
    return failedBefore(err.message)
  }
  const { receiver, error } = await openReceiver(transport, {
    workers: cpus,
    events,
    payload,
    workload,
    dir,
    ...settings.receiver,
    receiverRate: settings.receiverRate,
    receiverStallMs: settings.receiverStallMs
  })
  if (error) return failedBefore(error)
  let sampler = null
  let liveTimer = null
  let outcome
  const tag = newRunTag()
  try {
    outcome = await drive()
  } finally {
    clearInterval(liveTimer)
    const sample = sampler ? sampler.stop() : { series: [], peakRssBytes: 0 }
    await killChildren(workers.map((w) => w.child))
    // A process killed before the count may not have gone yet: reported once.
    const leftBehind = endTagged(tag).filter((p) => !state.leftBehind.includes(p))
    if (outcome && leftBehind.length) {
      const note = leftBehindReason(leftBehind)
      if (outcome.ok) Object.assign(outcome, { ok: false, error: note })
      else outcome.error += `; ${note}`
    }
    // A run that failed or was stopped is not slowed down any further (--receiver-rate, --receiver-stall).
    if (!outcome?.ok) receiver.release?.()
    if (outcome && !outcome.ok && verify && state.releasedNs) {
      outcome.partial = await countAfterFailure(receiver, cpus * events)
    }
    await receiver.stop()
    if (outcome?.ok && settings.profile) keepProfiles(outcome)
    fs.rmSync(dir, { recursive: true, force: true })
    if (outcome) {
      outcome.sample = sample
      outcome.doneMeans = verify ? receiver.doneMeans : 'every logger\'s close() resolved (nothing to count)'
      outcome.fsType = transportIs(transport, 'reaches', 'file') ? fsTypeOf(baseDir) : null
    }
  }
  const overheadMs = ms(beganNs, process.hrtime.bigint())
  const slowed = { receiverStallMs: settings.receiverStallMs ?? null, receiverRate: settings.receiverRate ?? null }
  const finished = finish(outcome, { cpus, events, payload, overheadMs, verify, rate, ending, slowed, transport })
  // Under an ending other than close, nothing arriving can be the logger's loss (everything still
  // buffered when the process went): a finding, not a misdirected adapter.
  return judgeArrivals(workload === 'disabled' || ending !== 'close' ? finished : nothingDelivered(finished, { transport, target: receiver.target(0), cpus, late: sumLateWrites([...state.late.values()]) }), { workload, events })

  // run --profile: the workers' .cpuprofile files, moved beside the results and summarised before
  // the run's directory goes; a profile that cannot be read or written fails the run.
  function keepProfiles (outcome) {
    try {
      const reports = workers.map((w) => w.figures?.profiles ?? null)
      outcome.profiled = saveProfiles({ reports, runDir: dir, settings, sent: outcome.sent })
    } catch (err) {
      Object.assign(outcome, { ok: false, error: `the CPU profiles could not be kept: ${err.message.split('\n')[0]}`, failure: { kind: 'error' } })
    }
  }

  function countFile (workerId) {
    return path.join(dir, `instructions-${workerId}.out`)
  }

  async function drive () {
    const execArgv = maxOldSpaceSize ? [`--max-old-space-size=${maxOldSpaceSize}`] : []
    const watch = watcher(signal, Math.max(timeoutMs, SETUP_LIMIT_MS))
    // The receiving end dying (a sink or rsyslogd killed) is the cause of whatever the loggers do next.
    receiver.onFailure?.((reason) => watch.fail(`${reason} during the run`))
    try {
      for (let workerId = 0; workerId < cpus; workerId++) {
        const config = {
          ...settings,
          ending,
          callTiming: settings.callTiming ?? DEFAULT_CALL_TIMING,
          workerId,
          target: receiver.target(workerId),
          ...(settings.profile ? { profileFile: profilePrefix(dir, workerId) } : {})
        }
        // Counted (--measure instructions): the worker runs under the counter, which writes its count here.
        const forkedUnder = counted ? countingRuntime(runtime, settings, countFile(workerId)) : runtime
        // A receiver may give each worker its own stdout (the console transport's native pipe).
        const worker = startWorker(`worker ${workerId}`, () => forkWorker({ exec: WORKER_FILE, execArgv, stdio: ['ignore', receiver.stdoutFor?.(workerId) ?? 'pipe', 'pipe', 'ipc'], runtime: forkedUnder, env: { [TAG_VARIABLE]: tag } }))
        receiver.forked?.(workerId)
        workers.push(track(worker, config, receiver, state, watch, maxOldSpaceSize))
      }
      await watch.until(() => workers.every((w) => w.ready), 'building the logger')
      watch.restart(timeoutMs)
      state.releasedNs = process.hrtime.bigint()
      for (const w of workers) w.child.send({ type: 'start' })
      sampler = startSampler({
        pids: workers.map((w) => w.child.pid),
        startNs: state.releasedNs,
        heapOf: () => [...state.heap.values()].reduce((a, b) => a + b, 0)
      })
      if (onLive) {
        liveTimer = setInterval(() => {
          try {
            onLive({
              elapsedMs: ms(state.releasedNs, process.hrtime.bigint()),
              rssBytes: sampler.latestRssBytes(),
              ...receiver.progress?.()
            })
          } catch (err) {
            watch.throw(err)
          }
        }, LIVE_EVERY_MS)
      }
      if (ending === 'return') await endKeptAlive(workers, state, watch)
      await watch.until(() => workers.every((w) => w.exited && w.closed),
        () => (state.unblocked.size < cpus ? 'logging' : ending === 'close' ? 'waiting for the logger\'s close() to resolve' : `waiting for the worker to end (--ending ${ending})`))
      // Before counting: a helper holding a worker's stdout would keep the console pipe open.
      state.leftBehind = endTagged(tag)
      if (state.leftBehind.length) throw new RunFailure(leftBehindReason(state.leftBehind))
      const instructions = counted
        ? workers.reduce((sum, w) => sum + readCount(settings, countFile(w.workerId)), 0)
        : null
      const sent = cpus * events
      const counts = await watch.race(receiver.settle({ sent }), 'verifying')
      await failIfRefused(receiver, counts, sent)
      return { ok: true, counts, sent, state, workers, instructions }
    } catch (err) {
      if (err instanceof Interrupted) throw err
      if (err instanceof RunFailure) {
        // The receiving end failing first (a full disk under the console capture) makes the logger
        // fail next (EPIPE): the cause is named, then what the logger saw.
        const cause = await receiver.failureCause?.()
        return { ok: false, error: cause && !err.message.startsWith(cause) ? `${cause}; then ${err.message}` : err.message, failure: err.failure, state, workers }
      }
      throw err
    } finally {
      watch.dispose()
    }
  }
}

// Once every worker has logged, gives each RETURN_LIMIT_MS to end by itself, then ends the rest.
async function endKeptAlive (workers, state, watch) {
  await watch.until(() => workers.every((w) => w.closed), 'logging')
  const lastNs = [...state.unblocked.values()].reduce((a, b) => (b > a ? b : a))
  const waitMs = RETURN_LIMIT_MS - ms(lastNs, process.hrtime.bigint())
  let timer
  await Promise.race([
    watch.until(() => workers.every((w) => w.exited), 'waiting for the worker to end by itself (--ending return)'),
    new Promise((resolve) => { timer = setTimeout(resolve, Math.max(0, waitMs)) })
  ])
  clearTimeout(timer)
  for (const w of workers) {
    if (w.exited || w.child.exitCode !== null || w.child.signalCode !== null) continue
    state.keptAlive.add(w.workerId)
    signalChild(w.child)
  }
}

// Follows one worker's messages and exit; any exit before 'closed' fails the run with a reason.
// Under another --ending the worker ends by itself after its last call: any exit after 'unblocked'
// is that ending (its code or signal recorded), and what it lost is counted at the receiving end.
function track (child, config, receiver, state, watch, maxOldSpaceSize) {
  const { workerId, ending } = config
  const entry = trackChild(child, {
    name: `worker ${workerId}`,
    config,
    messages: MESSAGES.runWorker,
    receiver,
    workerId,
    maxOldSpaceSize,
    lastMessage: ending === DEFAULT_ENDING ? 'closed' : 'unblocked',
    onMessage (msg) {
      if (msg.type === 'ready') entry.ready = true
      else if (msg.type === 'heap') state.heap.set(workerId, msg.heapBytes)
      else if ((msg.type === 'unblocked' || msg.type === 'closed' || msg.type === 'ended') && (state.releasedNs === null || BigInt(msg.at) < state.releasedNs)) {
        return watch.fail(`worker ${workerId} reported "${msg.type}" before the start; is the adapter calling process.send?`)
      } else if (msg.type === 'unblocked') {
        state.unblocked.set(workerId, BigInt(msg.at))
        state.started.set(workerId, BigInt(msg.startedAt))
        if (msg.loopReturnedAt != null) state.loopReturned.set(workerId, BigInt(msg.loopReturnedAt))
        if (msg.heldNs != null) state.held.set(workerId, BigInt(msg.heldNs))
        if (msg.longestHeldNs != null) state.longestHeld.set(workerId, Number(msg.longestHeldNs) / 1e6)
        if (msg.callStamps != null) state.callStamps.set(workerId, msg.callStamps)
      } else if (msg.type === 'closed' || msg.type === 'ended') {
        entry.figures = msg
        if (msg.type === 'closed') state.closed.set(workerId, BigInt(msg.at))
        if (msg.late) state.late.set(workerId, msg.late)
      } else if (msg.type === 'late') {
        state.late.set(workerId, msg.late)
      }
      watch.poke()
    },
    onExit (failure, signal, kind, code) {
      if (!failure) {
        state.exits.set(workerId, { code: code ?? null, signal: signal ?? null, atNs: process.hrtime.bigint() })
        return watch.poke()
      }
      // Ctrl-C reaches the workers too (same process group); give the primary's own signal handler
      // the moment it needs to call it an interruption rather than a crash.
      if (signal === 'SIGINT' || signal === 'SIGTERM') setTimeout(() => watch.fail(failure, kind), 200)
      else watch.fail(failure, kind)
    }
  })
  entry.ready = false
  entry.figures = null
  return entry
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

function finish (outcome, settings) {
  const { cpus, events, payload, overheadMs, verify, rate, ending = DEFAULT_ENDING } = settings
  const { slowed = {}, transport = null } = settings
  const { state, workers, sample } = outcome
  // The run's start is the earliest worker's first log call; the spread is how far apart the
  // workers began (the barrier's release reaching each of them).
  const starts = [...state.started.values()]
  const startNs = starts.length ? starts.reduce((a, b) => (b < a ? b : a)) : null
  const startSpreadMs = starts.length === cpus ? ms(startNs, starts.reduce((a, b) => (b > a ? b : a))) : null
  const loggingMs = startNs && state.unblocked.size === cpus
    ? maxOf([...state.unblocked.values()].map((t) => ms(startNs, t)))
    : null
  // The 2019 article's unblocked: until the last call returned, the work the logger deferred aside.
  const loopReturnedMs = !rate && startNs && state.loopReturned.size === cpus
    ? maxOf([...state.loopReturned.values()].map((t) => ms(startNs, t)))
    : null
  // Paced, the event loop is held only while a batch runs: unblocked is the longest sum of batches.
  const unblockedMs = rate
    ? (state.held.size === cpus ? maxOf([...state.held.values()].map((ns) => Number(ns) / 1e6)) : null)
    : loggingMs
  const closedStats = workers.map((w) => w.figures).filter(Boolean)
  const sum = (key) => closedStats.length === cpus ? closedStats.reduce((a, c) => a + c[key], 0) : null
  const costs = joinMeasures(closedStats.length === cpus ? closedStats.map((c) => c.costs ?? {}) : [], { events, rate })
  const base = {
    unblockedMs,
    loopReturnedMs,
    loggingMs: rate ? loggingMs : null,
    cpuUserMs: sum('cpuUserMs'),
    cpuSystemMs: sum('cpuSystemMs'),
    maxRssBytes: closedStats.length
      ? maxOf(closedStats.map((c) => c.maxRssBytes))
      : (sample.peakRssBytes || null),
    totalRssPeakBytes: sample.peakRssBytes || null,
    maxHeapBytes: closedStats.length ? maxOf(closedStats.map((c) => c.heapPeakBytes)) : null,
    gcCount: sum('gcCount'),
    gcPauseMs: sum('gcPauseMs'),
    ...costs,
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
      failure: outcome.failure ?? { kind: 'error' },
      sent: cpus * events,
      received: partial?.received ?? null,
      corrupt: partial?.corrupt ?? null,
      duplicates: partial?.duplicates ?? null,
      dropRate: partial?.dropRate ?? null,
      countedAfterFailure: partial !== null,
      deliveryLatencyMs: null,
      deliveryLatencyNote: 'the run failed',
      overload: null,
      doneMs: null,
      eventsPerSec: null,
      mbPerSec: null,
      ...base
    }
  }
  const { sent } = outcome
  // A baseline that sends nothing (noop) has nothing to count: its counts are unknown, not zero.
  const counts = verify
    ? outcome.counts
    : { received: null, corrupt: null, duplicates: null, dropRate: null, lastArrivalNs: null }
  // Under another ending, `done` runs until the last worker's process had ended (its exit seen by
  // the primary) and the receiving end had settled.
  const ends = ending === DEFAULT_ENDING ? [...state.closed.values()] : [...state.exits.values()].map((e) => e.atNs)
  const lastCloseNs = ends.reduce((a, b) => (b > a ? b : a))
  const doneNs = counts.lastArrivalNs && counts.lastArrivalNs > lastCloseNs ? counts.lastArrivalNs : lastCloseNs
  const doneMs = ms(startNs, doneNs)
  const record = {
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
    receiverDrops: outcome.counts.receiverDrops ?? null,
    receiveBufferBytes: outcome.counts.receiveBufferBytes ?? null,
    rsyslogStats: outcome.counts.rsyslogStats ?? null,
    sinkNice: outcome.counts.sinkNice ?? null,
    sinkUdpQueuedBytesMax: outcome.counts.sinkUdpQueuedBytesMax ?? null,
    workerExits: workerExits(state, cpus),
    keptAlive: ending === 'return' ? state.keptAlive.size > 0 : null,
    consoleReader: outcome.counts.consoleReader ?? null,
    pipeBytes: outcome.counts.pipeBytes ?? null,
    receiverStats: outcome.counts.receiverStats ?? null,
    stdoutBytes: outcome.counts.stdoutBytes ?? null,
    afterStallMs: outcome.counts.afterStallMs ?? null,
    // Where the stall lies on the run's time (it began receiverStallMs before): the charts mark it.
    stallEndMs: outcome.counts.stallEndNs != null && startNs != null
      ? ms(startNs, BigInt(outcome.counts.stallEndNs))
      : null,
    ...delivery(outcome.counts, state, { verify, counted: outcome.instructions != null }),
    ...(outcome.profiled ?? {}),
    ...(outcome.instructions != null ? { instructions: outcome.instructions } : {})
  }
  // Under another ending, what did not arrive is the ending's loss: overload is judged on close.
  // A baseline that sends nothing (noop) meets no receiving end.
  const callStamps = [...state.callStamps.values()]
  const longestHeldMs = [...state.longestHeld.values()]
  const memory = closedStats.length === cpus ? closedStats.map((c) => c.costs?.memory ?? null) : []
  // On every run, slowed or not: a slowed cell is judged against its control's (src/results/judge/overload.js).
  const longestHeld = longestHeldMs.length === cpus ? maxOf(longestHeldMs) : null
  record.callGapMaxMs = rate ? longestHeld : longestGapMs(callStamps)
  record.memoryRiseBytes = memoryGrowth(memory).bytes
  record.overload = ending === DEFAULT_ENDING && verify
    ? judgeOverload({ ...record, rate, cpus, events, transport }, slowed, {
      callStamps,
      longestHeldMs,
      memory,
      stallEndNs: outcome.counts.stallEndNs ?? null,
      bytesPerEvent: messageBytes(cpus, events, payload) / (cpus * events)
    })
    : null
  // A paced run that fell behind its rate measured another load: failed, its figures kept. Behind a
  // slowed reader falling behind is what a logger that waits does (the stall held its calls, and
  // the events due meanwhile come late): the overload verdict judges that, and the control, read
  // at full speed, says whether the logger sustains the rate.
  const slowedReader = slowed.receiverStallMs != null || slowed.receiverRate != null
  if (rate && !slowedReader && record.reachedRate != null && record.reachedRate < REACHED_RATE_SHARE * rate) {
    return { ...record, ok: false, status: 'failed', error: `reached ${Math.round(record.reachedRate).toLocaleString('en-US')} of ${rate.toLocaleString('en-US')} events/s`, failure: { kind: 'error' } }
  }
  return record
}

// Delivery latency of the sampled events: the workers' call times against the receiving end's
// first arrivals (verifier.js), or null with the reason.
function delivery (counts, state, { verify, counted }) {
  const none = (deliveryLatencyNote) => ({ deliveryLatencyMs: null, deliveryLatencyNote })
  if (counted) return none('not timed under --measure instructions (reading the clock would be counted)')
  if (!verify) return none('nothing is sent to a receiving end')
  if (!counts.deliveryArrivals) return none(counts.deliveryNote ?? 'the receiving end does not time arrivals')
  const callStamps = [...state.callStamps.entries()].sort(([a], [b]) => a - b)
  const latency = deliveryLatency(
    callStamps.map(([, stamps]) => stamps),
    callStamps.map(([workerId]) => counts.deliveryArrivals[workerId])
  )
  return latency ? { deliveryLatencyMs: latency, deliveryLatencyNote: null } : none('no sampled event arrived')
}

// How each worker's process ended, in worker order: { code, signal } as the primary saw it.
function workerExits (state, cpus) {
  return Array.from({ length: cpus }, (_, workerId) => {
    const exit = state.exits.get(workerId)
    return exit ? { code: exit.code, signal: exit.signal } : null
  })
}

// A run whose receiving end counted nothing at all (no event, not even a corrupt one) delivered
// nothing: a failed run that says where nothing arrived and what to check, not a figure with a 100%
// drop rate (an adapter writing to stderr would otherwise be the fastest console logger). Corrupt
// arrivals are arrivals: a logger that drops a workload's fields from every line is that finding
// (received 0, every line counted corrupt), and a receiver that refused what it was sent fails
// the run with its cause (failIfRefused). A partial loss stays a finding of an ok run.
// What the workers saw comes before a guess: writes the logger made after close() had ended its
// stream or resolved (late: sumLateWrites) say that close() did not wait for them.
export function nothingDelivered (result, { transport, target, cpus, late = null }) {
  if (!result.ok || result.received == null || !(result.sent > 0)) return result
  if (result.received + (result.corrupt ?? 0) + (result.duplicates ?? 0) > 0) return result
  return { ...result, ok: false, status: 'failed', error: `${nothingArrivedWhere(transport, target, cpus, late)} (0 of ${result.sent} events)`, failure: { kind: 'nothing-arrived' } }
}

function nothingArrivedWhere (transport, target, cpus, late) {
  const more = cpus > 1 ? `, one per worker: ${cpus}` : ''
  const seen = lateWritesWords(late)
  if (transportIs(transport, 'reaches', 'stdout')) return `nothing arrived on the workers' stdout: ${seen || 'does the adapter write to stdout? (stderr is not read)'}`
  if (transportIs(transport, 'reaches', 'file')) return `nothing arrived in the file the adapter was given (${target?.file ?? 'its file'}${more}): ${seen || 'does the adapter write to the `file` it is given?'}`
  if (seen) return `nothing arrived over ${transport}: ${seen}`
  const where = target?.host != null ? `${target.host}:${target.port}` : 'the syslog receiver'
  return `nothing arrived at ${where} over ${transport}: does the adapter send to the host and port it is given?`
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
