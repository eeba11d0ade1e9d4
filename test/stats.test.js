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

test('compareRuns: A/A reads same in about 95% of trials, and the interval agrees with p', () => {
  const next = random(3)
  let same = 0
  const trials = 400
  for (let t = 0; t < trials; t++) {
    const a = Array.from({ length: 10 }, () => 600 * Math.exp(0.05 * (next() - 0.5)))
    const b = Array.from({ length: 10 }, () => 600 * Math.exp(0.05 * (next() - 0.5)))
    const r = compareRuns(a, b, { noise: 0 })
    if (r.verdict === 'same') same++
    // Same test, inverted: significant exactly when the interval leaves 1 out.
    assert.equal(r.p < 0.05, r.ciLow > 1 || r.ciHigh < 1, JSON.stringify(r))
  }
  assert.ok(same / trials > 0.92, `same in ${same} of ${trials}`)
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
  assert.equal(r.verdict, 'same')
  const one = compareRuns([1], [2])
  assert.equal(one.p, null)
  assert.equal(one.verdict, 'same')
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
  assert.equal(compareRuns(base, base).verdict, 'same')
})
