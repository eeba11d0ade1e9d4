// One cluster worker: builds the logger, waits at the barrier, logs its events (the seed's tight
// synchronous loop, or paced at --rate over event-loop ticks), then ends as --ending says: by
// awaiting the adapter's close() (close), or the way real processes end (see endProcess).
// Timestamps are on the primary's clock (now() in src/engine/child-side.js), sent as strings so the
// primary can compare them across processes. What the calls cost besides time is recorded by
// src/engine/costs.js.
import { createLogger, exitAfterATurn, fail, failOnUncaught, leaveSignalsToPrimary, now, receiveConfig } from '../engine/child-side.js'
import { encodeHistogram, newHistogram, startCpuRecord, startGcRecord, startIoRecord, startLoopDelay, timerFloorNs } from '../engine/costs.js'
import { deliveryEvery, deliverySamples, messagePrefix } from '../engine/message.js'
import { openProfiler } from '../engine/profiler.js'

leaveSignalsToPrimary()
const stopFailingOnUncaught = failOnUncaught()
// The cell's settings (src/run/plan.js) under their own names, plus this worker's workerId and
// target (where its receiving end listens: a file, or host, port and protocol).
const config = await receiveConfig()

let heapPeakBytes = 0
// From the first call on, the heap's peak and what the process's memory was then: how much a logger
// held while its destination could not keep up (src/run/overload.js).
let heapPeakSinceStart = 0
let memoryAtStart = null
function sampleHeap () {
  const heapBytes = process.memoryUsage().heapUsed
  if (heapBytes > heapPeakBytes) heapPeakBytes = heapBytes
  if (memoryAtStart && heapBytes > heapPeakSinceStart) heapPeakSinceStart = heapBytes
  return heapBytes
}

function startMemoryRecord () {
  const { heapUsed, rss } = process.memoryUsage()
  memoryAtStart = { heapBytes: heapUsed, rssBytes: rss, maxRssBytes: process.resourceUsage().maxRSS * 1024 }
  heapPeakSinceStart = heapUsed
}

// The rise of the heap's and the RSS's peaks above their values at the first call. RSS's peak is the
// kernel's own high-water mark: a rise only where it passed the peak reached before the start.
function memoryRise () {
  const maxRssBytes = process.resourceUsage().maxRSS * 1024
  return {
    heapRiseBytes: Math.max(0, heapPeakSinceStart - memoryAtStart.heapBytes),
    rssRiseBytes: maxRssBytes > memoryAtStart.maxRssBytes ? maxRssBytes - memoryAtStart.rssBytes : 0
  }
}
// Fires only while the event loop is free: during the synchronous loop the heap is read at its end.
// Not under --measure instructions: a message every 100 ms would add instructions and syscalls in
// proportion to the run's length under the simulator, not to its events.
const counted = config.measure === 'instructions'
if (!counted) setInterval(() => process.send({ type: 'heap', heapBytes: sampleHeap() }), 100).unref()

// Timing calls under the simulator measures nothing and adds instructions: off there.
const sampleEvery = counted ? 0 : (config.callTiming?.sampleEvery ?? 0)
// Delivery latency: the time of the log() call of every deliverEvery-th event (seq 0, k, 2k, …), on
// the primary's clock once sent; the receiving end times the same events' arrivals (verifier.js).
const deliverEvery = counted ? 0 : deliveryEvery(config.events)
const callStamps = new Float64Array(deliverEvery ? deliverySamples(config.events) : 0)

async function main () {
  const logger = await createLogger(config)
  // --profile: opened once the logger is built, so that its worker threads are already known.
  const profiler = config.profileFile ? await openProfiler() : null
  // Measured before 'ready', so that it does not delay this worker's start behind the others'.
  const floorNs = sampleEvery > 0 ? timerFloorNs() : 0
  if (config.ending === 'sigterm-recipe') onSigtermClose(logger)
  process.once('message', (msg) => {
    if (msg && msg.type === 'start') run(logger, floorNs, profiler)
  })
  process.send({ type: 'ready' })
}

// Logs events [from, to). Every call in a sample is timed on its own: with sampleEvery = k a call is
// timed, then the next timed call is 1 to 2k-1 calls later at random (k on average), so the sample
// cannot fall in step with a logger's own period (a buffer flushed every n lines). sampleEvery 0
// times nothing. The timer's floor is taken off each time; the two branches keep the untimed calls
// as lean as the plain loop. A delivery sample's call time is taken just before its call, outside
// the call's own timing.
function rangeLogger (logger, histogram, { sampleEvery, floorNs }) {
  const prefix = messagePrefix(config.workerId)
  const suffix = ': ' + config.payload
  const spread = 2 * sampleEvery - 1
  let nextTimed = sampleEvery > 0 ? 0 : Infinity
  // -1 (no sample): seq is never -1, and an integer comparison costs the loop least.
  let nextStamped = deliverEvery > 0 ? 0 : -1
  return function logRange (from, to) {
    for (let seq = from; seq < to; seq++) {
      if (seq !== nextTimed && seq !== nextStamped) {
        logger.log(prefix + seq + suffix)
        continue
      }
      if (seq === nextStamped) {
        callStamps[seq / deliverEvery] = Number(process.hrtime.bigint())
        nextStamped += deliverEvery
        if (seq !== nextTimed) {
          logger.log(prefix + seq + suffix)
          continue
        }
      }
      const t0 = process.hrtime.bigint()
      logger.log(prefix + seq + suffix)
      const ns = Number(process.hrtime.bigint() - t0) - floorNs
      histogram.recordValue(ns > 0 ? ns : 0)
      nextTimed = seq + 1 + Math.floor(Math.random() * spread)
    }
  }
}

// --rate: event seq is due at its intended time, the pacer's start + seq / rate, and is logged as
// soon as it is due (at once if it is overdue, behind a stall). Between events the worker turns the
// event loop with setImmediate and reads the clock again, so that the logger's I/O callbacks and
// timers run as in a service, and an event is called within one turn of the loop of its time (a few
// µs) rather than a timer's millisecond or more (a timer fires a millisecond late or more, and on a
// busy machine far later); only a gap longer than twice SLEEP_AHEAD_NS waits on a timer, set to fire
// SLEEP_AHEAD_NS early. The cost is the calling thread's CPU: it polls while it waits
// (docs/costs.md, Paced logging). Overdue events are logged in batches of at most 10 ms' worth, so
// the loop still turns while a stalled worker catches up.
// Every call's response time is recorded: from its intended time to its return, so an event that
// waited behind a slow call counts the wait (coordinated omission); a sampled call's own time goes
// to callLatencyNs as in the tight loop. A delivery sample's stamp is its intended time.
// Resolves with the time the batches held the event loop and the longest batch, in ns (the longest
// batch is how long a call blocked, or calls behind it were held: overload.js).
const SLEEP_AHEAD_NS = 2e6
function paced (logger, { events, rate }, histograms, { sampleEvery, floorNs }) {
  const prefix = messagePrefix(config.workerId)
  const suffix = ': ' + config.payload
  const spread = 2 * sampleEvery - 1
  const nsPerEvent = 1e9 / rate
  const maxBatch = Math.max(1, Math.ceil(rate / 100))
  let nextTimed = sampleEvery > 0 ? 0 : Infinity
  const startNs = process.hrtime.bigint()
  const startStamp = Number(startNs)
  const logRange = (from, to) => {
    for (let seq = from; seq < to; seq++) {
      if (deliverEvery > 0 && seq % deliverEvery === 0) callStamps[seq / deliverEvery] = startStamp + seq * nsPerEvent
      const timed = seq === nextTimed
      const t0 = timed ? process.hrtime.bigint() : 0n
      logger.log(prefix + seq + suffix)
      const end = process.hrtime.bigint()
      if (timed) {
        const ns = Number(end - t0) - floorNs
        histograms.call.recordValue(ns > 0 ? ns : 0)
        nextTimed = seq + 1 + Math.floor(Math.random() * spread)
      }
      const responseNs = Math.round(Number(end - startNs) - seq * nsPerEvent)
      histograms.response.recordValue(responseNs > 0 ? responseNs : 0)
    }
  }
  let heldNs = 0n
  let longestNs = 0n
  let seq = 0
  return new Promise((resolve, reject) => {
    function tick () {
      try {
        const nowNs = process.hrtime.bigint()
        const due = Math.min(events, Math.floor(Number(nowNs - startNs) / nsPerEvent) + 1)
        if (due > seq) {
          const to = Math.min(due, seq + maxBatch)
          logRange(seq, to)
          const batchNs = process.hrtime.bigint() - nowNs
          heldNs += batchNs
          if (batchNs > longestNs) longestNs = batchNs
          seq = to
          if (seq >= events) return resolve({ heldNs, longestNs })
        }
        const waitNs = seq * nsPerEvent - Number(process.hrtime.bigint() - startNs)
        if (waitNs > 2 * SLEEP_AHEAD_NS) setTimeout(tick, Math.floor((waitNs - SLEEP_AHEAD_NS) / 1e6))
        else setImmediate(tick)
      } catch (err) {
        reject(err)
      }
    }
    tick()
  })
}

// The tight loop runs synchronously inside the 'start' message's handler, and so does the ending
// after it: an `exit`, a throw or a signal then comes before the event loop turns again, as it
// does in a program that logs and ends in one go. A paced run ends after its last batch, a run in
// bursts (--burst) after its last burst.
function run (logger, floorNs, profiler) {
  const { events, rate = null } = config
  const histogram = newHistogram()
  const responseHistogram = rate ? newHistogram() : null
  // From the first call on: importing the library and building the logger are not the logging's cost.
  const cpu = startCpuRecord()
  const gc = startGcRecord()
  const io = startIoRecord()
  const loopDelay = rate ? startLoopDelay() : null
  startMemoryRecord()
  profiler?.start()
  // The run starts at each worker's own first call, not when the primary sent 'start': delivering
  // that message to each worker in turn is not logging time.
  const startedAt = now()
  const logged = ({ heldNs = null, longestNs = null, loopReturnedAt = null, unblockedAt = now() } = {}) => {
    const eventLoopDelayNs = loopDelay?.stop() ?? null
    sampleHeap()
    process.send({ type: 'unblocked', at: unblockedAt, startedAt, loopReturnedAt, heldNs: heldNs == null ? null : String(heldNs), longestHeldNs: longestNs == null ? null : String(longestNs), callStamps: deliveryCallStamps() })
    const figures = (type, at) => {
      const ioFigures = io.stop()
      const gcFigures = gc.stop()
      const cpuFigures = cpu.stop()
      sampleHeap()
      return {
        type,
        at,
        cpuUserMs: cpuFigures.cpuUserMs,
        cpuSystemMs: cpuFigures.cpuSystemMs,
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
        heapPeakBytes,
        gcCount: gcFigures.gcCount,
        gcPauseMs: gcFigures.gcPauseMs,
        costs: {
          gc: gcFigures,
          cpu: cpuFigures,
          io: ioFigures,
          latency: sampleEvery > 0 ? { encoded: encodeHistogram(histogram), sampleEvery, timerFloorNs: floorNs } : null,
          response: responseHistogram ? { encoded: encodeHistogram(responseHistogram) } : null,
          eventLoopDelayNs,
          memory: memoryRise()
        }
      }
    }
    if (config.ending && config.ending !== 'close') return endProcess(config.ending, figures('ended', now()))
    // A worker thread's profile is taken before close(), which may end the thread (src/engine/profiler.js);
    // unprofiled, close() is called at once after unblocked: once the event loop was free, as a
    // service's shutdown comes after its last request's work, not inside it.
    const closing = profiler ? profiler.stopThreads().then(() => closed(logger)) : closed(logger)
    closing.then(
      () => {
        const closedFigures = figures('closed', now())
        try {
          if (profiler) closedFigures.profiles = profiler.finish(config.profileFile)
        } catch (err) {
          return fail('profile', err)
        }
        process.send(closedFigures, exitAfterATurn)
      },
      (err) => fail('close', err))
  }
  if (rate) {
    paced(logger, { events, rate }, { call: histogram, response: responseHistogram }, { sampleEvery, floorNs }).then(logged, (err) => fail('logging', err))
    return
  }
  const logRange = rangeLogger(logger, histogram, { sampleEvery, floorNs })
  if (config.burst && config.burst < events) {
    bursts(logRange, events, config.burst).then((loopReturnedAt) => untilLoopFree(loopReturnedAt, logged), (err) => fail('logging', err))
    return
  }
  try {
    logRange(0, events)
  } catch (err) {
    return fail('logging', err)
  }
  untilLoopFree(now(), logged)
}

// Unblocked is when the event loop is next free after the last call: the work the logger deferred
// to process.nextTick and to promises (microtasks) runs before this setImmediate, and so do the
// setImmediate callbacks it queued during the loop (first in, first out); its timers, the I/O
// callbacks of its writes and what those schedule run later and are not counted (docs/measured.md).
// Under an --ending other than close the process ends before the loop turns (as a program that logs
// and exits in one go): unblocked is then when the last call returned.
function untilLoopFree (loopReturnedAt, logged) {
  if (config.ending && config.ending !== 'close') return logged({ loopReturnedAt, unblockedAt: loopReturnedAt })
  setImmediate(() => logged({ loopReturnedAt, unblockedAt: now() }))
}

// --burst: `burst` events in one synchronous loop, then a turn of the event loop (setImmediate), as
// a service logs a few lines per request and yields between requests (pino's benchmarks/
// basic.bench.js logs in batches of 10 this way). Resolves with when the last call returned.
function bursts (logRange, events, burst) {
  return new Promise((resolve, reject) => {
    let seq = 0
    function next () {
      try {
        const to = Math.min(events, seq + burst)
        logRange(seq, to)
        seq = to
        if (seq >= events) return resolve(now())
        setImmediate(next)
      } catch (err) {
        reject(err)
      }
    }
    next()
  })
}

// The sampled calls' times on the primary's clock (now() adds this process's offset, 0 under node).
function deliveryCallStamps () {
  if (!deliverEvery) return null
  const offsetNs = Number(BigInt(now()) - process.hrtime.bigint())
  return Array.from(callStamps, (ns) => ns + offsetNs)
}

// How the process ends after its last call (--ending), without the adapter's close(). The figures
// so far go first: a short IPC message is written at once when the channel is idle, so it is on its
// way before the process goes (the primary does not need it to judge the ending).
function endProcess (ending, figures) {
  process.send(figures)
  if (ending === 'return') {
    // Nothing of the harness keeps the process alive: it ends when the logger's own handles let it.
    process.channel?.unref()
    return
  }
  if (ending === 'exit') process.exit(0)
  if (ending === 'uncaught') {
    stopFailingOnUncaught()
    throw new Error('log-bench: an uncaught exception right after the last log call (--ending uncaught)')
  }
  // sigterm: the default disposition unless something listens (the library itself, or under
  // sigterm-recipe the library's shutdown recipe).
  process.kill(process.pid, ending === 'sigkill' ? 'SIGKILL' : 'SIGTERM')
}

// sigterm-recipe: what a library's documentation tells a service to do on SIGTERM: flush (the
// adapter's close(), which resolves when the library says everything is written), then exit.
function onSigtermClose (logger) {
  process.once('SIGTERM', () => {
    closed(logger).then(exitAfterATurn, (err) => fail('close', err))
  })
}

// The adapter's close() as a promise, whatever it returns or throws.
function closed (logger) {
  return new Promise((resolve) => resolve(logger.close()))
}

main().catch((err) => fail('setup', err))
