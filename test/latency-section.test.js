import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { kneeAcross, kneesOf, kneeText, latencyLead, latencySection, overloadAcross, overloadOf, pacedEntries, rateChart, rssChart } from '../src/report/run/latency-section.js'
import { scorecardBlocks } from '../src/report/scorecard.js'
import { closingAnswer, renderAnswer } from '../src/report/answer.js'
import { loadResults } from '../src/results/read.js'
import { markdownBlocks } from '../src/draw/table.js'
import { ROOT, runCli, tmpDir } from './helpers.js'

// Made by short runs (`log-bench run --scenario` of two groups: pino, raw:each and noop paced at
// 2,000 and 20,000 events/s on console and file, 1,000 events, 2 runs; pino and raw:each on the
// console behind a reader stalled 500 ms, 5,000 events, 1 run), on a busy machine: the figures are
// not for a page, only the shape of the record. The time series of the paced runs are emptied.
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'latency', 'latency.json')
const ctx = { image: (file, alt) => `![${alt}](${file})`, conditions: 'test machine' }

test('the latency section gives the knee table, the overload table and a chart per transport from paced and stalled runs', () => {
  const dataset = loadResults([FIXTURE])
  const { blocks, charts } = latencySection.render(dataset, ctx)
  const page = markdownBlocks(blocks)
  assert.match(page, /^## What does a log call cost a latency-sensitive service\?$/m)
  assert.match(page, /### The knee: the highest rate each logger sustains[\s\S]*\| Library +\| +Console \| +Filesystem \|/)
  for (const lib of ['pino', 'raw:each', 'noop']) assert.match(page, new RegExp(`^\\| ${lib} +\\|.*events/s.*\\|.*events/s`, 'm'), `${lib} has no knee on both transports`)
  assert.match(page, /### When the destination cannot keep up[\s\S]*\| pino +\| +Console \| +stalled 500 ms \| +tight loop, 5,000 events of 13 B \|/)
  assert.match(page, /\| raw:each +\| +Console \| +stalled 500 ms \|[^\n]*\| +blocks \(no control\) +\|/, 'raw:each writes synchronously: its calls wait for the reader')
  assert.deepEqual(charts.map((c) => c.file).sort(), ['console/latency-by-rate.png', 'console/stall-rss.png', 'file/latency-by-rate.png'])
  for (const chart of charts) assert.ok(page.includes(`](${chart.file})`), `${chart.file} is not on the page`)
})

test('the latency chart draws response p99, p99.9 and delivery p99 against the rate, a line per library and figure, on log scales', () => {
  const dataset = loadResults([FIXTURE])
  const entries = dataset.summary.filter((s) => s.rate != null && s.transport === 'file')
  const { config } = rateChart('file', entries, 'test machine')
  assert.equal(config.options.scales.x.type, 'logarithmic')
  assert.equal(config.options.scales.y.type, 'logarithmic')
  const labels = config.data.datasets.map((d) => d.label)
  for (const lib of ['pino', 'raw:each', 'noop']) {
    for (const figure of ['response p99', 'response p99.9', 'delivery p99']) {
      if (lib === 'noop' && figure === 'delivery p99') continue
      assert.ok(labels.includes(`${lib} ${figure}`), `no line ${lib} ${figure}`)
    }
  }
  assert.ok(!labels.includes('noop delivery p99'), 'noop sends nothing: no delivery line')
  const pino = config.data.datasets.find((d) => d.label === 'pino response p99')
  assert.deepEqual(pino.data.map((p) => p.x), [2000, 20000])
  const p99 = entries.find((s) => s.lib === 'pino' && s.variant === 'default' && s.rate === 2000).responseP99Ns.median
  assert.equal(pino.data[0].y, p99 / 1e6)
  assert.ok(config.data.datasets.every((d) => d.data.every((p) => p.y > 0)), 'a logarithmic axis has no zero')
})

test('a knee in words: below the lowest rate, the highest tried, and a knee that lost events', () => {
  assert.equal(kneeText({ knee: null, tried: [{ rate: 1000 }], stop: { rate: 1000, responseP99Ns: 2.5e6, calls: 20_000, state: 'exceeded' } }), 'below 1,000 events/s (p99 2.5 ms)')
  assert.equal(kneeText({ knee: { rate: 5000, responseP99Ns: 4.2e5, calls: 20_000, keptEvery: true }, tried: [{ rate: 5000 }], stop: null }), '5,000 events/s, the highest tried (p99 0.420 ms), every event kept')
  assert.equal(kneeText({ knee: { rate: 1000, responseP99Ns: 9e5, calls: 20_000, keptEvery: false }, tried: [{ rate: 1000 }, { rate: 2000 }], stop: { rate: 2000, state: 'exceeded' } }), '1,000 events/s (p99 0.900 ms), lost events')
  assert.equal(kneeText({ knee: { rate: 1000, responseP99Ns: 1e4, calls: 20_000, keptEvery: null }, tried: [{ rate: 1000 }, { rate: 2000 }], stop: { rate: 2000, state: 'exceeded' } }), '1,000 events/s (p99 0.010 ms)')
})

const MIB = 1024 * 1024
// A run of one cell behind a reader stalled 1 s (or its control: stallMs null), with its figures.
const overloadRun = (kinds, overload = {}, { stallMs = 1000, run = 1, ...rest } = {}) => ({
  type: 'run',
  lib: 'pino',
  variant: 'default',
  transport: 'console',
  cpus: 1,
  events: 20000,
  run,
  ok: true,
  ...(stallMs == null ? {} : { receiverStallMs: stallMs }),
  callGapMaxMs: 5,
  memoryRiseBytes: 0,
  unblockedMs: 100,
  overload: stallMs == null
    ? null
    : { kinds, judged: true, blockedMs: 10, lostEvents: 0, growthBytes: 0, growthOf: 'rss', loggedBytes: 40 * MIB, bufferBytes: 64 * 1024, ...overload },
  ...rest
})

test('overload over a cell\'s runs: the medians judged against the control, the runs\' own readings where they differ', () => {
  const grows = (bytes, run) => overloadRun(['grows'], { growthBytes: bytes }, { run })
  const o = overloadOf([grows(40 * MIB, 1), grows(60 * MIB, 2)])
  assert.equal(o.kinds, 'grows')
  assert.equal(o.controlled, false)
  // MiB over the stall beside MiB per second of the stall (1 s): not per second of the loop.
  assert.deepEqual([o.growthMiB, o.growthMiBPerSec], [50, 50])
  const mixed = overloadOf([overloadRun(['blocks', 'drops'], { blockedMs: 900, lostEvents: 5 }), overloadRun([], {}, { run: 2 }), overloadRun([], {}, { run: 3 })])
  assert.equal(mixed.perRun, 'blocks + drops in 1 of 3, coped in 2 of 3')
  assert.equal(overloadOf([{ ok: false, overload: null }]), null)
})

test('the runs\' readings beside a cell\'s verdict are judged against the same control, never without it', () => {
  // Each run's own kinds (judged without the control) say blocks and grows; against the control,
  // whose own gaps are as long and which holds as much, neither run did.
  const slowedRuns = [1, 2].map((run) => overloadRun(['blocks', 'grows'], { blockedMs: 12, growthBytes: 99 * MIB }, { stallMs: 1, run }))
  const control = [overloadRun([], {}, { stallMs: null, callGapMaxMs: 13, memoryRiseBytes: 91 * MIB })]
  const o = overloadOf(slowedRuns, control)
  assert.equal(o.kinds, 'coped')
  assert.equal(o.perRun, null)
  // Runs that differ against the control are counted by that reading.
  const mixed = overloadOf([...slowedRuns, overloadRun(['blocks'], { blockedMs: 900 }, { stallMs: 1, run: 3 })], control)
  assert.equal(mixed.perRun, 'coped in 2 of 3, blocks in 1 of 3')
})

test('grows only by 32 MiB more than the control; blocks only for a wait long against the stall and the control\'s own gaps', () => {
  const slowedRuns = [overloadRun(['grows'], { growthBytes: 99 * MIB })]
  assert.equal(overloadOf(slowedRuns, [overloadRun([], {}, { stallMs: null, memoryRiseBytes: 91 * MIB })]).kinds, 'coped')
  assert.equal(overloadOf(slowedRuns, [overloadRun([], {}, { stallMs: null, memoryRiseBytes: 60 * MIB })]).kinds, 'grows')
  // A 1 ms stall: gaps of 12 ms are the logger's own (JIT, GC) where the control has them too.
  const short = [overloadRun(['blocks'], { blockedMs: 12 }, { stallMs: 1 })]
  assert.equal(overloadOf(short, [overloadRun([], {}, { stallMs: null, callGapMaxMs: 13 })]).kinds, 'coped')
  assert.equal(overloadOf([overloadRun(['blocks'], { blockedMs: 1900 })], [overloadRun([], {}, { stallMs: null, callGapMaxMs: 13 })]).kinds, 'blocks')
})

test('drops gives what the control lost beside it', () => {
  const lossy = [overloadRun(['drops'], { lostEvents: 500 })]
  const control = [overloadRun([], {}, { stallMs: null, sent: 20000, received: 19501 })]
  const dropped = overloadOf(lossy, control)
  assert.deepEqual([dropped.kinds, dropped.lostEvents, dropped.controlLostEvents], ['drops', 500, 499])
  assert.match(overloadAcross([...lossy, ...control], 'pino'), /^Console: drops \(500 lost, 499 read at full speed\)$/)
  // As many lost read at full speed: not the slowed reader's doing, and not "coped" either.
  const asMany = [overloadRun([], {}, { stallMs: null, sent: 20000, received: 19500 })]
  assert.equal(overloadOf(lossy, asMany).kinds, 'loses as many at full speed')
  assert.match(overloadAcross([...lossy, ...asMany], 'pino'), /^Console: loses as many at full speed \(500 lost, 500 read at full speed\)$/)
})

test('coped only where each worker logged several times the buffers during the stall; otherwise too little logged to tell, with the bytes', () => {
  const little = overloadOf([overloadRun([], { loggedBytes: 200 * 1024, bufferBytes: 64 * 1024 })])
  assert.equal(little.kinds, 'too little logged to tell')
  assert.match(overloadAcross([{ ...overloadRun([], { loggedBytes: 200 * 1024, bufferBytes: 64 * 1024 }) }], 'pino'), /^Console: too little logged to tell \(200 KiB logged against 64 KiB of buffers\)$/)
  // 4 times the buffers, but a logger that held it all would hold less than a growth can tell.
  assert.equal(overloadOf([overloadRun([], { loggedBytes: 256 * 1024, bufferBytes: 64 * 1024 })]).kinds, 'too little logged to tell')
  assert.equal(overloadOf([overloadRun([], { loggedBytes: 64 * 1024 + 32 * MIB, bufferBytes: 64 * 1024 })]).kinds, 'coped')
  // TCP's 36 MiB: 32 MiB more is not enough until it is 4 times them.
  assert.equal(overloadOf([overloadRun([], { loggedBytes: 100 * MIB, bufferBytes: 36 * MIB })]).kinds, 'too little logged to tell')
  assert.equal(overloadOf([overloadRun([], { loggedBytes: 144 * MIB, bufferBytes: 36 * MIB })]).kinds, 'coped')
})

test('a run whose blocking could not be judged is never worded coped', () => {
  assert.equal(overloadOf([overloadRun([], { judged: false, blockedMs: null })]).kinds, 'not judged')
})

test('the stall chart draws the RSS per worker, what growth is judged on, of the median run of each library', () => {
  const stalled = (lib, run, blockedMs, rss) => overloadRun([], { blockedMs }, {
    lib,
    run,
    cpus: 2,
    timeseries: [0, 100, 200].map((tMs) => ({ tMs, rssBytes: rss, cpuPct: 1, heapBytes: 0 }))
  })
  const chart = rssChart('console', [stalled('pino', 1, 5, 2 * MIB), stalled('pino', 2, 50, 4 * MIB), stalled('pino', 3, 500, 6 * MIB), stalled('raw', 1, 900, 0)], 'test machine')
  assert.deepEqual(chart.config.data.datasets.map((d) => d.label), ['pino'])
  assert.deepEqual(chart.config.data.datasets[0].data.map((p) => p.y), [2, 2, 2], 'the run with the median blocked time, per worker')
  assert.match(chart.config.options.scales.y.title.text, /RSS/)
})

// A page of paced stalls alone (scenarios/overload.json): each stalled cell paced at 20,000/s beside
// its control, paced alike and read at full speed.
function pacedStallDataset () {
  const timeseries = (mib) => [0, 1000, 2000, 3000, 4000, 5000]
    .map((tMs) => ({ tMs, rssBytes: mib * MIB, cpuPct: 1, heapBytes: 0 }))
  const paced = { rate: 20000, events: 100000, size: 4096 }
  const runs = [
    overloadRun(['grows'], { growthBytes: 200 * MIB, loggedBytes: 235 * MIB }, { ...paced, stallMs: 3000, stallEndMs: 3500, timeseries: timeseries(250) }),
    overloadRun([], {}, { ...paced, stallMs: null, memoryRiseBytes: 4 * MIB, timeseries: timeseries(60) }),
    overloadRun(['blocks'], { blockedMs: 2900, loggedBytes: 235 * MIB }, { ...paced, lib: 'raw', variant: 'each', stallMs: 3000, stallEndMs: 3600, timeseries: timeseries(50) }),
    overloadRun([], {}, { ...paced, lib: 'raw', variant: 'each', stallMs: null, callGapMaxMs: 3, timeseries: timeseries(50) })
  ]
  return { runs, summary: runs.map(({ timeseries, overload, ...entry }) => entry) }
}

test('a page of paced stalls is led by what each logger did, gives no knee from its controls, and marks the stall on its RSS chart', () => {
  const dataset = pacedStallDataset()
  assert.deepEqual(pacedEntries(dataset.summary), [], 'a slowed cell\'s control is its verdict\'s, not a rate of its own')
  const lead = latencyLead(dataset, 'test machine')
  assert.deepEqual(lead.sentences, ['Console, the reader stalled 3,000 ms, the calls paced at 20,000 events/s: pino grows (200.0 MiB, 66.7 MiB/s of the stall); raw:each blocks (2,900 ms blocked).'])
  assert.equal(lead.charts.length, 1)
  assert.equal(lead.charts[0].file, 'summary-stall-rss.png')
  const stall = lead.charts[0].config.data.datasets.find((d) => d.label === 'stall')
  // From the medians of the runs' stall start (3,500 − 3,000 and 3,600 − 3,000 ms) to their end,
  // up to the highest line.
  assert.deepEqual(stall.data, [{ x: 0.55, y: 0 }, { x: 0.55, y: 250 }, { x: 3.55, y: 250 }, { x: 3.55, y: 0 }])
  const { blocks, charts } = latencySection.render(dataset, ctx)
  const page = markdownBlocks(blocks)
  assert.doesNotMatch(page, /### The knee/)
  assert.match(page, /Paced cells log at a fixed rate/)
  assert.match(page, /^\| pino +\| +Console \| +stalled 3,000 ms \| +paced at 20,000\/s, 100,000 events of 4,096 B \| +grows +\|/m)
  // The figures behind "blocks": the longest batch beside the control's.
  assert.match(page, /^\| raw:each +\|[^\n]*\| +blocks +\| +2,900 \| +3 \|/m)
  assert.deepEqual(charts.map((c) => c.file), ['console/stall-rss.png'])
})

test('a tight loop\'s "too little logged to tell" links to the verdicts of paced logging under a stall, where report --pages gives the link', () => {
  const dataset = loadResults([FIXTURE])
  const link = '../docs/costs.md#paced-logging-under-a-stall'
  const page = markdownBlocks(latencySection.render(dataset, { ...ctx, pacedOverload: link }).blocks)
  assert.match(page, new RegExp(`Too little logged to tell: pino \\(Console\\)\\.[^\\n]*\\[paced logging under a stall\\]\\(${link.replace(/[.#]/g, '\\$&')}\\)`))
  assert.doesNotMatch(markdownBlocks(latencySection.render(dataset, ctx).blocks), /paced logging under a stall/)
})

test('the latency section says nothing where no run was paced or judged for overload', () => {
  const run = { type: 'run', lib: 'pino', variant: 'default', transport: 'file', cpus: 1, events: 100, run: 1, ok: true, overload: null }
  const rendered = latencySection.render({ runs: [run], summary: [{ ...run, rate: null }] }, ctx)
  assert.deepEqual(rendered, { blocks: [], charts: [] })
})

test('the scorecard gives each library\'s knee and what it did under a stalled reader, linking to the latency page', () => {
  const dataset = loadResults([FIXTURE])
  const seed = loadResults([path.join(ROOT, 'test', 'fixtures', 'pages', 'seed.json')])
  const blocks = scorecardBlocks([{ dataset: seed, href: 'README.md', label: 'Seed' }, { dataset, href: 'latency.md', label: 'Latency' }])
  // The Scorecard's themed tables: the knee and the stall in the Latency one.
  const table = blocks.find((b) => Array.isArray(b.columns) && b.columns.some((c) => /^Knee/.test(c.title)))
  assert.ok(table, 'no table with a knee column')
  assert.ok(blocks.some((b) => typeof b === 'string' && /^\*\*Latency\.\*\*/.test(b)), 'the Latency table is introduced')
  const titles = table.columns.map((c) => c.title)
  const knee = titles.indexOf('Knee (response p99 ≤ 1 ms)')
  const stall = titles.indexOf('Under a stalled reader')
  assert.ok(knee > 0 && stall > 0, `no knee or stall column in ${titles.join(', ')}`)
  const pino = table.rows.find((r) => r[0] === 'pino')
  // Each themed table names above it where its columns come from.
  const intro = blocks.find((b) => typeof b === 'string' && /^\*\*Latency\.\*\*/.test(b))
  assert.match(intro, /\(latency\.md#the-knee-the-highest-rate-each-logger-sustains\)/)
  assert.match(intro, /\(latency\.md#when-the-destination-cannot-keep-up\)/)
  // One line per transport, so that the table keeps to a page's width.
  assert.equal(pino[knee].lines.join('; '), kneeAcross(dataset.summary, 'pino'))
  assert.match(pino[knee].lines[0], /^Console: .*events\/s/)
  assert.match(pino[knee].lines[1], /^Filesystem: .*events\/s/)
  assert.equal(pino[stall].lines.join('; '), overloadAcross(dataset.runs, 'pino'))
  assert.match(pino[stall].lines[0], /^Console: /)
  const other = table.rows.find((r) => r[0] !== 'pino' && r[0] !== 'raw:each')
  if (other) assert.equal(other[knee], '—', 'a library the latency page did not pace has no knee')
  const without = scorecardBlocks([{ dataset: seed, href: 'README.md', label: 'Seed' }, { dataset: seed, href: 'other.md', label: 'Other' }])
  const withoutTitles = without.filter((b) => Array.isArray(b.columns)).flatMap((b) => b.columns.map((c) => c.title))
  assert.ok(!withoutTitles.some((t) => /Knee|stalled/.test(t)), 'an index without a latency page keeps its columns')
})

test('report draws the latency section\'s charts as PNG and inline SVG', async () => {
  const dir = tmpDir()
  const out = path.join(dir, 'latency.md')
  const result = await runCli(['report', FIXTURE, '--out', out, '--images', path.join(dir, 'images'), '--format', 'md,html'])
  assert.equal(result.code, 0, result.stderr)
  const page = fs.readFileSync(out, 'utf8')
  assert.match(page, /## What does a log call cost a latency-sensitive service\?/)
  // Led by the knees, not by the paced runs' done times.
  assert.match(page, /^## Summary\n\n- Console: the highest rate \(events\/s\) with steady-state response p99 at most 1 ms: [^\n]+\n- Filesystem: [^\n]+\n- Console, the reader stalled: pino [^\n]+; raw:each blocks \([\d,]+ ms blocked\)\.\n\n!\[Headline: Console, [^\]]+\]\(images\/summary-latency\.png\)/m)
  for (const file of ['summary-latency.png', 'console/latency-by-rate.png', 'file/latency-by-rate.png', 'console/stall-rss.png']) {
    assert.ok(fs.statSync(path.join(dir, 'images', file)).size > 1000, `${file} not drawn`)
  }
  const html = fs.readFileSync(path.join(dir, 'latency.html'), 'utf8')
  assert.match(html, /Console: latency against the rate/)
})

test('the closing answer ends with each library\'s knee per transport where the runs were paced at several rates', () => {
  const dataset = loadResults([FIXTURE])
  const answer = closingAnswer(dataset)
  assert.deepEqual([...new Set(answer.knees.map((k) => k.transport))].sort(), ['console', 'file'])
  for (const k of answer.knees) {
    assert.deepEqual(k.rates, [2000, 20000], `${k.library} on ${k.transport}: the rates it was paced at`)
    assert.equal(k.text, kneeText(loadKnee(dataset, k.transport, k.library)))
  }
  // Libraries first, highest knee first; the baselines (raw:each, noop) last.
  const consoleLibs = answer.knees.filter((k) => k.transport === 'console').map((k) => k.library)
  assert.equal(consoleLibs[0], 'pino')
  assert.deepEqual(consoleLibs.slice(1).sort(), ['noop', 'raw:each'])
  const text = renderAnswer(answer, { width: 100 })
  assert.match(text, /^Console, knees: the highest rate each sustained with steady-state response p99 at most 1 ms/m)
  assert.match(text, /^ {2}pino +(\d[\d,]* events\/s|below 2,000 events\/s)/m)
  // A tight-loop run has no knee to give.
  const tight = { ...dataset, summary: dataset.summary.map((s) => ({ ...s, rate: null })) }
  assert.deepEqual(closingAnswer(tight).knees, [])
})

function loadKnee (dataset, transport, lib) { return kneesOf(dataset.summary).get(transport).get(lib) }

test('the headline chart is small panels of at most 6 lines each, one per library, beside the bound', () => {
  const libs = Array.from({ length: 9 }, (_, i) => `lib${i}`)
  const entry = (lib, rate) => ({ type: 'run', lib, variant: 'default', transport: 'file', cpus: 1, events: 20000, rate, ending: 'close', measure: 'time', runs: 1, okRuns: 1, responseP99Ns: { median: 1e5, min: 1e5, max: 1e5 } })
  const summary = libs.flatMap((lib) => [entry(lib, 1000), entry(lib, 10000)])
  const { charts } = latencyLead({ runs: [], summary }, 'test machine')
  assert.equal(charts.length, 2)
  for (const chart of charts) {
    const lines = chart.config.data.datasets.filter((d) => !d.label.startsWith('bound'))
    assert.ok(lines.length <= 6, lines.map((d) => d.label).join(', '))
  }
  assert.deepEqual(charts.flatMap((c) => c.config.data.datasets.map((d) => d.label)).filter((l) => !l.startsWith('bound')), libs.map((lib) => `${lib} response p99`))
})

test('a stalled cell whose runs failed stays on the page with the reason: in the table, the Summary and the scorecard', () => {
  const crashed = (run) => ({ ...overloadRun([], {}, { run, transport: 'tcp', lib: 'winston' }), ok: false, overload: null, error: 'worker 0 failed while running (uncaught error): Cannot call write after a stream was destroyed' })
  const judged = [overloadRun(['blocks'], { blockedMs: 900 }, { run: 1 }), overloadRun(['blocks'], { blockedMs: 950 }, { run: 2 })]
  const control = [overloadRun([], {}, { stallMs: null, lib: 'winston', transport: 'tcp' }), overloadRun([], {}, { stallMs: null })]
  // Paced, as scenarios/overload.json's cells are: a page of them is led by their verdicts.
  const runs = [...judged, crashed(1), crashed(2), ...control].map((r) => ({ ...r, rate: 10000 }))
  assert.equal(overloadAcross(runs, 'winston'), 'Syslog TCP: failed in 2 of 2 runs')
  assert.match(overloadAcross(runs, 'pino'), /^Console: blocks/)
  const page = markdownBlocks(latencySection.render({ runs, summary: [] }, ctx).blocks)
  assert.match(page, /\| winston +\| Syslog TCP \|[^\n]*\| failed in 2 of 2 runs: worker 0 failed while running \(uncaught error\): Cannot call write after a stream was destroyed \|/)
  const lead = latencyLead({ runs, summary: [] }, 'test machine')
  assert.ok(lead.sentences.some((text) => /winston failed in 2 of 2 runs: worker 0 failed/.test(text)), lead.sentences.join('\n'))
})
