import { axisTitle, chartFile, titles } from '../../draw/charts.js'
import { palette } from '../../draw/colours.js'
import { codeSpan, figureColumns, strong } from '../../draw/table.js'
import { formatCount, formatNumber, libraryName, transportTitle, unique } from '../../draw/labels.js'
import { dimensionValue, ofType } from '../../results/model.js'
import { DEFAULT_ENDING } from '../../engine/endings.js'
import { median } from '../../stats.js'
import { KNEE_BOUND_NS, kneeOf } from '../../results/judge/knee.js'
import { escapeMarkdown } from '../../results/judge/anomalies.js'
import { slowed } from './durability-section.js'

// The latency page's section (docs/costs.md, "Paced logging", "The knee", "Overload"): what a log
// call costs a latency-sensitive service. Per transport each library's knee (the highest paced rate
// at which its response p99 stays under the bound, src/results/judge/knee.js) and whether it kept every event
// there, the latency against the rate as a chart, and under a stalled or slowed receiving end what
// each logger did (its overload kinds and their figures) with its heap over time. Shown only where
// the results hold paced cells or runs judged for overload; every other page is unchanged.

const MIB = 1024 * 1024
// What the chart draws per library: a line style per figure, the library's colour for all three.
const FIGURES = [
  { name: 'response p99', pick: (s) => nsToMs(s.responseP99Ns?.median), dash: [] },
  { name: 'response p99.9', pick: (s) => nsToMs(s.responseP999Ns?.median), dash: [8, 4] },
  { name: 'delivery p99', pick: (s) => s.deliveryP99Ms?.median ?? null, dash: [2, 3] }
]
const nsToMs = (ns) => (ns == null ? null : ns / 1e6)

// Paced summary entries measured as a service would feel them: timed, not profiled, ended by
// close(), read at full speed.
export function pacedEntries (summary) {
  return ofType(summary, 'run').filter((s) => s.rate != null &&
    !slowed(s) &&
    dimensionValue(s, 'measure') !== 'instructions' &&
    !s.profile &&
    dimensionValue(s, 'ending') === DEFAULT_ENDING)
}

// Runs judged for overload (a slowed receiving end, ended by close(), something sent).
export function overloadRuns (runs) {
  return ofType(runs, 'run').filter((r) => slowed(r) && r.overload != null)
}

// Per transport, per library: kneeOf over its paced entries. Map transport → Map lib → result.
export function kneesOf (summary) {
  const entries = pacedEntries(summary)
  const out = new Map()
  for (const transport of unique(entries.map((s) => s.transport))) {
    const ofTransport = entries.filter((s) => s.transport === transport)
    out.set(transport, new Map(unique(ofTransport.map(libraryName)).map((lib) =>
      [lib, kneeOf(ofTransport.filter((s) => libraryName(s) === lib))])))
  }
  return out
}

// A knee in words: "20,000 events/s (p99 0.41 ms), every event kept".
export function kneeText ({ knee, tried }) {
  if (!tried.length) return null
  if (!knee) return `below ${formatCount(tried[0].rate)} events/s (p99 ${msText(tried[0].responseP99Ns)})`
  const highest = tried.at(-1).rate === knee.rate ? ', the highest tried' : ''
  const kept = knee.keptEvery === null ? '' : knee.keptEvery ? ', every event kept' : ', lost events'
  return `${formatCount(knee.rate)} events/s${highest} (p99 ${msText(knee.responseP99Ns)})${kept}`
}

const msText = (ns) => (ns == null ? 'not recorded' : `${formatNumber(ns / 1e6, ns < 1e6 ? 3 : 1)} ms`)

// The cells of the overload runs: one per transport, receiving end, pacing and library.
function overloadCells (runs) {
  const key = (r) => [r.transport, r.receiverStallMs, r.receiverRate, r.rate ?? null, r.events, r.cpus].join('|')
  const cells = new Map()
  for (const r of runs) {
    const k = `${key(r)}|${libraryName(r)}`
    if (!cells.has(k)) cells.set(k, [])
    cells.get(k).push(r)
  }
  return [...cells.values()]
}

// What the runs of one cell did: the kinds (with how many runs showed each combination where they
// differ) and the medians of their figures.
export function overloadOf (cellRuns) {
  const judged = cellRuns.filter((r) => r.ok && r.overload)
  if (!judged.length) return null
  const words = judged.map((r) => (r.overload.kinds.length ? r.overload.kinds.join(' + ') : 'coped'))
  const counts = unique(words).map((w) => ({ w, n: words.filter((x) => x === w).length }))
  const figure = (pick) => {
    const values = judged.map((r) => pick(r.overload)).filter((v) => v != null)
    return values.length ? median(values) : null
  }
  return {
    kinds: counts.length === 1 ? counts[0].w : counts.map(({ w, n }) => `${w} (${n} of ${judged.length} runs)`).join(', '),
    blockedMs: figure((o) => o.blockedMs),
    lostEvents: figure((o) => o.lostEvents),
    growthMiBPerSec: figure((o) => o.growthMiBPerSec),
    growthOf: unique(judged.map((r) => r.overload.growthOf).filter(Boolean)).join(', ') || null,
    runs: judged.length
  }
}

// One library under a stalled reader over every transport measured, for the scorecard:
// "Console: grows 41.2 MiB/s; Syslog TCP: blocks 1,980 ms"; null where it was not measured.
export function overloadAcross (runs, lib) {
  const stalled = overloadRuns(runs).filter((r) => r.receiverStallMs != null && libraryName(r) === lib)
  const parts = []
  for (const transport of unique(stalled.map((r) => r.transport))) {
    const o = overloadOf(stalled.filter((r) => r.transport === transport))
    if (o) parts.push(`${transportTitle(transport)}: ${o.kinds}${figuresText(o)}`)
  }
  return parts.length ? parts.join('; ') : null
}

function figuresText (o) {
  const parts = []
  if (o.kinds.includes('blocks') && o.blockedMs != null) parts.push(`${formatCount(Math.round(o.blockedMs))} ms blocked`)
  if (o.kinds.includes('drops') && o.lostEvents != null) parts.push(`${formatCount(Math.round(o.lostEvents))} lost`)
  if (o.kinds.includes('grows') && o.growthMiBPerSec != null) parts.push(`${formatNumber(o.growthMiBPerSec, 1)} MiB/s`)
  return parts.length ? ` (${parts.join(', ')})` : ''
}

// One library's knee over every transport measured, for the scorecard; null where it was not paced.
export function kneeAcross (summary, lib) {
  const parts = []
  for (const [transport, libs] of kneesOf(summary)) {
    const result = libs.get(lib)
    const text = result && kneeText(result)
    if (text) parts.push(`${transportTitle(transport)}: ${text}`)
  }
  return parts.length ? parts.join('; ') : null
}

export const latencySection = {
  name: 'latency',
  types: ['run'],
  placement: 'top',
  // What its figures mean is said in its own paragraphs, not under "How to read the numbers": that
  // part is shown on every page with runs.
  // A page of paced runs is led by the knees: its done times are the rate's, not the point.
  lead (dataset, ctx) {
    const lead = latencyLead(dataset, ctx.conditions)
    if (!lead) return null
    return {
      blocks: [{ heading: 'Summary' }, lead.sentences.map((text) => `- ${escapeMarkdown(text)}`).join('\n'), ctx.image(lead.chart.file, lead.alt)],
      charts: [lead.chart]
    }
  },
  render (dataset, ctx) {
    const summary = ofType(dataset.summary, 'run')
    const paced = pacedEntries(summary)
    const overloaded = overloadRuns(dataset.runs)
    if (!paced.length && !overloaded.length) return { blocks: [], charts: [] }
    const blocks = [{ heading: 'What does a log call cost a latency-sensitive service?' }]
    const charts = []
    if (paced.length) {
      const part = kneeBlocks(paced, summary, ctx)
      blocks.push(...part.blocks)
      charts.push(...part.charts)
    }
    if (overloaded.length) {
      const part = overloadBlocks(overloaded, ctx)
      blocks.push(...part.blocks)
      charts.push(...part.charts)
    }
    return { blocks, charts }
  }
}

function kneeBlocks (paced, summary, ctx) {
  const knees = kneesOf(summary)
  const transports = [...knees.keys()]
  const libs = unique(paced.map(libraryName))
  const rates = unique(paced.map((s) => s.rate)).sort((a, b) => a - b)
  const blocks = [{ heading: 'The knee: the highest rate each logger sustains', level: 3 }]
  blocks.push(`Each worker logged its events paced at a fixed rate (${rates.map(formatCount).join(', ')} events/s), each event when it was due, the event loop turning between them as in a service. _Response time_ is from when a call was due (its intended time) to its return, so a call that waited behind a slow one counts the wait; _delivery_ from the intended time to the event's arrival at the receiving end. A rate is sustained where every run finished and the median over the runs of the response time's p99 is at most ${formatNumber(KNEE_BOUND_NS / 1e6, 0)} ms; the knee is the highest rate sustained below the first that was not. The p99 is over every call of a run, the first ones too, while the code is still being compiled: in a run of a second or two that start can set it, so a knee is the rate sustained from a cold start (docs/costs.md, "The knee"), and one noisy median near the bound can set it a rate or two lower; the p99 at every rate is in the charts. ${codeSpan('noop')} at the same rate is the pacer's own floor, ${codeSpan('raw:each')} the plainest code that writes each line when it is logged.`)
  const rows = libs.map((lib) => [lib, ...transports.map((t) => {
    const result = knees.get(t).get(lib)
    if (!result) return '—'
    const text = kneeText(result) ?? '—'
    return result.knee?.keptEvery === false ? strong(text) : text
  })])
  blocks.push({ columns: figureColumns(['Library', ...transports.map(transportTitle)]), rows })
  const charts = []
  for (const transport of transports) {
    const chart = { file: chartFile(transport, 'latency-by-rate'), ...rateChart(transport, paced.filter((s) => s.transport === transport), ctx.conditions) }
    charts.push(chart)
    blocks.push(ctx.image(chart.file, `${transportTitle(transport)}: response p99, p99.9 and delivery p99 against the rate`))
  }
  return { blocks, charts }
}

// Latency against the rate for one transport: a line per library and figure, both axes logarithmic.
export function rateChart (transport, entries, conditions) {
  const libs = unique(entries.map(libraryName))
  const colours = palette(libs)
  const rates = unique(entries.map((s) => s.rate)).sort((a, b) => a - b)
  const positive = (v) => (v != null && v > 0 ? v : null)
  const datasets = libs.flatMap((lib) => FIGURES.map((f) => ({
    label: `${lib} ${f.name}`,
    data: entries.filter((s) => libraryName(s) === lib)
      .sort((a, b) => a.rate - b.rate)
      .map((s) => ({ x: s.rate, y: positive(f.pick(s)) }))
      .filter((p) => p.y != null),
    borderColor: colours.get(lib),
    backgroundColor: colours.get(lib),
    borderDash: f.dash,
    borderWidth: 2,
    pointRadius: 2
  }))).filter((d) => d.data.length)
  datasets.push({
    label: `bound ${formatNumber(KNEE_BOUND_NS / 1e6, 0)} ms`,
    data: [{ x: rates[0], y: KNEE_BOUND_NS / 1e6 }, { x: rates.at(-1), y: KNEE_BOUND_NS / 1e6 }],
    borderColor: '#888888',
    backgroundColor: '#888888',
    borderDash: [1, 4],
    borderWidth: 1,
    pointRadius: 0
  })
  return {
    width: 1100,
    height: 640,
    config: {
      type: 'line',
      data: { datasets },
      options: {
        plugins: titles(`${transportTitle(transport)}: latency against the rate`, ['solid: response p99 · dashed: response p99.9 · dotted: delivery p99 · median over the runs · lower is better', conditions]),
        scales: {
          x: { type: 'logarithmic', title: axisTitle('rate (events/s per worker)') },
          y: { type: 'logarithmic', title: axisTitle('latency (ms)') }
        }
      }
    }
  }
}

function overloadBlocks (runs, ctx) {
  const blocks = [{ heading: 'When the destination cannot keep up', level: 3 }]
  blocks.push(`The receiving end stopped reading (${codeSpan('--receiver-stall')}) or read slowly (${codeSpan('--receiver-rate')}); each run is named from its own figures: _blocks_ (the calls waited: the longest time the calling thread made no progress), _drops_ (events that never arrived, counted one by one), _grows_ (the heap's or the RSS's peak rose by at least 32 MiB above its value at the first call; per second of calls), _coped_ (none of them: what it wrote fitted the buffers between it and the reader). Figures are the medians over the runs; the thresholds and their reasons are in docs/costs.md, "Overload".`)
  const columns = figureColumns(['Library', 'Transport', 'Receiving end', 'Logging', 'What it did', 'Blocked ms', 'Events lost', 'Growth MiB/s'])
  const rows = []
  for (const cellRuns of overloadCells(runs)) {
    const first = cellRuns[0]
    const o = overloadOf(cellRuns)
    rows.push([
      libraryName(first),
      transportTitle(first.transport),
      first.receiverStallMs != null ? `stalled ${formatCount(first.receiverStallMs)} ms` : `read at ${formatCount(first.receiverRate)} B/s`,
      `${first.rate != null ? `paced at ${formatCount(first.rate)}/s` : 'tight loop'}, ${formatCount(first.events)} events`,
      o ? o.kinds : 'no run finished',
      o?.blockedMs == null ? '—' : formatCount(Math.round(o.blockedMs)),
      o?.lostEvents == null ? '—' : formatCount(Math.round(o.lostEvents)),
      o?.growthMiBPerSec == null ? '—' : `${formatNumber(o.growthMiBPerSec, 1)}${o.growthOf ? ` (${o.growthOf})` : ''}`
    ])
  }
  blocks.push({ columns, rows })
  const charts = []
  const stalled = runs.filter((r) => r.receiverStallMs != null)
  for (const transport of unique(stalled.map((r) => r.transport))) {
    const ofTransport = stalled.filter((r) => r.transport === transport)
    const chart = heapChart(transport, ofTransport, ctx.conditions)
    const shown = chart ? chart.config.data.datasets.map((d) => d.label) : []
    const unseen = unique(ofTransport.map(libraryName)).filter((lib) => !shown.includes(lib))
    if (chart) {
      charts.push(chart)
      blocks.push(ctx.image(chart.file, `${transportTitle(transport)}: heap over time under a stalled receiving end, per library`))
    }
    // A worker reports its heap only while its event loop is free: one whose calls held the loop
    // from the first to the last reported none until the end.
    if (unseen.length) blocks.push(`${transportTitle(transport)}: no heap over time for ${unseen.join(', ')}: a worker reports its heap only while its event loop is free, and these held it from the first call to the last (their RSS over time, read from outside the process, is in each run's \`timeseries\`).`)
  }
  return { blocks, charts }
}

// The run whose blocked time is the median of its cell's (the lower middle of an even count).
function medianRun (cellRuns) {
  const ok = cellRuns.filter((r) => r.ok && r.timeseries?.some((p) => p.heapBytes > 0))
    .sort((a, b) => (a.overload?.blockedMs ?? 0) - (b.overload?.blockedMs ?? 0) || a.run - b.run)
  return ok.length ? ok[Math.floor((ok.length - 1) / 2)] : null
}

// The workers' heap over time under the stall, one line per library: the record's timeseries, every
// 100 ms the last heap figure each worker reported (a worker reports while its event loop is free,
// so a call that blocks shows as a flat stretch). null where no run has a heap series.
export function heapChart (transport, stalled, conditions) {
  const series = []
  for (const lib of unique(stalled.map(libraryName))) {
    const run = medianRun(stalled.filter((r) => libraryName(r) === lib))
    if (run) series.push({ lib, run })
  }
  if (!series.length) return null
  const colours = palette(series.map((s) => s.lib))
  const stallMs = unique(stalled.map((r) => r.receiverStallMs))
  return {
    file: chartFile(transport, 'stall-heap'),
    width: 1000,
    height: 520,
    config: {
      type: 'line',
      data: {
        datasets: series.map(({ lib, run }) => ({
          label: lib,
          data: run.timeseries.filter((p) => p.heapBytes > 0).map((p) => ({ x: p.tMs / 1000, y: p.heapBytes / MIB })),
          borderColor: colours.get(lib),
          backgroundColor: colours.get(lib),
          borderWidth: 2,
          pointRadius: 0
        }))
      },
      options: {
        plugins: titles(`${transportTitle(transport)}: heap while the receiving end stalls ${stallMs.map((ms) => `${formatCount(ms)} ms`).join(', ')}`, ['all workers\' heap used, every 100 ms · the run with the median blocked time', conditions]),
        scales: {
          x: { type: 'linear', min: 0, title: axisTitle('time since start (s)') },
          y: { type: 'linear', beginAtZero: true, title: axisTitle('heap used (MiB, all workers)') }
        }
      }
    }
  }
}

// The Summary of a page with paced runs (markdown.js puts it first, as the durability page's kept
// sentences): per transport the knees, highest first, and under a stall what each logger did; its
// headline chart is the first transport's latency against the rate. null without paced cells (the
// page then keeps the Summary of its done times).
export function latencyLead (dataset, conditions) {
  const summary = ofType(dataset.summary, 'run')
  const paced = pacedEntries(summary)
  if (!paced.length) return null
  const sentences = []
  for (const [transport, libs] of kneesOf(summary)) {
    const held = [...libs].filter(([, r]) => r.knee).sort(([, a], [, b]) => b.knee.rate - a.knee.rate)
    const below = [...libs].filter(([, r]) => !r.knee && r.tried.length)
    const parts = held.map(([lib, r]) => `${lib} ${formatCount(r.knee.rate)}${r.knee.keptEvery === false ? ' (lost events)' : ''}`)
    if (below.length) parts.push(`below the lowest rate: ${below.map(([lib]) => lib).join(', ')}`)
    sentences.push(`${transportTitle(transport)}: the highest rate (events/s) with response p99 at most ${formatNumber(KNEE_BOUND_NS / 1e6, 0)} ms: ${parts.join('; ')}.`)
  }
  const stalled = overloadRuns(dataset.runs).filter((r) => r.receiverStallMs != null)
  for (const transport of unique(stalled.map((r) => r.transport))) {
    const ofTransport = stalled.filter((r) => r.transport === transport)
    const words = unique(ofTransport.map(libraryName)).map((lib) => {
      const o = overloadOf(ofTransport.filter((r) => libraryName(r) === lib))
      return o && `${lib} ${o.kinds}${figuresText(o)}`
    }).filter(Boolean)
    if (words.length) sentences.push(`${transportTitle(transport)}, the reader stalled: ${words.join('; ')}.`)
  }
  const transport = unique(paced.map((s) => s.transport))[0]
  const chart = { file: chartFile('summary-latency'), ...rateChart(transport, paced.filter((s) => s.transport === transport), conditions) }
  return { sentences, chart, alt: `Headline: ${transportTitle(transport)}, response p99, p99.9 and delivery p99 against the rate` }
}
