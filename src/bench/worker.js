// One cluster worker: builds the logger, waits at the barrier, logs its events (the seed's tight
// synchronous loop, or paced at --rate over event-loop ticks), then awaits the adapter's close().
// Timestamps are on the primary's clock (now() in src/engine/child-side.js), sent as strings so the
// primary can compare them across processes. What the calls cost besides time is recorded by
// src/engine/costs.js.
import { createLogger, fail, failOnUncaught, leaveSignalsToPrimary, now, receiveConfig } from '../engine/child-side.js'
import { encodeHistogram, newHistogram, startCpuRecord, startGcRecord, startIoRecord, startLoopDelay, timerFloorNs } from '../engine/costs.js'
import { messagePrefix } from '../engine/message.js'

leaveSignalsToPrimary()
failOnUncaught()
const config = await receiveConfig()

let heapPeakBytes = 0
function sampleHeap () {
  const heapBytes = process.memoryUsage().heapUsed
  if (heapBytes > heapPeakBytes) heapPeakBytes = heapBytes
  return heapBytes
}
// Fires only while the event loop is free: during the synchronous loop the heap is read at its end.
// Not under --measure instructions: a message every 100 ms would add instructions and syscalls in
// proportion to the run's length under the simulator, not to its events.
const counted = config.measure === 'instructions'
if (!counted) setInterval(() => process.send({ type: 'heap', heapBytes: sampleHeap() }), 100).unref()

// Timing calls under the simulator measures nothing and adds instructions: off there.
const sampleEvery = counted ? 0 : (config.callTiming?.sampleEvery ?? 0)

async function main () {
  const logger = await createLogger(config)
  // Measured before 'ready', so that it does not delay this worker's start behind the others'.
  const floorNs = sampleEvery > 0 ? timerFloorNs() : 0
  process.once('message', (msg) => {
    if (msg && msg.type === 'start') run(logger, floorNs).catch((err) => fail('close', err))
  })
  process.send({ type: 'ready' })
}

// Logs events [from, to). Every call in a sample is timed on its own: with sampleEvery = k a call is
// timed, then the next timed call is 1 to 2k-1 calls later at random (k on average), so the sample
// cannot fall in step with a logger's own period (a buffer flushed every n lines). sampleEvery 0
// times nothing. The timer's floor is taken off each time; the two branches keep the untimed calls
// as lean as the plain loop.
function rangeLogger (logger, histogram, { sampleEvery, floorNs }) {
  const prefix = messagePrefix(config.workerId)
  const suffix = ': ' + config.payload
  const spread = 2 * sampleEvery - 1
  let nextTimed = sampleEvery > 0 ? 0 : Infinity
  return function logRange (from, to) {
    for (let seq = from; seq < to; seq++) {
      if (seq !== nextTimed) {
        logger.log(prefix + seq + suffix)
        continue
      }
      const t0 = process.hrtime.bigint()
      logger.log(prefix + seq + suffix)
      const ns = Number(process.hrtime.bigint() - t0) - floorNs
      histogram.recordValue(ns > 0 ? ns : 0)
      nextTimed = seq + 1 + Math.floor(Math.random() * spread)
    }
  }
}

// --rate: the events due by now are logged in one batch per tick, at most 10 ms' worth at once; the
// worker then waits on a timer for the next due event (or yields with setImmediate when behind).
// Resolves with the time the batches held the event loop, in ns.
function paced (logRange, events, rate) {
  const maxBatch = Math.max(1, Math.ceil(rate / 100))
  const startNs = process.hrtime.bigint()
  let heldNs = 0n
  let seq = 0
  return new Promise((resolve, reject) => {
    function tick () {
      try {
        const elapsedNs = process.hrtime.bigint() - startNs
        const due = Math.min(events, Math.floor((Number(elapsedNs) / 1e9) * rate) + 1)
        const to = Math.min(due, seq + maxBatch)
        const t0 = process.hrtime.bigint()
        logRange(seq, to)
        heldNs += process.hrtime.bigint() - t0
        seq = to
        if (seq >= events) return resolve(heldNs)
        if (seq < due) return setImmediate(tick)
        const waitMs = (seq / rate) * 1000 - Number(process.hrtime.bigint() - startNs) / 1e6
        setTimeout(tick, Math.max(1, Math.floor(waitMs)))
      } catch (err) {
        reject(err)
      }
    }
    tick()
  })
}

async function run (logger, floorNs) {
  const { events, rate = null } = config
  const histogram = newHistogram()
  const logRange = rangeLogger(logger, histogram, { sampleEvery, floorNs })
  // From the first call on: importing the library and building the logger are not the logging's cost.
  const cpu = startCpuRecord()
  const gc = startGcRecord()
  const io = startIoRecord()
  const loopDelay = rate ? startLoopDelay() : null
  // The run starts at each worker's own first call, not when the primary sent 'start': delivering
  // that message to each worker in turn is not logging time.
  const startedAt = now()
  let heldNs = null
  try {
    if (rate) heldNs = await paced(logRange, events, rate)
    else logRange(0, events)
  } catch (err) {
    return fail('logging', err)
  }
  const unblockedAt = now()
  const eventLoopDelayNs = loopDelay?.stop() ?? null
  sampleHeap()
  process.send({ type: 'unblocked', at: unblockedAt, startedAt, heldNs: heldNs == null ? null : String(heldNs) })
  await logger.close()
  const closedAt = now()
  const ioFigures = io.stop()
  const gcFigures = gc.stop()
  const cpuFigures = cpu.stop()
  sampleHeap()
  process.send({
    type: 'closed',
    at: closedAt,
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
      eventLoopDelayNs
    }
  }, () => process.exit(0))
}

main().catch((err) => fail('setup', err))
