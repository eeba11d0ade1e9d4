import { chartFile, lineChart, lineSeries, logAxis, rssOverTime, timeAxis, zeroAxis } from '../../draw/charts.js'
import { palette } from '../../draw/colours.js'
import { codeSpan, figureColumns, strong } from '../../draw/table.js'
import { formatCount, formatNumber, libraryName, transportTitle, unique } from '../../draw/labels.js'
import { dimensionValue, ofType } from '../../results/model.js'
import { DEFAULT_ENDING } from '../../engine/endings.js'
import { maxOf, median } from '../../stats.js'
import { enoughCalls, KNEE_BOUND_NS, kneeOf } from '../../results/judge/knee.js'
import { STEADY_MIN_CALLS, WARMUP_MS } from '../../engine/pacing.js'
import { cellKey, cellWords, varyingDimensions } from '../../results/run-types/index.js'
import { escapeMarkdown } from '../../results/judge/anomalies.js'
import { slowed } from './durability-section.js'
import { COPED_BUFFER_MULTIPLE, GROWTH_MIN_BYTES, LOSES_AS_CONTROL, judgeAgainstControl, lostOf } from '../../results/judge/overload.js'

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
// close(), read at full speed. A slowed cell's control is measured for that cell's verdict (paced
// beside a stall, scenarios/overload.json), not as a rate of its own: no knee from it.
export function pacedEntries (summary) {
  const runs = ofType(summary, 'run')
  const controlled = new Set(runs.filter(slowed).map((s) => cellKey(s, { except: UNSLOWED })))
  return runs.filter((s) => s.rate != null &&
    !slowed(s) &&
    !controlled.has(cellKey(s, { except: UNSLOWED })) &&
    dimensionValue(s, 'measure') !== 'instructions' &&
    !s.profile &&
    dimensionValue(s, 'ending') === DEFAULT_ENDING)
}

// Runs judged for overload (a slowed receiving end, ended by close(), something sent).
export function overloadRuns (runs) {
  return ofType(runs, 'run').filter((r) => slowed(r) && r.overload != null)
}

// Slowed runs that failed (a crash under the stall is what the logger did, and has no overload
// figures): their cells stay on the page with the reason, beside the judged ones.
function failedSlowedRuns (runs) {
  return ofType(runs, 'run').filter((r) => slowed(r) && !r.ok && r.status !== 'unsupported')
}

// "failed in 5 of 5 runs: <the first run's reason>" (brief: without the reason, which the page's
// table gives), or null where none of the cell's runs failed.
function failuresText (cellRuns, { brief = false } = {}) {
  const failed = cellRuns.filter((r) => !r.ok)
  if (!failed.length) return null
  const first = failed.slice().sort((a, b) => a.run - b.run)[0]
  return `failed in ${failed.length} of ${cellRuns.length} runs${brief ? '' : `: ${first.error ?? 'no reason recorded'}`}`
}

// Per transport, per cell (every dimension but the rate and the events, which a paced run's
// length sets from its rate: the latency scenario gives each rate a second of warm-up and 10,000
// steady calls): kneeOf over its paced entries, with noop's
// steady p99 in the same cell as the pacer's floor. Map transport → Map name → result; a cell is
// named by its library, and by whatever else tells the transport's cells apart ("pino, 2 workers").
export function kneesOf (summary) {
  const entries = pacedEntries(summary)
  const out = new Map()
  for (const transport of unique(entries.map((s) => s.transport))) {
    const ofTransport = entries.filter((s) => s.transport === transport)
    const cells = new Map()
    for (const s of ofTransport) {
      const key = cellKey(s, { except: PACED_LENGTH })
      if (!cells.has(key)) cells.set(key, [])
      cells.get(key).push(s)
    }
    const told = varyingDimensions(ofTransport).filter((f) => !NAMED_APART.includes(f))
    const floors = ofTransport.filter((s) => s.lib === 'noop')
    const byCell = new Map()
    for (const cellEntries of cells.values()) {
      const first = cellEntries[0]
      const where = cellKey(first, { except: FLOOR_APART })
      const floorAt = (rate) => floors
        .find((f) => f.rate === rate && cellKey(f, { except: FLOOR_APART }) === where)?.responseP99Ns?.median ?? null
      const name = [libraryName(first), told.length ? cellWords(first, told) : ''].filter(Boolean).join(', ')
      byCell.set(name, { ...kneeOf(cellEntries, { floorAt }), library: libraryName(first) })
    }
    out.set(transport, byCell)
  }
  return out
}

// A cell's name leaves out what the library's name and the table's column say; its floor is noop in
// the same cell but for the library.
const PACED_LENGTH = ['rate', 'events']
const NAMED_APART = ['type', 'lib', 'libVersion', 'variant', 'transport', ...PACED_LENGTH]
const FLOOR_APART = ['lib', 'libVersion', 'variant', ...PACED_LENGTH]

// A knee in words: "20,000 events/s (p99 0.41 ms), every event kept", and what stopped it where
// that is not a rate over the bound: "; 50,000 not decided (runs 0.8–1.3 ms)".
// brief (the Scorecard's one line per transport): the knee alone, and a p99 on too few calls as the
// count it rests on.
export function kneeText ({ knee, tried, stop = null }, { brief = false } = {}) {
  if (!tried.length) return null
  const p99 = brief ? briefP99Text : p99Text
  if (!knee) {
    if (stop?.state === 'exceeded') return `below ${formatCount(stop.rate)} events/s (${p99(stop)})`
    return stopText(stop)
  }
  const highest = tried.at(-1).rate === knee.rate ? ', the highest tried' : ''
  const kept = knee.keptEvery === null ? '' : knee.keptEvery ? ', every event kept' : ', lost events'
  const then = stop && stop.state !== 'exceeded' && !brief ? `; ${stopText(stop)}` : ''
  return `${formatCount(knee.rate)} events/s${highest} (${p99(knee)})${kept}${then}`
}

// Why a rate was not sustained, where it was not the bound: the runs straddled it, the pacer's floor
// was too near it, or nothing was recorded.
function stopText (stop) {
  const rate = `${formatCount(stop.rate)} events/s`
  if (stop.state === 'undecided') return `${rate} not decided (runs' p99 ${msText(stop.lowNs)} to ${msText(stop.highNs)})`
  if (stop.state === 'unresolved') return `${rate} not resolved (${stop.floorNs == null ? 'no noop run there' : `noop's p99 ${msText(stop.floorNs)}`})`
  return `${rate}: no response time recorded, no knee`
}

// A p99 where it rests on enough calls; otherwise what it is: the 99th percentile of N calls.
function p99Text ({ responseP99Ns, calls }) {
  if (calls != null && !enoughCalls(calls)) return `99th percentile of ${formatCount(calls)} calls ${msText(responseP99Ns)}, too few for a p99`
  return `p99 ${msText(responseP99Ns)}`
}

const briefP99Text = ({ responseP99Ns, calls }) => (calls != null && !enoughCalls(calls)
  ? `only ${formatCount(calls)} calls`
  : `p99 ${msText(responseP99Ns)}`)

const byTransportLibraryRate = (a, b) => a.transport.localeCompare(b.transport) ||
  libraryName(a).localeCompare(libraryName(b)) || a.rate - b.rate
const figureMs = (ns) => (ns == null ? '—' : formatNumber(ns / 1e6, ns < 1e6 ? 3 : 1))
const msText = (ns) => (ns == null ? 'not recorded' : `${formatNumber(ns / 1e6, ns < 1e6 ? 3 : 1)} ms`)

// The cells of the overload runs (every dimension: cellKey).
function overloadCells (runs) {
  const cells = new Map()
  for (const r of runs) {
    const k = cellKey(r)
    if (!cells.has(k)) cells.set(k, [])
    cells.get(k).push(r)
  }
  return [...cells.values()]
}

// A slowed cell's control: the runs of the same cell read at full speed.
const UNSLOWED = ['receiverStallMs', 'receiverRate']
export function controlRunsOf (cellRuns, allRuns) {
  const where = cellKey(cellRuns[0], { except: UNSLOWED })
  return allRuns.filter((r) => !slowed(r) && cellKey(r, { except: UNSLOWED }) === where)
}

// What the runs of one cell did, judged against its control (src/results/judge/overload.js,
// judgeAgainstControl) on the medians of their figures; where the runs differ, how many runs read
// each, every run judged against the same control by the same rule (a run's own overload.kinds is
// judged without the control, so beside the verdict it could contradict it). null where no run was
// judged.
export function overloadOf (cellRuns, allRuns = []) {
  const judged = cellRuns.filter((r) => r.ok && r.overload)
  if (!judged.length) return null
  const control = controlRunsOf(cellRuns, allRuns)
  const verdict = judgeAgainstControl(judged, control, median)
  const own = judged.map((r) => judgeAgainstControl([r], control, median).words)
  const counts = unique(own).map((w) => ({ w, n: own.filter((x) => x === w).length }))
  const figure = (pick) => {
    const values = judged.map((r) => pick(r.overload)).filter((v) => v != null)
    return values.length ? median(values) : null
  }
  const growthBytes = figure((o) => o.growthBytes)
  const stallMs = judged[0].receiverStallMs
  const ofControl = (pick) => {
    const values = control.filter((r) => r.ok).map(pick).filter((v) => v != null)
    return values.length ? median(values) : null
  }
  const controlGrowth = ofControl((r) => r.memoryRiseBytes)
  return {
    kinds: verdict.words,
    perRun: counts.length > 1 ? counts.map(({ w, n }) => `${w} in ${n} of ${judged.length}`).join(', ') : null,
    controlled: verdict.controlled,
    blockedMs: figure((o) => o.blockedMs),
    // Beside "blocks" and "drops", the logger's own longest stretch (what blocks is judged against)
    // and its own losses, read at full speed.
    controlBlockedMs: ofControl((r) => r.callGapMaxMs),
    lostEvents: figure((o) => o.lostEvents),
    controlLostEvents: ofControl(lostOf),
    growthMiB: growthBytes == null ? null : growthBytes / MIB,
    controlGrowthMiB: controlGrowth == null ? null : controlGrowth / MIB,
    growthMiBPerSec: stallMs != null && growthBytes != null
      ? growthBytes / MIB / (stallMs / 1000)
      : figure((o) => o.growthMiBPerSec),
    growthOf: unique(judged.map((r) => r.overload.growthOf).filter(Boolean)).join(', ') || null,
    loggedBytes: verdict.loggedBytes ?? figure((o) => o.loggedBytes),
    bufferBytes: verdict.bufferBytes ?? figure((o) => o.bufferBytes),
    runs: judged.length
  }
}

// One library under a stalled reader over every transport measured, for the scorecard:
// "Console: grows (41.2 MiB, 20.6 MiB/s of stall); Syslog TCP: blocks (1,980 ms blocked)"; null
// where it was not measured.
export function overloadAcross (runs, lib) {
  const stalled = [...overloadRuns(runs), ...failedSlowedRuns(runs)]
    .filter((r) => r.receiverStallMs != null && libraryName(r) === lib)
  const parts = []
  for (const transport of unique(stalled.map((r) => r.transport))) {
    for (const cellRuns of overloadCells(stalled.filter((r) => r.transport === transport))) {
      const o = overloadOf(cellRuns, runs)
      const words = [o && `${o.kinds}${figuresText(o)}`, failuresText(cellRuns, { brief: true })].filter(Boolean).join('; ')
      if (words) parts.push(`${transportTitle(transport)}: ${words}`)
    }
  }
  return parts.length ? parts.join('; ') : null
}

function figuresText (o) {
  const parts = []
  if (o.kinds.includes('blocks') && o.blockedMs != null) parts.push(`${formatCount(Math.round(o.blockedMs))} ms blocked`)
  if ((o.kinds.includes('drops') || o.kinds === LOSES_AS_CONTROL) && o.lostEvents != null) parts.push(`${formatCount(Math.round(o.lostEvents))} lost${o.controlLostEvents ? `, ${formatCount(Math.round(o.controlLostEvents))} read at full speed` : ''}`)
  if (o.kinds.includes('grows') && o.growthMiB != null) parts.push(`${formatNumber(o.growthMiB, 1)} MiB, ${formatNumber(o.growthMiBPerSec, 1)} MiB/s of the stall`)
  if (o.kinds === 'too little logged to tell') {
    parts.push(o.loggedBytes == null && o.bufferBytes == null
      ? 'bytes not recorded'
      : `${bytesText(o.loggedBytes)} logged against ${bytesText(o.bufferBytes)} of buffers`)
  }
  return parts.length ? ` (${parts.join(', ')})` : ''
}

const bytesText = (bytes) => (bytes == null ? 'unknown' : bytes >= MIB ? `${formatNumber(bytes / MIB, 1)} MiB` : `${formatCount(Math.round(bytes / 1024))} KiB`)

// One library's knee over every transport measured, for the scorecard; null where it was not paced.
export function kneeAcross (summary, lib, { brief = false } = {}) {
  const parts = []
  for (const [transport, cells] of kneesOf(summary)) {
    for (const [name, result] of cells) {
      const text = result.library === lib && kneeText(result, { brief })
      if (text) parts.push(`${transportTitle(transport)}${name === lib ? '' : ` (${name})`}: ${text}`)
    }
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
      blocks: [{ heading: 'Summary' }, lead.sentences.map((text) => `- ${escapeMarkdown(text)}`).join('\n'), ...lead.charts.map((chart) => ctx.image(chart.file, chart.alt))],
      charts: lead.charts
    }
  },
  render (dataset, ctx) {
    const summary = ofType(dataset.summary, 'run')
    const paced = pacedEntries(summary)
    const overloaded = overloadRuns(dataset.runs)
    const failed = overloaded.length ? failedSlowedRuns(dataset.runs) : []
    if (!paced.length && !overloaded.length) return { blocks: [], charts: [] }
    const blocks = [{ heading: 'What does a log call cost a latency-sensitive service?' }]
    const charts = []
    if (paced.length) {
      const part = kneeBlocks(paced, summary, ctx)
      blocks.push(...part.blocks)
      charts.push(...part.charts)
    }
    if (overloaded.length) {
      const part = overloadBlocks([...overloaded, ...failed], dataset.runs, ctx)
      blocks.push(...part.blocks)
      charts.push(...part.charts)
    }
    return { blocks, charts }
  }
}

function kneeBlocks (paced, summary, ctx) {
  const knees = kneesOf(summary)
  const transports = [...knees.keys()]
  const names = unique([...knees.values()].flatMap((cells) => [...cells.keys()]))
  const rates = unique(paced.map((s) => s.rate)).sort((a, b) => a - b)
  const blocks = [{ heading: 'The knee: the highest rate each logger sustains', level: 3 }]
  blocks.push(`Each worker logged its events paced at a fixed rate (${rates.map(formatCount).join(', ')} events/s), each event when it was due, the event loop turning between them as in a service. _Response time_ is from when a call was due (its intended time) to its return, so a call that waited behind a slow one counts the wait; _delivery_ from the intended time to the event's arrival at the receiving end. Every figure here is the steady state's: the calls after a warm-up of the first ${formatCount(WARMUP_MS)} ms of the schedule (at most half the events), reported apart below (docs/costs.md, "Warm-up and the steady state"). A rate is sustained where every run finished and every run's response p99 is at most ${formatNumber(KNEE_BOUND_NS / 1e6, 0)} ms; where the runs straddle the bound it is not decided. It is judged only where ${codeSpan('noop')} at the same rate, the pacer's own floor, has a p99 of at most a fifth of the bound; otherwise the machine could not resolve it. The knee is the highest rate sustained below the first that was not; a p99 of fewer than ${formatCount(STEADY_MIN_CALLS)} calls is given as what it is. ${codeSpan('raw:each')} is the plainest code that writes each line when it is logged.`)
  const rows = names.map((name) => [name, ...transports.map((t) => {
    const result = knees.get(t).get(name)
    if (!result) return '—'
    const text = kneeText(result) ?? '—'
    return result.knee?.keptEvery === false ? strong(text) : text
  })])
  blocks.push({ columns: figureColumns(['Library', ...transports.map(transportTitle)]), rows })
  blocks.push('The steady state and the warm-up at each rate, medians over the runs: the warm-up\'s length (from the first call to its last call\'s return), its response p99 and maximum, beside the steady state\'s p99 and the fewest calls it rests on in a run.')
  blocks.push({
    columns: figureColumns(['Library', 'Transport', 'Events/s', 'Steady p99 ms', 'Steady calls', 'Warm-up ms', 'Warm-up p99 ms', 'Warm-up max ms']),
    rows: [...paced].sort(byTransportLibraryRate).map((s) => [
      libraryName(s),
      transportTitle(s.transport),
      formatCount(s.rate),
      figureMs(s.responseP99Ns?.median),
      s.responseCalls?.min == null ? '—' : formatCount(s.responseCalls.min),
      s.responseWarmupMs?.median == null ? '—' : formatCount(Math.round(s.responseWarmupMs.median)),
      figureMs(s.responseWarmupP99Ns?.median),
      figureMs(s.responseWarmupMaxNs?.median)
    ])
  })
  const charts = []
  for (const transport of transports) {
    const chart = { file: chartFile(transport, 'latency-by-rate'), ...rateChart(transport, paced.filter((s) => s.transport === transport), ctx.conditions) }
    charts.push(chart)
    blocks.push(ctx.image(chart.file, `${transportTitle(transport)}: response p99, p99.9 and delivery p99 against the rate`))
  }
  return { blocks, charts }
}

// Latency against the rate for one transport: a line per library and figure, both axes logarithmic.
export function rateChart (transport, entries, conditions, { figures = FIGURES } = {}) {
  const libs = unique(entries.map(libraryName))
  const colours = palette(libs)
  const rates = unique(entries.map((s) => s.rate)).sort((a, b) => a - b)
  const positive = (v) => (v != null && v > 0 ? v : null)
  const datasets = libs.flatMap((lib) => figures.map((f) => lineSeries(`${lib} ${f.name}`, colours.get(lib),
    entries.filter((s) => libraryName(s) === lib)
      .sort((a, b) => a.rate - b.rate)
      .map((s) => ({ x: s.rate, y: positive(f.pick(s)) }))
      .filter((p) => p.y != null),
    { borderDash: f.dash, pointRadius: 2 }))).filter((d) => d.data.length)
  const boundMs = KNEE_BOUND_NS / 1e6
  datasets.push(lineSeries(`bound ${formatNumber(boundMs, 0)} ms`, '#888888',
    [{ x: rates[0], y: boundMs }, { x: rates.at(-1), y: boundMs }], { borderDash: [1, 4], borderWidth: 1 }))
  return lineChart({
    width: 1100,
    height: 640,
    title: `${transportTitle(transport)}: latency against the rate`,
    notes: [`${figures.length > 1 ? 'solid: response p99 · dashed: response p99.9 · dotted: delivery p99' : 'response p99'} · steady state · median over the runs · lower is better`, conditions],
    datasets,
    scales: { x: logAxis('rate (events/s per worker)'), y: logAxis('latency (ms)') }
  })
}

function overloadBlocks (runs, allRuns, ctx) {
  const blocks = [{ heading: OVERLOAD_HEADING, level: 3 }]
  blocks.push(`The receiving end stopped reading (${codeSpan('--receiver-stall')}) or read slowly (${codeSpan('--receiver-rate')}); each cell is judged per worker, on the medians over its runs, against its control (the same cell read at full speed, measured beside it): _blocks_ (the calls waited: the longest time the calling thread made no progress was at least a quarter of the stall and twice the longest in the control; under a slow reader, only where the reader was slower than the logger alone), _drops_ (events that never arrived, counted one by one; beside them what the control lost), _grows_ (a worker's heap or RSS peak rose 32 MiB more than in the control; given in MiB over the stall and per second of the stall), _coped_ (none of them, and while the reader stalled each worker logged at least ${COPED_BUFFER_MULTIPLE} times the buffers between it and the reader, and ${formatCount(GROWTH_MIN_BYTES / MIB)} MiB more than them, so that holding it would have read _grows_), else _too little logged to tell_, with the bytes. The thresholds and their reasons are in docs/costs.md, "Overload".`)
  if (runs.some((r) => r.rate != null)) blocks.push(PACED_STALL)
  const columns = figureColumns(['Library', 'Transport', 'Receiving end', 'Logging', 'What it did', 'Blocked ms', 'Control blocked ms', 'Events lost', 'Growth MiB', 'MiB/s of stall', 'Control growth MiB', 'Logged in stall', 'Buffers'])
  const rows = []
  const tooLittle = []
  for (const cellRuns of overloadCells(runs)) {
    const first = cellRuns[0]
    const o = overloadOf(cellRuns, allRuns)
    const mib = (v) => (v == null ? '—' : formatNumber(v, 1))
    const ms = (v) => (v == null ? '—' : formatCount(Math.round(v)))
    if (o?.kinds === 'too little logged to tell' && first.rate == null) tooLittle.push(first)
    rows.push([
      libraryName(first),
      transportTitle(first.transport),
      first.receiverStallMs != null ? `stalled ${formatCount(first.receiverStallMs)} ms` : `read at ${formatCount(first.receiverRate)} B/s`,
      `${first.rate != null ? `paced at ${formatCount(first.rate)}/s` : 'tight loop'}, ${formatCount(first.events)} events${first.size == null ? '' : ` of ${formatCount(first.size)} B`}${first.cpus > 1 ? `, ${first.cpus} workers` : ''}`,
      [o && `${o.kinds}${o.controlled ? '' : ' (no control)'}${o.perRun ? `; runs: ${o.perRun}` : ''}`, failuresText(cellRuns)].filter(Boolean).join('; ') || 'no run finished',
      ms(o?.blockedMs),
      ms(o?.controlBlockedMs),
      o?.controlLostEvents ? `${ms(o.lostEvents)} (control ${ms(o.controlLostEvents)})` : ms(o?.lostEvents),
      o?.growthMiB == null ? '—' : `${mib(o.growthMiB)}${o.growthOf ? ` (${o.growthOf})` : ''}`,
      first.receiverStallMs == null ? '—' : mib(o?.growthMiBPerSec),
      mib(o?.controlGrowthMiB),
      o ? bytesText(o.loggedBytes) : '—',
      o ? bytesText(o.bufferBytes) : '—'
    ])
  }
  blocks.push({ columns, rows })
  // A tight loop's "too little logged to tell" is the design's, not the logger's: paced logging
  // under a stall decides it (scenarios/overload.json), on the page report --pages finds.
  if (tooLittle.length && ctx.pacedOverload) {
    const names = unique(tooLittle.map((r) => r.transport)).map((transport) =>
      `${unique(tooLittle.filter((r) => r.transport === transport).map(libraryName)).join(', ')} (${transportTitle(transport)})`)
    blocks.push(`Too little logged to tell: ${names.join('; ')}. In a tight loop an asynchronous logger queues every line before its first write completes, so all its calls were over before the reader had seen a tenth of them and nothing was logged during the stall; no volume changes that. Paced logging decides it: the calls keep coming at a fixed rate while the reader stalls. Those verdicts are in [paced logging under a stall](${ctx.pacedOverload}).`)
  }
  const charts = []
  const stalled = runs.filter((r) => r.receiverStallMs != null && r.overload != null)
  for (const transport of unique(stalled.map((r) => r.transport))) {
    const chart = rssChart(transport, stalled.filter((r) => r.transport === transport), ctx.conditions)
    if (chart) {
      charts.push(chart)
      blocks.push(ctx.image(chart.file, `${transportTitle(transport)}: RSS per worker over time under a stalled receiving end, per library`))
    }
  }
  return { blocks, charts }
}

export const OVERLOAD_HEADING = 'When the destination cannot keep up'

// What a paced stall is, on a page that has one.
const PACED_STALL = 'Paced cells log at a fixed rate (each call when it is due, the event loop turning between them) before, during and after the stall, so the calls keep coming while the reader stops, as a service\'s do: _blocked_ is then the longest batch of calls (how long one call held the thread, with the calls due behind it), and _logged in stall_ counts the events due while the reader stalled. A run that blocked and fell behind its rate is judged, not failed: the stall held its calls; its control, read at full speed, is where the rate has to be sustained.'

// Whether a dataset holds cells paced under a stall (scenarios/overload.json): a page of them is led
// by their verdicts, and report --pages links a tight loop's "too little logged to tell" to it
// (src/report/pages.js).
export const pacesStalls = (dataset) =>
  overloadRuns(dataset.runs ?? []).some((r) => r.receiverStallMs != null && r.rate != null)

// The run whose blocked time is the median of its cell's (the lower middle of an even count).
function medianRun (cellRuns) {
  const ok = cellRuns.filter((r) => r.ok && r.timeseries?.some((p) => p.rssBytes > 0))
    .sort((a, b) => (a.overload?.blockedMs ?? 0) - (b.overload?.blockedMs ?? 0) || a.run - b.run)
  return ok.length ? ok[Math.floor((ok.length - 1) / 2)] : null
}

// The workers' RSS over time under the stall, one line per library: what a growth is judged on (the
// larger of the heap's and the RSS's rise; the heap is reported only while the event loop is free,
// the RSS is read from outside every 100 ms), per worker (the workers' sum ÷ workers), with the
// stall marked where the runs recorded when it ended (stallEndMs: from the first call; the samples
// count from the workers' release, a few ms earlier). null where no run has a series. file: the
// chart's own (the headline's is another).
export function rssChart (transport, stalled, conditions, { file = chartFile(transport, 'stall-rss') } = {}) {
  const series = []
  for (const lib of unique(stalled.map(libraryName))) {
    const run = medianRun(stalled.filter((r) => libraryName(r) === lib))
    if (run) series.push({ lib, run })
  }
  if (!series.length) return null
  const colours = palette(series.map((s) => s.lib))
  const stallMs = unique(stalled.map((r) => r.receiverStallMs))
  const datasets = series.map(({ lib, run }) => lineSeries(lib, colours.get(lib), rssOverTime(run, run.cpus)))
  const stall = stallWindow(series.map(({ run }) => run))
  if (stall) {
    const top = maxOf(datasets.flatMap((d) => d.data.map((p) => p.y)), 0)
    datasets.push(lineSeries('stall', '#888888', [
      { x: stall.fromS, y: 0 }, { x: stall.fromS, y: top }, { x: stall.toS, y: top }, { x: stall.toS, y: 0 }
    ], { borderDash: [4, 4], borderWidth: 1 }))
  }
  return lineChart({
    file,
    title: `${transportTitle(transport)}: RSS while the receiving end stalls ${stallMs.map((ms) => `${formatCount(ms)} ms`).join(', ')}`,
    notes: [`RSS per worker, every 100 ms · the run with the median blocked time${stall ? ' · dashed grey: the stall (median over these runs)' : ''}`, conditions],
    datasets,
    scales: { x: timeAxis(), y: zeroAxis('RSS (MiB per worker)', { type: 'linear' }) }
  })
}

// Where the stall lay in the charted runs, in s from the start: the medians of its start and end;
// null where no run recorded it.
function stallWindow (runs) {
  const ends = runs.filter((r) => r.stallEndMs != null && r.receiverStallMs != null)
  if (!ends.length) return null
  return {
    fromS: median(ends.map((r) => r.stallEndMs - r.receiverStallMs)) / 1000,
    toS: median(ends.map((r) => r.stallEndMs)) / 1000
  }
}

// The Summary of a page with paced runs (markdown.js puts it first, as the durability page's kept
// sentences): per transport the knees, highest first, and under a stall what each logger did; its
// headline chart is the first transport's latency against the rate. A page of paced stalls and their
// controls alone (scenarios/overload.json) is led by what each logger did, its headline the first
// transport's RSS under the stall. null without paced cells or paced stalls (the page then keeps
// the Summary of its done times).
export function latencyLead (dataset, conditions) {
  const summary = ofType(dataset.summary, 'run')
  const paced = pacedEntries(summary)
  if (!paced.length && !pacesStalls(dataset)) return null
  const sentences = []
  for (const [transport, libs] of kneesOf(summary)) {
    const held = [...libs].filter(([, r]) => r.knee).sort(([, a], [, b]) => b.knee.rate - a.knee.rate)
    const without = [...libs].filter(([, r]) => !r.knee && r.tried.length)
    const parts = held.map(([lib, r]) => `${lib} ${formatCount(r.knee.rate)}${r.knee.keptEvery === false ? ' (lost events)' : ''}`)
    // No knee for one of three reasons: over the bound at the lowest rate, or nothing decided there.
    const below = without.filter(([, r]) => r.stop?.state === 'exceeded').map(([lib]) => lib)
    const unknown = without.filter(([, r]) => r.stop?.state !== 'exceeded').map(([lib]) => lib)
    if (below.length) parts.push(`below the lowest rate: ${below.join(', ')}`)
    if (unknown.length) parts.push(`not decided or not resolved at the lowest rate: ${unknown.join(', ')}`)
    sentences.push(`${transportTitle(transport)}: the highest rate (events/s) with steady-state response p99 at most ${formatNumber(KNEE_BOUND_NS / 1e6, 0)} ms: ${parts.join('; ')}.`)
  }
  const stalled = overloadRuns(dataset.runs).filter((r) => r.receiverStallMs != null)
  const failedStalled = stalled.length ? failedSlowedRuns(dataset.runs).filter((r) => r.receiverStallMs != null) : []
  const withFailed = [...stalled, ...failedStalled]
  for (const transport of unique(withFailed.map((r) => r.transport))) {
    const ofTransport = withFailed.filter((r) => r.transport === transport)
    const words = unique(ofTransport.map(libraryName)).map((lib) => {
      const ofLib = ofTransport.filter((r) => libraryName(r) === lib)
      const o = overloadOf(ofLib, dataset.runs)
      const failures = failuresText(ofLib)
      return [o && `${lib} ${o.kinds}${figuresText(o)}`, failures && `${o ? '' : `${lib} `}${failures}`].filter(Boolean).join(', ')
    }).filter(Boolean)
    if (words.length) sentences.push(`${transportTitle(transport)}, the reader stalled${stallWords(ofTransport)}: ${words.join('; ')}.`)
  }
  if (!paced.length) {
    const transport = stalled[0].transport
    const chart = rssChart(transport, stalled.filter((r) => r.transport === transport), conditions, { file: chartFile('summary-stall-rss') })
    if (!chart) return { sentences, charts: [] }
    return { sentences, charts: [{ ...chart, width: 700, height: 420, alt: `Headline: ${transportTitle(transport)}, RSS per worker over time while the receiving end stalls, per library` }] }
  }
  // The headline: the first transport's steady response p99 against the rate, in small panels of at
  // most PANEL_LINES libraries each (one line per library, beside the bound), not every library and
  // figure in one.
  const transport = unique(paced.map((s) => s.transport))[0]
  const ofTransport = paced.filter((s) => s.transport === transport)
  const libs = unique(ofTransport.map(libraryName))
  const panels = Math.ceil(libs.length / PANEL_LINES)
  const charts = Array.from({ length: panels }, (_, i) => {
    const shown = libs.slice(i * PANEL_LINES, (i + 1) * PANEL_LINES)
    const entries = ofTransport.filter((s) => shown.includes(libraryName(s)))
    const chart = rateChart(transport, entries, conditions, { figures: FIGURES.slice(0, 1) })
    return {
      file: chartFile(panels > 1 ? `summary-latency-${i + 1}` : 'summary-latency'),
      ...chart,
      width: 700,
      height: 420,
      alt: `Headline${panels > 1 ? ` (${i + 1} of ${panels})` : ''}: ${transportTitle(transport)}, steady-state response p99 against the rate: ${shown.join(', ')}`
    }
  })
  return { sentences, charts }
}

// How long the reader stalled, and the rate the calls kept coming at, where every run of the
// transport was paced alike: " 3,000 ms, the calls paced at 20,000 events/s". Nothing for a tight loop.
function stallWords (runs) {
  const rates = unique(runs.map((r) => r.rate ?? null))
  const stalls = unique(runs.map((r) => r.receiverStallMs))
  if (rates.length !== 1 || rates[0] == null || stalls.length !== 1) return ''
  return ` ${formatCount(stalls[0])} ms, the calls paced at ${formatCount(rates[0])} events/s`
}

// The most lines a headline panel draws, the bound aside.
const PANEL_LINES = 6
