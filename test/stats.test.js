import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compareRuns, describe, medianInterval, outliers, seededRandom } from '../src/stats.js'

// A fixed pseudo-random sequence, so that these tests are the same on every run.
const random = seededRandom

test('median interval: order statistics with the coverage they achieve', () => {
  // 10 runs: [x(2), x(9)], 1 − 2·11/1024.
  assert.deepEqual(medianInterval([10, 1, 9, 2, 8, 3, 7, 4, 6, 5]), { low: 2, high: 9, coverage: 1 - 22 / 1024 })
  // Below 6 runs no pair reaches 95%: the whole range, and what it covers.
  assert.deepEqual(medianInterval([3, 1, 2]), { low: 1, high: 3, coverage: 0.75 })
  assert.deepEqual(medianInterval([1, 2, 3, 4, 5]), { low: 1, high: 5, coverage: 1 - 2 / 32 })
  assert.deepEqual(medianInterval([4]), { low: 4, high: 4, coverage: 0 })
  assert.deepEqual(medianInterval([]), { low: null, high: null, coverage: null })
  // 30 runs: [x(10), x(21)] (coverage 95.7%; x(11) would give 90.1%).
  const xs = Array.from({ length: 30 }, (_, i) => i + 1)
  const interval = medianInterval(xs)
  assert.equal(interval.low, 10)
  assert.equal(interval.high, 21)
  assert.ok(interval.coverage >= 0.95 && interval.coverage < 0.96)
})

test('median interval: covers the true median about 95% of the time (20 runs, skewed runs)', () => {
  const next = random(7)
  let covered = 0
  const trials = 2000
  // Exponential runs with median ln 2.
  for (let t = 0; t < trials; t++) {
    const xs = Array.from({ length: 20 }, () => -Math.log(1 - next()))
    const { low, high } = medianInterval(xs)
    if (low <= Math.LN2 && Math.LN2 <= high) covered++
  }
  assert.ok(covered / trials > 0.94 && covered / trials < 0.985, `coverage ${covered / trials}`)
})

test('describe: centre, spread, interval and outliers of one cell', () => {
  const d = describe([100, 102, 98, 101, 99, 100, null, 400])
  assert.equal(d.n, 7)
  assert.equal(d.median, 100)
  assert.equal(d.min, 98)
  assert.equal(d.max, 400)
  assert.equal(d.outliers, 1)
  assert.equal(d.ciLow, 98)
  assert.equal(d.ciHigh, 400)
  assert.ok(d.ciCoverage > 0.98)
  assert.equal(describe([]), null)
})

test('outliers: modified z-score on the MAD beyond 10 robust standard deviations, as hyperfine', () => {
  assert.deepEqual(outliers([10, 10.1, 10.2, 9.9, 9.8, 30]), [30])
  // 4.5 MADs away is not an outlier by that rule.
  assert.deepEqual(outliers([10, 11, 9, 10, 14.5]), [])
  assert.deepEqual(outliers([1, 2]), [])
  // Over half identical: any other value is infinitely many MADs away.
  assert.deepEqual(outliers([5, 5, 5, 6]), [6])
})

test('compareRuns: a clear slowdown reads slower with an interval around the true ratio', () => {
  const next = random(1)
  const base = Array.from({ length: 10 }, () => 600 * (1 + 0.02 * next()))
  const slow = Array.from({ length: 10 }, () => 660 * (1 + 0.02 * next()))
  const r = compareRuns(base, slow)
  assert.equal(r.verdict, 'slower')
  assert.ok(r.ciLow > 1.05 && r.ciHigh < 1.15, `${r.ciLow}..${r.ciHigh}`)
  assert.ok(r.ciLow <= r.ratio && r.ratio <= r.ciHigh)
  assert.ok(r.p < 0.001)
  assert.equal(r.n, 10)
  assert.equal(r.nBaseline, 10)
  assert.equal(compareRuns(slow, base).verdict, 'faster')
  // For a rate, more is faster.
  assert.equal(compareRuns(base, slow, { better: 'higher' }).verdict, 'faster')
  assert.equal(compareRuns(base, slow, { better: null }).verdict, 'higher')
})

test('compareRuns: A/A without a noise band reads faster or slower in at most about 5% of trials, and the interval agrees with p', () => {
  const next = random(3)
  let called = 0
  const trials = 400
  for (let t = 0; t < trials; t++) {
    const a = Array.from({ length: 10 }, () => 600 * Math.exp(0.05 * (next() - 0.5)))
    const b = Array.from({ length: 10 }, () => 600 * Math.exp(0.05 * (next() - 0.5)))
    const r = compareRuns(a, b, { noise: 0 })
    if (r.verdict === 'faster' || r.verdict === 'slower') called++
    // With no band, nothing is `same`: the interval cannot fit inside ±0.
    assert.notEqual(r.verdict, 'same')
    // Same test, inverted: significant exactly when the interval leaves 1 out.
    assert.equal(r.p < 0.05, r.ciLow > 1 || r.ciHigh < 1, JSON.stringify(r))
  }
  assert.ok(called / trials < 0.08, `faster or slower in ${called} of ${trials}`)
})

// Log-normal runs around 1,000 ms with the given spread (σ of the logarithm).
function lognormalRuns (next, n, spread, centre = 1000) {
  return Array.from({ length: n }, () => centre * Math.exp(spread * Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next())))
}

test('compareRuns: an A/A with the default noise band reads faster or slower far less often than its tests are significant', () => {
  // The spreads this project's cells show (2% to 13% between runs), 3, 5 and 10 runs a side. A test
  // at p < 0.05 is significant on identical code by chance; the verdict also needs the whole
  // interval beyond ±2%, which takes those chance calls from 2% of these pairs (36 of 1,800 with
  // this seed) to under 1% (8), and to none where the runs spread 2% or there are 3 runs a side.
  const next = random(29)
  let called = 0
  let significant = 0
  let total = 0
  for (const n of [3, 5, 10]) {
    for (const spread of [0.02, 0.05, 0.13]) {
      for (let t = 0; t < 200; t++) {
        const r = compareRuns(lognormalRuns(next, n, spread), lognormalRuns(next, n, spread))
        total++
        if (r.p != null && r.p < 0.05) significant++
        if (r.verdict !== 'faster' && r.verdict !== 'slower') continue
        called++
        assert.ok(n > 3 && spread > 0.02, `A/A read ${r.verdict} with ${n} runs at ${spread * 100}% spread: ${JSON.stringify(r)}`)
      }
    }
  }
  assert.ok(called / total < 0.01, `A/A read faster or slower in ${called} of ${total}`)
  assert.ok(called < significant / 2, `${called} calls of ${significant} significant tests`)
})

test('compareRuns: a wide interval over the threshold is unclear, with the runs it would take', () => {
  // The case, rebuilt: a ratio near 1.19 whose interval reaches below 1 (p above 0.05).
  const base = [1000, 1040, 960, 1100, 900]
  const next = [1194, 1000, 1450, 1300, 990]
  const r = compareRuns(base, next)
  assert.ok(r.p >= 0.05 && r.ciLow < 1 && r.ciHigh > 1.1, JSON.stringify(r))
  assert.equal(r.verdict, 'unclear')
  assert.ok(r.runsToDecide > 5, String(r.runsToDecide))
  // Significant, but the interval reaches into the ±2% band: unclear too, not slower.
  const a = [100, 100.2, 100.4, 100.6, 100.8, 101, 101.2, 101.4]
  const b = a.map((v) => v * 1.025)
  const near = compareRuns(a, b)
  assert.ok(near.p < 0.05 && near.ciLow < 1.02, JSON.stringify(near))
  assert.equal(near.verdict, 'unclear')
  // same only where the whole interval lies inside the band; then no runs are asked for.
  const tight = compareRuns([100, 100.1, 100.2, 100.3, 100.4], [100.05, 100.15, 100.25, 100.35, 100.45])
  assert.equal(tight.verdict, 'same')
  assert.equal(tight.runsToDecide, null)
})

test('compareRuns: a significant change inside the noise threshold is same', () => {
  const base = [100, 100.1, 100.2, 100.3, 100.4, 100.5, 100.6, 100.7]
  const next = base.map((v) => v * 1.01 + 0.05)
  assert.ok(compareRuns(base, next, { noise: 0 }).p < 0.05)
  assert.equal(compareRuns(base, next, { noise: 0 }).verdict, 'slower')
  assert.equal(compareRuns(base, next).verdict, 'same')
  assert.equal(compareRuns(base, next, { noise: 0.005 }).verdict, 'slower')
})

test('compareRuns: few runs state their coverage and cannot be significant', () => {
  const r = compareRuns([1, 2, 3], [4, 5, 6])
  assert.equal(r.p, 0.1)
  assert.equal(r.coverage, 0.9)
  assert.equal(r.verdict, 'unclear')
  const one = compareRuns([1], [2])
  assert.equal(one.p, null)
  assert.equal(one.verdict, 'unclear')
  assert.equal(one.ratio, 2)
  const empty = compareRuns([], [2])
  assert.equal(empty.verdict, null)
  assert.equal(empty.ratio, null)
})

test('compareRuns: values with zeros are compared on differences', () => {
  const r = compareRuns([0, 0, 0, 0, 0], [0.1, 0.1, 0.12, 0.11, 0.1], { better: 'lower' })
  assert.equal(r.ratio, null)
  assert.ok(Math.abs(r.difference - 0.1) < 1e-12)
  assert.ok(r.diffLow > 0)
  assert.equal(r.verdict, 'slower')
  // --noise is relative to the baseline's median: with a baseline of 0 no difference is noise, however
  // small (1.5 points of drop rate against none lost is not `same` at --noise 2%)...
  const drops = compareRuns([0, 0, 0, 0, 0, 0], [0.015, 0.014, 0.016, 0.015, 0.013, 0.015], { noise: 0.02 })
  assert.equal(drops.verdict, 'slower')
  // ...while against a baseline median of 0.5 a significant shift of 0.006 lies within ±2% of it (0.01).
  const xs = [0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
  const ys = [0, 0.506, 0.507, 0.505, 0.506, 0.508, 0.505, 0.506]
  const near = compareRuns(xs, ys, { noise: 0.02 })
  assert.ok(near.ratio == null && near.p < 0.05)
  assert.equal(near.verdict, 'same')
  assert.equal(compareRuns(xs, ys, { noise: 0.001 }).verdict, 'slower')
})

test('compareRuns: many runs use the normal approximation', () => {
  const base = Array.from({ length: 40 }, (_, i) => 100 + i)
  const r = compareRuns(base, base.map((v) => v + 30))
  assert.equal(r.verdict, 'slower')
  assert.ok(r.coverage > 0.94 && r.coverage < 0.96, String(r.coverage))
  assert.equal(compareRuns(base, base).verdict, 'unclear')
  assert.equal(compareRuns(base, base.map((v) => v * 1.001)).verdict, 'unclear')
})
