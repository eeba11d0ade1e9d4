// The load generator, in a process of its own so that it never competes with the server's event
// loop: an autocannon warm-up (discarded), then the measured run, whose result goes back over IPC.
import { randomInt } from 'node:crypto'
import autocannon from 'autocannon'
import { fail, failOnUncaught, leaveSignalsToPrimary, receiveConfig } from '../engine/child-side.js'

leaveSignalsToPrimary()
process.on('disconnect', () => process.exit(0))
failOnUncaught()
const config = await receiveConfig()

const request = {
  url: config.url,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: config.body,
  connections: config.connections,
  pipelining: config.pipelining,
  // Open loop (--rate): autocannon sends this many requests a second in all, whatever the answers' pace.
  ...(config.rate ? { overallRate: config.rate } : {})
}

// --alternate: the load turns from one server to the other every config.alternate seconds, A B B A
// A B B A …, each slice a short autocannon run of its own (its connections opened anew, as each run's
// are). Returns each side's slices: autocannon's raw results (skipAggregateResult), joined by
// sideResult below. sampleInt: autocannon ends a run at the first sample after its duration; at its
// default of a second a 0.5 s slice would last a second.
const SLICE_SAMPLE_MS = 50

// An even number of slices a side, so that each side comes first in as many pairs as the other; which
// side opens (its warm-up last, its slice first) is drawn at random for each run.
async function alternateLoad (urls) {
  const first = randomInt(2)
  const opening = [first, 1 - first]
  const closing = [1 - first, first]
  if (config.warmupSeconds > 0) {
    for (const side of closing) await autocannon({ ...request, url: urls[side], duration: config.warmupSeconds })
  }
  process.send({ type: 'measuring' })
  const slices = Math.max(2, 2 * Math.round(config.durationSeconds / config.alternate / 2))
  const sides = urls.map(() => [])
  for (let i = 0; i < slices; i++) {
    for (const side of (i % 2 === 0 ? opening : closing)) {
      const slice = { ...request, url: urls[side], duration: config.alternate, sampleInt: SLICE_SAMPLE_MS }
      sides[side].push(await autocannon({ ...slice, skipAggregateResult: true }))
    }
  }
  return sides.map((raw, side) => sideResult(raw, urls[side]))
}

// One side's slices as one autocannon result (the shape loadFigures reads): latencies, errors and
// totals joined by autocannon's own aggregateResult (its histograms added, as for its workers);
// requests and bytes per second over the slices' time in all (the per-second fields: the slices' own
// rates); duration the slices' time in all.
function sideResult (raw, url) {
  const options = { url, connections: config.connections, pipelining: config.pipelining }
  const joined = autocannon.aggregateResult(raw, options)
  const secondsOf = (r) => Math.max((r.finish - r.start) / 1000, 1e-3)
  const seconds = raw.reduce((total, r) => total + secondsOf(r), 0)
  const perSecond = (count) => {
    const total = raw.reduce((sum, r) => sum + count(r), 0)
    return { total, ...spread(raw.map((r) => count(r) / secondsOf(r)), total / seconds) }
  }
  return {
    ...joined,
    duration: Math.round(seconds * 100) / 100,
    slices: raw.length,
    requests: perSecond((r) => r.totalCompletedRequests),
    throughput: perSecond((r) => r.totalBytes)
  }
}

// { mean, stddev, min, max, p1, p2_5, p50, p97_5 } of per-slice rates, the mean being the side's
// rate over its time in all.
function spread (rates, mean) {
  const sorted = [...rates].sort((a, b) => a - b)
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  const average = sorted.reduce((a, b) => a + b, 0) / sorted.length
  const stddev = Math.sqrt(sorted.reduce((s, x) => s + (x - average) ** 2, 0) / sorted.length)
  const [min, max] = [sorted[0], sorted.at(-1)]
  return { mean, stddev, min, max, p1: at(0.01), p2_5: at(0.025), p50: at(0.5), p97_5: at(0.975) }
}

try {
  if (config.alternate) {
    const [baseline, result] = await alternateLoad([config.baselineUrl, config.url])
    process.send({ type: 'result', result, baseline }, () => process.exit(0))
  } else {
    await measureOne()
  }
} catch (err) {
  fail('load', err)
}

async function measureOne () {
  // Counted runs (warmupAmount) send their warm-up and their measured requests as one autocannon run
  // over the same connections: the count is the server's whole life, so a separate warm-up gains
  // nothing, and the first run's connections closing while the second's opened reached the server
  // in either order. Timed runs warm up for --warmup seconds, discarded. 0 of either: no warm-up.
  const counted = config.warmupAmount != null
  if (!counted && config.warmupSeconds > 0) await autocannon({ ...request, duration: config.warmupSeconds })
  process.send({ type: 'measuring' })
  // A counted run (--measure instructions) asks for a number of requests: a simulated server takes
  // longer than --duration to serve them, and the count's difference must be of known requests.
  const result = await autocannon({
    ...request,
    ...(counted ? { amount: config.warmupAmount + config.amount } : { duration: config.durationSeconds })
  })
  process.send({ type: 'result', result }, () => process.exit(0))
}
