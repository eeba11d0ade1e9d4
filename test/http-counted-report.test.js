import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { httpSection } from '../src/report/http/section.js'
import { summarySection } from '../src/report/summary.js'
import { countedSentences, httpGlanceSection } from '../src/report/http/glance.js'
import { markdownBlocks } from '../src/draw/table.js'
import { summarizeHttp } from '../src/results/http-summary.js'

// Counted http records (--measure instructions) as `http` writes them, with what the report reads:
// no times, instructions per request from the factor given per (lib, logs).
const SPREAD = [1_520_000, 1_521_500, 1_519_200, 1_522_300, 1_520_800, 1_518_900]

function counted ({ lib, logs, run, instructions }) {
  return {
    type: 'http',
    lib,
    mode: 'route',
    middleware: null,
    transport: 'console',
    sink: 'pipe',
    cpus: 1,
    logsPerRequest: logs,
    size: 20,
    connections: 1,
    pipelining: 1,
    durationSeconds: 3,
    warmupSeconds: 1,
    rate: 100,
    measure: 'instructions',
    instructionsMethod: 'valgrind',
    run,
    ok: true,
    status: 'ok',
    error: null,
    reqPerSec: null,
    latencyMs: null,
    serverCpuUsPerRequest: null,
    instructionsPerRequest: instructions,
    compilerInstructionsPerRequest: 380_000,
    countedRequests: 300,
    sent: lib === 'none' ? 0 : 300 * logs,
    received: lib === 'none' ? 0 : 300 * logs,
    dropRate: lib === 'none' || logs === 0 ? null : 0
  }
}

function records ({ runs = 5, factor }) {
  const out = []
  for (let run = 1; run <= runs; run++) {
    for (const logs of [0, 5]) {
      ['none', 'pino', 'winston'].forEach((lib, i) => out.push(counted({ lib, logs, run, instructions: SPREAD[(run - 1 + i) % SPREAD.length] * (lib === 'none' ? 1 : factor(lib, logs)) })))
    }
  }
  return out
}

const dataset = (runs) => ({ runs, summary: [], env: { cpuCount: 2, cpuModel: 'Test CPU', node: 'v20.20.2' }, files: ['x.json'] })
const ctx = { image: (file, alt) => `![${alt}](${file})`, conditions: 'Test CPU', summaryChart: 'summary-x' }
const costs = (lib, logs) => (logs === 0 ? 1 : lib === 'pino' ? 1.06 : 1.12)

describe('counted http tables (--measure instructions) on a page', () => {
  it('draw instructions per request, not requests per second, and no latency chart (no times were taken)', () => {
    const { blocks, charts } = httpSection.render(dataset(records({ factor: costs })), ctx)
    assert.deepEqual(charts.map((c) => c.file), ['http/console/1cpu/route-instructions.png'])
    const [chart] = charts
    assert.match(chart.config.options.plugins.title.text, /server instructions per request, per library/)
    const pino = chart.config.data.datasets.find((d) => d.label === 'pino')
    assert.ok(pino.data.every((v) => v > 1_500_000), 'the bars are instructions per request')
    assert.ok(pino.data[1] > pino.data[0] * 1.05, 'the 5-log bar shows the cost')
    const markdown = markdownBlocks(blocks)
    assert.match(markdown, /1 connection, pipelining 1, at most 100 requests\/s in all/)
    assert.match(markdown, /_vs none_ is the change in the server's instructions per request/)
    assert.doesNotMatch(markdown, /latency percentiles/)
    // V8's compilers, counted apart, are shown beside the count and never compared.
    assert.match(markdown, /\| V8 compilers\/request \|/)
    assert.match(markdown, /\| +380,000 \| valgrind \|/)
  })

  it('a fixed-rate timed table draws the server\'s CPU µs per request', () => {
    const timed = records({ factor: costs }).map((r) => ({
      ...r,
      measure: undefined,
      instructionsMethod: undefined,
      instructionsPerRequest: undefined,
      connections: 10,
      serverCpuUsPerRequest: r.instructionsPerRequest / 3000,
      reqPerSec: { mean: 100, stddev: 1, min: 99, max: 101, p1: 99, p2_5: 99, p50: 100, p97_5: 101 },
      bytesPerSec: { mean: 20000, stddev: 100, min: 0, max: 0, p1: 0, p2_5: 0, p50: 0, p97_5: 0 },
      latencyMs: { p2_5: 1, p50: 2, p97_5: 8, p99: 9, mean: 2.5, stddev: 1, min: 0, max: 30 }
    }))
    const { charts } = httpSection.render(dataset(timed), ctx)
    assert.equal(charts[0].file, 'http/console/1cpu/route-cpu.png')
    assert.match(charts[0].config.options.plugins.title.text, /server CPU µs per request/)
    assert.ok(charts.slice(1).every((c) => /latency/.test(c.file)), 'timed cells keep their latency charts')
  })

  it('the Summary says what logging costs per request where the control reads same, with the interval and verdict', () => {
    const [sentence] = countedSentences({ runs: records({ factor: costs }) })
    assert.match(sentence, /^The server's instructions per request against no logging \(Console, 1 server worker, 100 requests\/s, instructions counted\): the control \(0 logs per request\) reads same \(pino [−+±]0\.\d% \[.*\] same, winston .* same\); logging costs pino at 5 × 20 characters \+6\.0% \[\+5\.\d%, \+6\.\d%\] slower, winston at 5 × 20 characters \+1[12]\.\d% \[.*\] slower\.$/)
    // A page of counted tables alone still opens with its Summary.
    const markdown = markdownBlocks(summarySection(dataset(records({ factor: costs })), ctx).blocks)
    assert.match(markdown, /^## Summary\n\n- The server's instructions per request/)
  })

  it('judges instructions per request with their own ±3%: a step of 1.3%, as a counted server\'s runs make, reads same, 6% slower', () => {
    const summary = summarizeHttp(records({ factor: (lib, logs) => (logs === 0 ? (lib === 'pino' ? 1.013 : 1) : costs(lib, logs)) }))
    const entry = (lib, logs) => summary.find((s) => s.lib === lib && s.logsPerRequest === logs)
    assert.equal(entry('pino', 0).instructionsPerRequestVsBaseline.verdict, 'same')
    assert.equal(entry('pino', 5).instructionsPerRequestVsBaseline.verdict, 'slower')
    // Per event the threshold stays ±1%: the same 1.3% there is no `same`.
    assert.ok(entry('pino', 0).instructionsPerRequestVsBaseline.ciLow > 1.01, 'the step is beyond ±1%')
  })

  it('publishes no cost where the control does not read same, or has too few runs to tell', () => {
    const noisy = countedSentences({ runs: records({ factor: (lib, logs) => (logs === 0 && lib === 'winston' ? 1.06 : costs(lib, logs)) }) })
    assert.match(noisy[0], /the control \(0 logs per request\) did not read same for every library \(.*winston \+[56]\.\d%.*\), so its differences are not findings\.$/)
    assert.doesNotMatch(noisy[0], /logging costs/)
    // Nor is a counted control's difference called the machine's noise: a count does not follow its speed.
    const page = markdownBlocks(httpSection.render(dataset(records({ factor: (lib, logs) => (logs === 0 && lib === 'winston' ? 1.06 : costs(lib, logs)) })), ctx).blocks)
    assert.match(page, /a count does not follow the machine's speed/)
    assert.doesNotMatch(page, /noise in this session/)
    const glance = markdownBlocks(httpGlanceSection.render(dataset(records({ factor: (lib, logs) => (logs === 0 && lib === 'winston' ? 1.06 : costs(lib, logs)) }))).blocks)
    assert.match(glance, /\*\*The control reads a difference\.\*\* winston at 20 chars \(\+[56]\.\d%/)
    assert.match(glance, /after 1 s warm-up, 1 connection\. /)
    assert.doesNotMatch(glance, /Too noisy/)
    const few = countedSentences({ runs: records({ runs: 3, factor: costs }) })
    assert.match(few[0], /had too few runs to tell libraries apart/)
  })
})
