import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { ROOT, runCli } from './helpers.js'
import { loadResults } from '../src/results/read.js'
import { compareDatasets, compareValues } from '../src/report/compare.js'
import { mannWhitneyU, smallestMannWhitneyP, welchTTest } from '../src/stats.js'

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'report')
const BASE = path.join(FIXTURES, 'compare-base.json')
const NEW = path.join(FIXTURES, 'compare-new.json')

test('Welch t-test matches the textbook value', () => {
  const { t, df, p } = welchTTest([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])
  assert.ok(Math.abs(t + 1.8974) < 1e-4, `t = ${t}`)
  assert.ok(Math.abs(df - 5.8824) < 1e-4, `df = ${df}`)
  assert.ok(Math.abs(p - 0.1075) < 1e-4, `p = ${p}`)
  assert.equal(welchTTest([1], [2, 3]), null)
  assert.equal(welchTTest([5, 5, 5], [5, 5, 5]).p, 1)
  assert.equal(welchTTest([5, 5, 5], [6, 6, 6]).p, 0)
})

test('Mann-Whitney U: exact p for small samples, the normal approximation with ties', () => {
  // Every arrangement of 5 + 4 values counted by hand: U = 17 (or 3), P(U <= 3) = 7 / 126.
  const exact = mannWhitneyU([19, 22, 16, 29, 24], [20, 11, 17, 12])
  assert.equal(exact.u, 17)
  assert.equal(exact.exact, true)
  assert.ok(Math.abs(exact.p - 14 / 126) < 1e-12, `p = ${exact.p}`)
  assert.equal(mannWhitneyU([1, 2, 3], [4, 5, 6]).p, 0.1)
  assert.equal(smallestMannWhitneyP(3, 3), 0.1)
  assert.ok(Math.abs(smallestMannWhitneyP(4, 4) - 2 / 70) < 1e-12)
  const tied = mannWhitneyU([1, 1, 2, 3], [3, 4, 5, 5])
  assert.equal(tied.exact, false)
  assert.ok(tied.p > 0.02 && tied.p < 0.06, `p = ${tied.p}`)
  assert.equal(mannWhitneyU([5, 5, 5], [5, 5, 5]).p, 1)
  assert.equal(mannWhitneyU([], [1]), null)
})

test('a real change is significant, noise is not; the figure shown is the one tested', () => {
  const real = compareValues([100, 102, 98, 101, 99], [150, 149, 152, 151, 148])
  assert.equal(real.significant, true)
  assert.ok(Math.abs(real.change - 0.5) < 1e-9)
  assert.equal(real.base.centre, 100)
  const noise = compareValues([200, 210, 190, 205, 195], [205, 195, 200, 199, 201])
  assert.equal(noise.significant, false)
  assert.ok(noise.p > 0.5)
  // 3 + 3 runs: even a complete separation gives p = 0.1, and the result says the test could not reach alpha.
  const few = compareValues([100, 102, 98], [150, 149, 152])
  assert.deepEqual([few.significant, few.powerless, few.p], [false, true, 0.1])
  const welch = compareValues([100, 102, 98, 120], [150, 149, 152, 151], { test: 'welch' })
  assert.equal(welch.base.centre, 105)
  assert.equal(welch.significant, true)
})

test('compareDatasets: per cell and metric; cells in only one file are listed', () => {
  const result = compareDatasets(loadResults([BASE]), loadResults([NEW]), { test: 'welch' })
  const done = result.metrics.find((m) => m.key === 'doneMs').rows
  assert.deepEqual(done.map((r) => [r.cell, r.significant]), [['file pino 1 CPU', true], ['file winston 1 CPU', false]])
  assert.deepEqual(result.onlyBase, ['file raw 1 CPU'])
  assert.deepEqual(result.onlyNew, ['file log4js 1 CPU'])
})

test('log-bench compare: Mann-Whitney on medians by default, and says when 3 + 3 runs cannot reach --alpha', async () => {
  const { code, stdout, stderr } = await runCli(['compare', BASE, NEW])
  assert.equal(code, 0, stderr)
  assert.match(stdout, /Values are medians .* Mann–Whitney U test on the runs .*, two-sided, significant when p < 0\.05/)
  assert.match(stdout, /\| file pino 1 CPU +\| +100 ± 2% \| +150 ± 1% \| +~ \(p=0\.100 n=3\+3\) \|/)
  assert.match(stdout, /warning: with 3\+3 runs the smallest p this test can give is 0\.100, not below --alpha 0\.05: no comparison can be called significant .* --runs 4 or more .* --test welch/)
})

test('log-bench compare --test welch prints a benchstat-like table of means with ~ where not significant', async () => {
  const { code, stdout, stderr } = await runCli(['compare', BASE, NEW, '--test', 'welch'])
  assert.equal(code, 0, stderr)
  assert.match(stdout, /Values are means .* Welch's two-sample t-test on the runs, two-sided, significant when p < 0\.05/)
  assert.doesNotMatch(stdout, /warning:/)
  assert.match(stdout, /done \(ms\)\n\| cell +\| +base \| +new \| +change \|/)
  assert.match(stdout, /\| file pino 1 CPU +\| +100 ± 2% \| +150 ± 1% \| +\+50\.\d\d% \(p=0\.000 n=3\+3\) \|/)
  assert.match(stdout, /\| file winston 1 CPU +\| +200 ± 5% \| +200 ± 3% \| +~ \(p=1\.000 n=3\+3\) \|/)
  assert.match(stdout, /3 of 10 comparisons significant; by chance alone about 0\.5 would be/)
  assert.match(stdout, /only in base \(not compared\): file raw 1 CPU/)
  assert.match(stdout, /only in new \(not compared\): file log4js 1 CPU/)
  assert.doesNotMatch(stdout, /note: /)
})

test('compare says so when the two files come from different machines', async () => {
  const { code, stdout } = await runCli(['compare', BASE, path.join(FIXTURES, 'other-machine.json')])
  assert.equal(code, 0)
  assert.match(stdout, /note: the two files come from different environments \(cpuModel/)
  assert.match(stdout, /~ \(p=1\.000 n=3\+3\)/)
})

test('compare of bad input: exit 2 with one line', async () => {
  for (const args of [[BASE, path.join(FIXTURES, 'not-json.json')], [BASE], [BASE, NEW, '--alpha', '2'], [BASE, NEW, '--test', 'students']]) {
    const { code, stdout, stderr } = await runCli(['compare', ...args])
    assert.equal(code, 2, args.join(' '))
    assert.equal(stdout, '')
    assert.equal(stderr.trimEnd().split('\n').length, 1, stderr)
  }
})
