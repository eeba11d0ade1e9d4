import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { costsSection } from '../src/report/run/costs-section.js'
import { renderChart } from '../src/draw/charts.js'
import { workloadsSection } from '../src/report/run/workloads-section.js'
import { summarize } from '../src/results/model.js'
import { markdownBlocks } from '../src/draw/table.js'

const ctx = { image: (file, alt) => `![${alt}](${file})`, conditions: 'test machine' }

function runOf (lib, { run = 1, workload = 'string', costs = true, p99 = 9000 } = {}) {
  const base = { type: 'run', lib, variant: 'default', workload, transport: 'file', sink: 'file', cpus: 1, events: 100_000, size: 13, run, ok: true, status: 'ok', error: null, sent: 100_000, received: 100_000, dropRate: 0, unblockedMs: 500, doneMs: 600, gcCount: 20, gcPauseMs: 30 }
  if (!costs) return base
  return {
    ...base,
    allocBytesPerEvent: 1000 * run,
    gcMaxPauseMs: 5,
    cpuMainThreadMs: 400,
    cpuOtherThreadsMs: 100,
    nsCpuPerEvent: { mainThread: 4000, otherThreads: 1000 },
    callLatencyNs: {
      p50: 2000,
      p99,
      p999: 50_000,
      max: 900_000,
      mean: 3000,
      timed: 3125,
      sampleEvery: 32,
      timerFloorNs: 40,
      histogram: [[0, 100], [50, 2000], [99, p99], [99.9, 50_000], [100, 900_000]]
    },
    eventLoopDelayNs: null
  }
}
const dataset = (runs) => ({ runs, summary: summarize(runs) })

describe('the "What each call costs" section', () => {
  it('shows nothing for results that did not record the costs (the committed results)', () => {
    const out = costsSection.render(dataset([runOf('pino', { costs: false }), runOf('raw', { costs: false })]), ctx)
    assert.deepEqual(out, { blocks: [], charts: [] })
  })

  it('gives medians per library over the runs that recorded them, per 10,000 events, and a chart per worker count', () => {
    const runs = [runOf('pino', { run: 1, p99: 8000 }), runOf('pino', { run: 2, p99: 12000 }), runOf('pino', { run: 3, costs: false }), runOf('raw')]
    const out = costsSection.render(dataset(runs), ctx)
    out.markdown = markdownBlocks(out.blocks)
    const pino = out.markdown.split('\n').find((line) => line.startsWith('| pino'))
    const cells = pino.split('|').map((c) => c.trim()).filter(Boolean)
    // Runs, p50, p99, p99.9, max, bytes, GCs/10k, pause/10k, CPU main, CPU other
    // 3,125 timed calls resolve p99 (1,000 needed) but not p99.9 (10,000): no figure finer than the samples.
    assert.deepEqual(cells.slice(1), ['2', '2,000', '10,000', '— (3,125 timed)', '900,000', '1.5 KiB', '2.0', '3.0', '4,000', '1,000'])
    assert.ok(out.markdown.includes('| raw'))
    assert.ok(!out.markdown.includes('Event-loop delay'), 'no loop-delay columns without paced runs')
    assert.equal(out.charts.length, 1)
    const chart = out.charts[0]
    assert.equal(chart.file, 'file/1cpu/call-latency.png')
    assert.deepEqual(chart.config.data.datasets.map((d) => d.label), ['pino', 'raw'])
    assert.equal(chart.config.options.scales.x.type, 'logarithmic')
    assert.equal(chart.config.options.scales.y.type, 'logarithmic')
    // The chart too draws no p99.9 from 3,125 timed calls: p0, p50, p99, then a gap (no line across
    // what was not resolved) and the slowest call.
    assert.deepEqual(chart.config.data.datasets[0].data.map((p) => p.y), [100, 2000, 10_000, null, 900_000])
    assert.ok(renderChart(chart).length > 1000)
  })

  it('on a page with detail pages, puts each group\'s table and charts on that group\'s detail page, and says so on the page', async () => {
    const { renderPage } = await import('../src/report/markdown.js')
    const runs = [runOf('pino'), runOf('raw'), runOf('pino', { run: 2 }), runOf('raw', { run: 2 })]
    const details = { imageLink: (file) => `../images/${file}`, link: (slug) => `details/${slug}.md`, back: '../page.md' }
    const env = { cpuModel: 'Test CPU', cpuCount: 2, memoryBytes: 2 ** 30, os: 'Linux', node: 'v20.0.0', commands: ['log-bench run'], firstTime: '2026-12-02T12:00:00Z', lastTime: '2026-12-02T12:05:00Z', libVersions: {} }
    const page = renderPage({ ...dataset(runs), env, envs: [{ file: 'x.json', env, complete: true }], files: ['x.json'] }, { imageLink: (file) => `images/${file}`, details })
    // The page keeps the heading and a sentence, not the table.
    assert.match(page.markdown, /^## What each call costs\n\nWhat each call costs \(.*\) is on each comparison's detail page, under Details below: 1 comparison recorded it\.$/m)
    assert.ok(!page.markdown.includes('ns per call p50'))
    // One detail page for the group: the run section's tables, then the costs with their chart.
    assert.equal(page.details.length, 1)
    const [detail] = page.details
    assert.ok(detail.markdown.indexOf('### What each call costs') > detail.markdown.indexOf('| pino'), 'the costs after the run section\'s tables')
    assert.match(detail.markdown, /^\| pino +\| +2 \| +2,000 \|/m)
    assert.match(detail.markdown, /\]\(\.\.\/images\/file\/1cpu\/call-latency\.png\)/)
  })

  it('adds the event-loop delay where runs were paced', () => {
    const paced = { ...runOf('pino'), rate: 20_000, eventLoopDelayNs: { p50: 1e6, p99: 4e6, max: 2e7, samples: 190 } }
    const out = costsSection.render(dataset([paced]), ctx)
    out.markdown = markdownBlocks(out.blocks)
    assert.ok(out.markdown.includes('Event-loop delay p99 ms'))
    assert.match(out.markdown, /\|\s+4\.0 \|\s+20 \|/)
  })
})

describe('the workloads section and the costs', () => {
  const both = (costs) => ['string', 'object'].flatMap((workload) => [runOf('pino', { workload, costs }), runOf('raw', { workload, costs })])
  it('adds bytes per event and p99 only where the results recorded them', () => {
    const without = markdownBlocks(workloadsSection.render(dataset(both(false)), ctx).blocks)
    assert.ok(!without.includes('Bytes per event'))
    const withCosts = markdownBlocks(workloadsSection.render(dataset(both(true)), ctx).blocks)
    assert.ok(withCosts.includes('Bytes per event') && withCosts.includes('ns per call p99'))
    assert.match(withCosts, /\| pino +\| +object .*\| +1000 B +\| +9,000 \|/)
  })
})

describe('compare and the costs', () => {
  it('compares bytes, GC, call time and CPU per event where both sides recorded them, and leaves them out where not', async () => {
    const { compareDatasets } = await import('../src/report/compare.js')
    const side = (alloc, costs = true) => dataset([1, 2, 3].map((run) => ({ ...runOf('pino', { run, costs }), ...(costs ? { allocBytesPerEvent: alloc + run } : {}) })))
    const rowsOf = (result, key) => result.comparisons.filter((row) => row.measure === key)
    const measured = compareDatasets(side(1000), side(2000))
    assert.equal(rowsOf(measured, 'allocBytesPerEvent').length, 1)
    assert.equal(rowsOf(measured, 'allocBytesPerEvent')[0].baselineMedian, 1002)
    assert.equal(rowsOf(measured, 'callP99Ns')[0].median, 9000)
    assert.equal(rowsOf(measured, 'gcPer10kEvents')[0].baselineMedian, 2)
    assert.equal(rowsOf(measured, 'cpuOtherNsPerEvent')[0].baselineMedian, 1000)
    assert.equal(rowsOf(measured, 'eventLoopDelayP99Ns').length, 0)
    const old = compareDatasets(side(0, false), side(2000))
    for (const key of ['allocBytesPerEvent', 'callP99Ns', 'cpuMainNsPerEvent']) assert.equal(rowsOf(old, key).length, 0, key)
  })
})
