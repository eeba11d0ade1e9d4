import assert from 'node:assert/strict'
import { test } from 'node:test'
import { KNEE_BOUND_NS, KNEE_FLOOR_SHARE, kneeOf } from '../src/results/judge/knee.js'
import { kneesOf, kneeText } from '../src/report/run/latency-section.js'
import { STEADY_MIN_CALLS, warmupEventsOf } from '../src/engine/pacing.js'

// A summary entry of one rate: every run's p99 given, so min, max and median follow from them.
const entry = (rate, p99s, { okRuns = null, maxDrop = 0, calls = 20_000, lib = 'pino', cpus = 1 } = {}) => {
  const values = [p99s].flat().filter((v) => v != null)
  const sorted = [...values].sort((a, b) => a - b)
  return {
    type: 'run',
    lib,
    variant: 'default',
    transport: 'file',
    cpus,
    events: 30_000,
    size: 0,
    rate,
    runs: [p99s].flat().length,
    okRuns: okRuns ?? [p99s].flat().length,
    responseP99Ns: values.length
      ? { median: sorted[(sorted.length - 1) >> 1], min: sorted[0], max: sorted.at(-1), ciCoverage: 0.75 }
      : null,
    responseCalls: { min: calls },
    dropRate: maxDrop == null ? null : { max: maxDrop }
  }
}
const quietFloor = () => 50e3

test('the knee is the highest rate below the first whose every run passed the bound or whose runs failed', () => {
  assert.equal(KNEE_BOUND_NS, 1e6)
  const entries = [
    entry(10000, [2e6, 3e6]), entry(1000, [20e3, 30e3]), entry(5000, [0.9e6, 0.8e6]), entry(20000, [0.5e6, 0.5e6]),
    { rate: undefined }
  ]
  const { knee, tried, stop } = kneeOf(entries, { floorAt: quietFloor })
  assert.deepEqual(knee, { rate: 5000, responseP99Ns: 0.8e6, calls: 20_000, keptEvery: true })
  assert.deepEqual(tried.map((t) => [t.rate, t.state]), [[1000, 'sustained'], [5000, 'sustained'], [10000, 'exceeded'], [20000, 'sustained']])
  assert.equal(stop.rate, 10000)
  const failed = kneeOf([entry(1000, 1e3), entry(2000, [1e3, 1e3], { okRuns: 1 })], { floorAt: quietFloor })
  assert.equal(failed.knee.rate, 1000)
  assert.equal(failed.stop.state, 'exceeded')
})

test('runs that straddle the bound read not decided, not a knee and not a rate exceeded', () => {
  const result = kneeOf([entry(1000, [1e5, 1e5]), entry(5000, [0.7e6, 1.3e6])], { floorAt: quietFloor })
  assert.equal(result.knee.rate, 1000)
  assert.equal(result.stop.state, 'undecided')
  assert.equal(kneeText(result), "1,000 events/s (p99 0.100 ms), every event kept; 5,000 events/s not decided (runs' p99 0.700 ms to 1.3 ms)")
  const alone = kneeOf([entry(1000, [0.7e6, 1.3e6])], { floorAt: quietFloor })
  assert.equal(alone.knee, null)
  assert.doesNotMatch(kneeText(alone), /below/)
})

test('a rate is judged only where noop\'s p99 there is at most a fifth of the bound; otherwise the machine could not resolve it', () => {
  assert.equal(KNEE_FLOOR_SHARE, 5)
  const entries = [entry(1000, 1e5), entry(10000, 1e5)]
  const floorAt = (rate) => (rate === 1000 ? 0.2e6 : 0.21e6)
  const result = kneeOf(entries, { floorAt })
  assert.equal(result.knee.rate, 1000)
  assert.equal(result.stop.state, 'unresolved')
  assert.match(kneeText(result), /10,000 events\/s not resolved \(noop's p99 0\.210 ms\)/)
  const unmeasured = kneeOf(entries)
  assert.equal(unmeasured.knee, null)
  assert.match(kneeText(unmeasured), /^1,000 events\/s not resolved \(no noop run there\)$/)
})

test('no knee from no measurement: a rate with no response time recorded stops the walk and says so', () => {
  const result = kneeOf([entry(1000, null)], { floorAt: quietFloor })
  assert.equal(result.knee, null)
  assert.equal(result.stop.state, 'unrecorded')
  assert.equal(kneeText(result), '1,000 events/s: no response time recorded, no knee')
  assert.doesNotMatch(kneeText(result), /below|p99 not recorded/)
})

test('a p99 resting on fewer than 10,000 steady calls is given as the percentile of N calls, not as a p99', () => {
  assert.equal(STEADY_MIN_CALLS, 10_000)
  const few = kneeOf([entry(1000, 1e5, { calls: 1000 })], { floorAt: quietFloor })
  assert.equal(kneeText(few), '1,000 events/s, the highest tried (99th percentile of 1,000 calls 0.100 ms, too few for a p99), every event kept')
  const enough = kneeOf([entry(1000, 1e5, { calls: 10_000 })], { floorAt: quietFloor })
  assert.match(kneeText(enough), /\(p99 0\.100 ms\)/)
})

test('says whether every event was kept at the knee, unknown where nothing is counted; null where no rate was sustained', () => {
  assert.equal(kneeOf([entry(1000, 1e3, { maxDrop: 0.02 })], { floorAt: quietFloor }).knee.keptEvery, false)
  assert.equal(kneeOf([entry(1000, 1e3, { maxDrop: null })], { floorAt: quietFloor }).knee.keptEvery, null)
  assert.equal(kneeOf([entry(1000, 5e6)], { floorAt: quietFloor }).knee, null)
  assert.equal(kneeOf([]).knee, null)
})

test('knees per whole cell: one library at 1 and 2 workers gets a knee each, each against noop in its own cell', () => {
  const summary = [
    entry(1000, 1e5), entry(20000, 0.3e6),
    entry(1000, 1e5, { cpus: 2 }), entry(20000, 50e6, { cpus: 2 }),
    entry(1000, 5e4, { lib: 'noop' }), entry(20000, 5e4, { lib: 'noop' }),
    entry(1000, 5e4, { lib: 'noop', cpus: 2 }), entry(20000, 5e4, { lib: 'noop', cpus: 2 })
  ].map((e) => ({ ...e, ending: 'close', measure: 'time' }))
  const cells = kneesOf(summary).get('file')
  const one = cells.get('pino, 1 worker')
  const two = cells.get('pino, 2 workers')
  assert.ok(one && two, [...cells.keys()].join(' / '))
  assert.equal(one.knee.rate, 20000)
  assert.equal(two.knee.rate, 1000)
  assert.equal(two.stop.state, 'exceeded')
})

test('the warm-up is the events due in the first second of the schedule, at most half the events', () => {
  assert.equal(warmupEventsOf(60_000, 5000), 5000)
  assert.equal(warmupEventsOf(2000, 5000), 1000)
  assert.equal(warmupEventsOf(1, 1000), 0)
})
