import assert from 'node:assert/strict'
import { test } from 'node:test'
import { KNEE_BOUND_NS, kneeOf } from '../src/results/judge/knee.js'

const entry = (rate, p99Ns, { okRuns = 3, runs = 3, maxDrop = 0 } = {}) => ({
  rate,
  runs,
  okRuns,
  responseP99Ns: p99Ns == null ? null : { median: p99Ns },
  dropRate: maxDrop == null ? null : { max: maxDrop }
})

test('the knee is the highest rate below the first whose response p99 passed the bound or whose runs failed', () => {
  assert.equal(KNEE_BOUND_NS, 1e6)
  const entries = [entry(10000, 2e6), entry(1000, 20e3), entry(5000, 0.9e6), entry(20000, 0.5e6), { rate: undefined }]
  const { knee, tried } = kneeOf(entries)
  assert.deepEqual(knee, { rate: 5000, responseP99Ns: 0.9e6, keptEvery: true })
  assert.deepEqual(tried.map((t) => [t.rate, t.sustained]), [[1000, true], [5000, true], [10000, false], [20000, true]])
  assert.equal(kneeOf([entry(1000, 1e3), entry(2000, 1e3, { okRuns: 2 })]).knee.rate, 1000)
})

test('says whether every event was kept at the knee, unknown where nothing is counted; null where no rate was sustained', () => {
  assert.equal(kneeOf([entry(1000, 1e3, { maxDrop: 0.02 })]).knee.keptEvery, false)
  assert.equal(kneeOf([entry(1000, 1e3, { maxDrop: null })]).knee.keptEvery, null)
  assert.equal(kneeOf([entry(1000, 5e6)]).knee, null)
  assert.equal(kneeOf([]).knee, null)
})
