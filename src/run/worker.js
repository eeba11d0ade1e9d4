// One cluster worker: builds the logger, waits at the barrier, logs its events (the seed's tight
// synchronous loop, or paced at --rate over event-loop ticks), then ends as --ending says: by
// awaiting the adapter's close() (close), or the way real processes end (see endProcess).
// Timestamps are on the primary's clock (now() in src/engine/child-side.js), sent as strings so the
// primary can compare them across processes. What the calls cost besides time is recorded by the
// measures of src/engine/worker-measures.js.
import { createLogger, exitAfterATurn, fail, failOnUncaught, leaveSignalsToPrimary, now, receiveConfig } from '../engine/child-side.js'
import { closeResolved, lateWrites, watchLateWrites } from '../engine/late-writes.js'
import { newHistogram, timerFloorNs } from '../engine/costs.js'
import { deliveryEvery, deliverySamples, messagePrefix } from '../engine/message.js'
import { openProfiler } from '../engine/profiler.js'
import { warmupEventsOf } from '../engine/pacing.js'
import { startMeasures } from '../engine/worker-measures.js'

leaveSignalsToPrimary()
const stopFailingOnUncaught = failOnUncaught()
// The cell's settings (src/run/plan.js) under their own names, plus this worker's workerId and
// target (where its receiving end listens: a file, or host, port and protocol).
const config = await receiveConfig()

let heapPeakBytes = 0
// The measures started at the first call, which follow the heap from then on.
let measures = null
function sampleHeap () {
  const heapBytes = process.memoryUsage().heapUsed
  if (heapBytes > heapPeakBytes) heapPeakBytes = heapBytes
  measures?.heap(heapBytes)
  return heapBytes
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
// soon as it is due (at once if it is overdue, behind a stall). After each batch the worker gives the
// event loop one turn (setImmediate), so that the logger's I/O callbacks and timers run as in a
// service; back from that turn, if the next event is due within SPIN_NS it reads the clock until
// the event is due and calls it then, so that the call starts at its time to within a clock read
// rather than anywhere inside a loop turn; a later event turns the loop again (setImmediate) and
// only a gap longer than twice SLEEP_AHEAD_NS waits on a timer, set to fire SLEEP_AHEAD_NS early
// (a timer fires a millisecond late or more, and on a busy machine far later). The cost is the
// calling thread's CPU: it polls while it waits (docs/costs.md, Paced logging). Overdue events are
// logged in batches of at most 10 ms' worth, so the loop still turns while a stalled worker
// catches up. The wait reads the clock a few hundred times per event at 10,000 events/s, so it
// must make no garbage, or the collections land in the response times: on Node 20,
// performance.now() returns its number boxed, 16 bytes a read (about 50 collections per second of
// waiting), while process.hrtime.bigint() compared with a BigInt in a small function of its own is
// optimised to make none (spinUntil). The stamps outside the wait, a few per event, read the same
// clock, so a wait never ends before its time by another clock's reckoning (a batch's held time read
// across two clocks could come out negative).
// Every call's response time is recorded: from its intended time to its return, so an event that
// waited behind a slow call counts the wait (coordinated omission); a sampled call's own time goes
// to callLatencyNs as in the tight loop. The first warmupEvents calls (warmupEventsOf) go to their
// own histogram: the warm-up, reported apart from the steady state. A delivery sample's stamp is
// its intended time.
// Resolves with the time the batches held the event loop and the longest batch, in ns (the longest
// batch is how long a call blocked, or calls behind it were held: overload.js), the warm-up's
// length (from the start to the return of its last call) and the rate reached (events after the
// first over the time to the last call's start: a logger that cannot keep up starts its calls ever
// later, while one slow last call, a stall that happens to fall on it, says nothing of the rate).
const SLEEP_AHEAD_NS = 2e6
const SPIN_NS = 200e3
function spinUntil (stamp) {
  while (process.hrtime.bigint() < stamp);
}
function paced (logger, { events, rate }, histograms, { sampleEvery, floorNs }) {
  const prefix = messagePrefix(config.workerId)
  const suffix = ': ' + config.payload
  const spread = 2 * sampleEvery - 1
  const nsPerEvent = 1e9 / rate
  const maxBatch = Math.max(1, Math.ceil(rate / 100))
  const warmupEvents = warmupEventsOf(events, rate)
  let nextTimed = sampleEvery > 0 ? 0 : Infinity
  let warmupNs = warmupEvents > 0 ? null : 0
  let lastStartNs = null
  const startStamp = process.hrtime.bigint()
  const startNs = Number(startStamp)
  const sinceStartNs = () => Number(process.hrtime.bigint() - startStamp)
  const logRange = (from, to) => {
    for (let seq = from; seq < to; seq++) {
      if (deliverEvery > 0 && seq % deliverEvery === 0) callStamps[seq / deliverEvery] = startNs + seq * nsPerEvent
      if (seq === events - 1) lastStartNs = sinceStartNs()
      const timed = seq === nextTimed
      const t0 = timed ? process.hrtime.bigint() : 0n
      logger.log(prefix + seq + suffix)
      if (timed) {
        const ns = Number(process.hrtime.bigint() - t0) - floorNs
        histograms.call.recordValue(ns > 0 ? ns : 0)
        nextTimed = seq + 1 + Math.floor(Math.random() * spread)
      }
      const endNs = sinceStartNs()
      const responseNs = Math.round(endNs - seq * nsPerEvent)
      if (seq < warmupEvents) {
        histograms.warmup.recordValue(responseNs > 0 ? responseNs : 0)
        if (seq === warmupEvents - 1) warmupNs = endNs
      } else {
        histograms.response.recordValue(responseNs > 0 ? responseNs : 0)
      }
    }
  }
  let heldNs = 0
  let longestNs = 0
  let seq = 0
  return new Promise((resolve, reject) => {
    function tick () {
      try {
        let nowNs = sinceStartNs()
        const nextAt = seq * nsPerEvent
        if (nextAt > nowNs && nextAt - nowNs <= SPIN_NS) {
          spinUntil(startStamp + BigInt(Math.ceil(nextAt)))
          nowNs = sinceStartNs()
        }
        const due = Math.min(events, Math.floor(nowNs / nsPerEvent) + 1)
        if (due > seq) {
          const to = Math.min(due, seq + maxBatch)
          logRange(seq, to)
          const endNs = sinceStartNs()
          const batchNs = endNs - nowNs
          heldNs += batchNs
          if (batchNs > longestNs) longestNs = batchNs
          seq = to
          if (seq >= events) {
            const reachedRate = events > 1 && lastStartNs > 0 ? ((events - 1) / lastStartNs) * 1e9 : null
            const held = { heldNs: BigInt(Math.round(heldNs)), longestNs: BigInt(Math.round(longestNs)) }
            return resolve({ ...held, warmupNs, reachedRate })
          }
        }
        const waitNs = seq * nsPerEvent - sinceStartNs()
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
  const warmupHistogram = rate ? newHistogram() : null
  // From the first call on: importing the library and building the logger are not the logging's cost.
  const histograms = { call: histogram, response: responseHistogram, warmup: warmupHistogram }
  // What the pacer found out (src/engine/pacing.js), set when the last call returned.
  const pacing = { warmupEvents: rate ? warmupEventsOf(events, rate) : 0, warmupNs: null, reachedRate: null }
  measures = startMeasures({ rate, sampleEvery, floorNs, histograms, pacing, sampleHeap })
  profiler?.start()
  // The run starts at each worker's own first call, not when the primary sent 'start': delivering
  // that message to each worker in turn is not logging time.
  const startedAt = now()
  const logged = ({
    heldNs = null, longestNs = null, warmupNs = null, reachedRate = null, loopReturnedAt = null, unblockedAt = now()
  } = {}) => {
    pacing.warmupNs = warmupNs
    pacing.reachedRate = reachedRate
    measures.stop('unblocked')
    sampleHeap()
    process.send({ type: 'unblocked', at: unblockedAt, startedAt, loopReturnedAt, heldNs: heldNs == null ? null : String(heldNs), longestHeldNs: longestNs == null ? null : String(longestNs), callStamps: deliveryCallStamps() })
    const figures = (type, at) => {
      const costs = measures.stop('closed')
      return {
        type,
        at,
        cpuUserMs: costs.cpu.cpuUserMs,
        cpuSystemMs: costs.cpu.cpuSystemMs,
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
        heapPeakBytes,
        gcCount: costs.gc.gcCount,
        gcPauseMs: costs.gc.gcPauseMs,
        costs
      }
    }
    if (config.ending && config.ending !== 'close') return endProcess(config.ending, figures('ended', now()))
    // A worker thread's profile is taken before close(), which may end the thread (src/engine/profiler.js);
    // unprofiled, close() is called at once after unblocked: once the event loop was free, as a
    // service's shutdown comes after its last request's work, not inside it.
    const closing = profiler ? profiler.stopThreads().then(() => closed(logger)) : closed(logger)
    closing.then(
      () => {
        const closedFigures = { ...figures('closed', now()), late: closeResolved() }
        try {
          if (profiler) closedFigures.profiles = profiler.finish(config.profileFile)
        } catch (err) {
          return fail('profile', err)
        }
        process.send(closedFigures, () => exitAfterATurn(lateWord(closedFigures.late)))
      },
      (err) => fail('close', err))
  }
  if (rate) {
    paced(logger, { events, rate }, histograms, { sampleEvery, floorNs }).then(logged, (err) => fail('logging', err))
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
    closed(logger).then(() => {
      closeResolved()
      exitAfterATurn(lateWord(null))
    }, (err) => fail('close', err))
  })
}

// The adapter's close() as a promise, whatever it returns or throws. From the call on, the logger's
// late writes are watched (src/engine/late-writes.js).
function closed (logger) {
  watchLateWrites()
  return new Promise((resolve) => resolve(logger.close()))
}

// The late writes seen once close() resolved, when there are more than the 'closed' message said.
function lateWord (said) {
  return () => {
    const late = lateWrites()
    return late && JSON.stringify(late) !== JSON.stringify(said) ? { type: 'late', late } : null
  }
}

main().catch((err) => fail('setup', err))
