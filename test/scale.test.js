import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { cellKey } from '../src/results/model.js'
import { loadResults } from '../src/results/read.js'
import { renderPage } from '../src/report/markdown.js'
import { timeseriesChart } from '../src/report/run/charts.js'
import { describe as describeValues, maxOf, minOf } from '../src/stats.js'
import { ROOT, tmpDir } from './helpers.js'

// Long results are reported in time and memory linear in their size: no argument spreading of
// unbounded arrays (Math.max(...x) overflows the stack at about 100,000 values) and no table that
// scans every run for every row. Checked by counting work, not by timing it.

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'report', 'results.json')

// A results file of n runs spread over the fixture's cells (about n / 13 runs per cell).
function syntheticResults (n, { seriesLength = 0 } = {}) {
  const doc = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'))
  const templates = doc.runs.filter((r) => (r.type ?? 'run') === 'run' && r.ok)
  // Numbered run by run within each cell: a cell's run number twice is refused at read.
  const runsOf = new Map()
  doc.runs = Array.from({ length: n }, (_, i) => {
    const t = templates[i % templates.length]
    const run = (runsOf.get(cellKey(t)) ?? 0) + 1
    runsOf.set(cellKey(t), run)
    return { ...t, run, doneMs: t.doneMs * (1 + (i % 7) / 10), timeseries: [] }
  })
  doc.summary = []
  const file = path.join(tmpDir(), `synthetic-${n}.json`)
  fs.writeFileSync(file, JSON.stringify(doc))
  return file
}

// Renders the page of a dataset whose runs count every property read made on them.
function readsToRender (file) {
  const dataset = loadResults([file])
  let reads = 0
  const handler = { get (target, key, receiver) { reads++; return Reflect.get(target, key, receiver) } }
  dataset.runs = dataset.runs.map((r) => new Proxy(r, handler))
  const { markdown } = renderPage(dataset, { imageLink: (f) => f })
  return { reads, markdown }
}

describe('report scales linearly with the number of runs', () => {
  it('twice the runs, at most about twice the reads of them (a quadratic table would read four times as much)', () => {
    const small = readsToRender(syntheticResults(2600))
    const large = readsToRender(syntheticResults(5200))
    assert.ok(large.reads / small.reads < 2.3, `reads: ${small.reads} for 2,600 runs, ${large.reads} for 5,200`)
    assert.match(large.markdown, /\| Test 400 +\|/)
  })

  it('statistics over 1,000,000 values, and min/max without argument spreading', () => {
    const values = Array.from({ length: 1_000_000 }, (_, i) => (i * 7919) % 1_000_003)
    const d = describeValues(values)
    assert.equal(d.n, 1_000_000)
    assert.equal(d.min, minOf(values))
    assert.equal(d.max, maxOf(values))
    assert.equal(maxOf([], 100), 100)
    assert.equal(minOf([3, 1, 2]), 1)
  })

  it('a time series of 200,000 samples (5.5 h at 100 ms) becomes a chart', () => {
    const series = Array.from(
      { length: 200_000 },
      (_, k) => ({ tMs: k * 100, cpuPct: k === 150_000 ? 180 : 50, rssBytes: 7e7, heapBytes: 2e7 })
    )
    const run = { run: 1, lib: 'pino', libVersion: '9', ok: true, doneMs: 2e7, unblockedMs: 1e7, timeseries: series }
    const chart = timeseriesChart({ group: { transport: 'file', title: 'Filesystem', eventsLabel: '1' }, lib: 'pino', cpus: 1, runs: [run], chosen: { run, why: null }, conditions: '' })
    assert.equal(chart.config.options.scales.cpu.suggestedMax, 180 * 1.05)
  })
})
