// One cluster worker: builds the logger, waits at the barrier, runs the seed's tight synchronous
// loop, then awaits the adapter's close(). Timestamps are process.hrtime.bigint() (CLOCK_MONOTONIC),
// sent as strings so the primary can compare them across processes.
import { performance, PerformanceObserver } from 'node:perf_hooks'
import { createLogger, fail, failOnUncaught, receiveConfig } from '../engine/child-side.js'
import { messagePrefix } from '../engine/message.js'

failOnUncaught()
const config = await receiveConfig()
const now = () => String(process.hrtime.bigint())

// Only collections from the first log call on count: importing the library and building the
// logger are not the logging's cost. Entries arrive late (queued), so they are judged by their start.
const gc = { count: 0, pauseMs: 0, fromMs: Infinity }
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.startTime < gc.fromMs) continue
    gc.count++
    gc.pauseMs += entry.duration
  }
}).observe({ entryTypes: ['gc'] })

let heapPeakBytes = 0
function sampleHeap () {
  const heapBytes = process.memoryUsage().heapUsed
  if (heapBytes > heapPeakBytes) heapPeakBytes = heapBytes
  return heapBytes
}
// Fires only while the event loop is free: during the synchronous loop the heap is read at its end.
setInterval(() => process.send({ type: 'heap', heapBytes: sampleHeap() }), 100).unref()

async function main () {
  const logger = await createLogger(config)
  process.once('message', (msg) => {
    if (msg && msg.type === 'start') run(logger).catch((err) => fail('close', err))
  })
  process.send({ type: 'ready' })
}

async function run (logger) {
  const cpuBefore = process.cpuUsage()
  const prefix = messagePrefix(config.workerId)
  const suffix = ': ' + config.payload
  const events = config.events
  // The run starts at each worker's own first call, not when the primary sent 'start': delivering
  // that message to each worker in turn is not logging time.
  gc.fromMs = performance.now()
  const startedAt = now()
  try {
    for (let seq = 0; seq < events; seq++) logger.log(prefix + seq + suffix)
  } catch (err) {
    return fail('logging', err)
  }
  const unblockedAt = now()
  sampleHeap()
  process.send({ type: 'unblocked', at: unblockedAt, startedAt })
  await logger.close()
  const closedAt = now()
  const cpu = process.cpuUsage(cpuBefore)
  sampleHeap()
  // Let the GC observer deliver its last entries before they are reported.
  await new Promise((resolve) => setImmediate(resolve))
  process.send({
    type: 'closed',
    at: closedAt,
    cpuUserMs: cpu.user / 1000,
    cpuSystemMs: cpu.system / 1000,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    heapPeakBytes,
    gcCount: gc.count,
    gcPauseMs: gc.pauseMs
  }, () => process.exit(0))
}

main().catch((err) => fail('setup', err))
