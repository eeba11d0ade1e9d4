import { cellKey, dimensionValue, ofType } from '../../results/model.js'
import { RUN_TYPE } from '../../results/run-types/run.js'
import { CONFIDENCE, maxOf, median, minOf, relativeHalfWidth, runsForHalfWidth } from '../../stats.js'
import { code, em, escaped, figureColumns, strong } from '../../draw/table.js'
import { chartFile, safeSegment } from '../../draw/charts.js'
import { anomalyList, findAnomalies } from '../../results/judge/anomalies.js'
import { benchmarksChart, dropRateChart, representativeRun, summaryOf, timeseriesChart } from './charts.js'
import { coverageRange, coverageTitle, workersLabel, intervalHeading, failureReason, formatBytes, formatCount, formatMs, formatNumber, formatPct, formatRatio, runName, transportTitle, unique } from '../../draw/labels.js'

// The report section for `run` results (the core matrix): the seed's layout per transport, a
// table per library with Test 1..N and Average, a summary per transport, and the charts.

// Runs disagree widely above this coefficient of variation (stddev / mean).
export const CV_WARNING = 0.10
const WARN = '⚠'

export const runSection = {
  name: 'run',
  types: ['run'],
  howToRead: [
    '- _unblocked_: from the moment all workers start logging until the slowest worker\'s event loop was free after its last `log()` call (the work a logger deferred to `process.nextTick` or promises included): how long logging held up the application. Results from before this measure stopped at the last call\'s return, as the 2019 article did (`loopReturnedMs` now).',
    '- _done_: until every worker\'s logger said it had written everything and the receiving end saw the last event: how long until the logs were really there.',
    '- Every event carries its worker and sequence number and is checked at the receiving end; _drop rate_ counts the ones that never arrived intact.',
    '- `noop` is the harness\'s own floor (building the message, calling an empty function); `raw` is the transport\'s physical limit (the plainest fast Node code writing the same lines).',
    '- **Average** is the mean over the runs that finished; a failed or unsupported cell says why instead of showing a number.'
  ],
  render (dataset, ctx) {
    const runs = ofType(dataset.runs, 'run')
    const summary = ofType(dataset.summary, 'run')
    const blocks = []
    const charts = []
    const details = []
    for (const group of groupsOf(runs, summary)) {
      // On a page with detail pages, each group (its charts, per-library tables and details) is a
      // page of its own, linked from the main page's Details list.
      const part = renderGroup(group, ctx.details ? ctx.details.ctx : ctx, dataset)
      charts.push(...part.charts)
      if (ctx.details) details.push({ slug: detailSlug(group), title: group.title, blocks: part.blocks })
      else blocks.push(...part.blocks)
    }
    return { blocks, charts, details }
  }
}

// The name of a group's detail page: every section that adds to that page (the costs too) names it so.
export const detailSlug = (group) => safeSegment(`${group.transport}${group.fileTag}`)

// What tells the cells of one group apart: the library and the worker count. A group is every other
// dimension of the cell (transport, receiving end, events, size, ...), in plan order.
const GROUP_EXCEPT = ['lib', 'variant', 'cpus']
// Dimensions that name a group when a transport has groups that differ in them: every dimension
// whose descriptor has a title (and file tag, src/results/run-types/run.js), in the order a group's
// title says them (its titleAt).
export const DISTINCT = [
  ...RUN_TYPE.words.filter((w) => w.title).sort((a, b) => a.titleAt - b.titleAt),
  // Set by merge for shards from different machines: the machine is data from a results file.
  { field: 'machine', tag: (v) => `-${String(v).replace(/[^A-Za-z0-9]+/g, '-').toLowerCase().slice(0, 48)}`, title: (v) => `, measured on ${String(v).replace(/[<>[\]`*_]/g, '')}` }
]

export function groupsOf (runs, summary) {
  const groups = []
  // Runs merged from shards on different machines carry `machine`: one table never mixes two.
  const groupKey = (r) => `${cellKey(r, { except: GROUP_EXCEPT })}${r.machine ? `|${r.machine}` : ''}`
  for (const transport of unique(runs.map((r) => r.transport))) {
    const ofTransport = runs.filter((r) => r.transport === transport)
    const byGroup = groupBy(ofTransport, groupKey)
    const varying = DISTINCT.filter(({ field }) => unique(ofTransport.map((r) => dimensionValue(r, field))).length > 1)
    for (const [, groupRuns] of byGroup) {
      const cellsOfGroup = new Set(groupRuns.map((r) => cellKey(r)))
      const first = groupRuns[0]
      const groupSummary = summary.filter((s) => cellsOfGroup.has(cellKey(s)))
      const measuredPerCell = groupBy(groupRuns.filter((r) => r.status !== 'unsupported'), (r) => cellKey(r))
      groups.push({
        transport,
        size: first.size,
        fileTag: varying.map((d) => d.tag(dimensionValue(first, d.field))).join('') + (dimensionValue(first, 'measure') === 'instructions' ? '-instructions' : '') + (first.profile ? '-profiled' : ''),
        title: transportTitle(transport) + varying.map((d) => d.title(dimensionValue(first, d.field))).join('') + countedTitle(first) + profiledTitle(first),
        // --measure instructions: the group's figures are counts, not times (see FIGURES).
        figures: dimensionValue(first, 'measure') === 'instructions' ? FIGURES.instructions : FIGURES.time,
        runs: groupRuns,
        summary: groupSummary,
        // Summary entries by library name, then worker count: looked up per library, never searched
        // (a search per library is quadratic in the libraries: 10,000 of them took minutes).
        cellSummaries: groupByCell(groupSummary),
        libs: unique(groupRuns.map(runName)),
        // Runs by library name, then worker count: every table looks its cells up here.
        cellRuns: groupByCell(groupRuns),
        cpusList: unique(groupRuns.map((r) => r.cpus)).sort((a, b) => a - b),
        eventsLabel: unique(groupRuns.map((r) => r.events)).map((n) => n.toLocaleString('en-US')).join(' / '),
        runsPerCell: [...measuredPerCell.values()].reduce((most, cellRuns) => Math.max(most, cellRuns.length), 1),
        // null everywhere: the receiving end cannot count (e.g. an external syslog server).
        counted: groupRuns.some((r) => r.dropRate != null)
      })
    }
  }
  return groups
}

// A group of counted runs says so in its title, whatever else varies: its figures are no times.
// run --profile: the group's times were taken under V8's CPU profiler (docs/costs.md, "CPU profiles").
function profiledTitle (first) {
  return first.profile ? ', profiled (times under the CPU profiler)' : ''
}

function countedTitle (first) {
  return dimensionValue(first, 'measure') === 'instructions' ? `, instructions counted (${first.instructionsMethod ?? 'valgrind'})` : ''
}

// The two figures of each cell in the per-library and summary tables, beside the drop rate: the
// times, or for counted runs (--measure instructions) the instructions and write syscalls per event.
const syscallsFormat = (v) => (v == null ? '' : v.toFixed(3))
const FIGURES = {
  time: [
    { name: 'unblocked', field: 'unblockedMs', format: formatMs },
    { name: 'done', field: 'doneMs', format: formatMs }
  ],
  instructions: [
    { name: 'instructions/event', field: 'instructionsPerEvent', format: formatCount },
    { name: 'write syscalls/event', field: 'syscallsWritePerEvent', format: syscallsFormat }
  ]
}

function groupByCell (runs) {
  const byLib = groupBy(runs, runName)
  return new Map([...byLib].map(([lib, libRuns]) => [lib, groupBy(libRuns, (r) => r.cpus)]))
}

const runsOf = (group, lib, cpus) => (cpus === undefined
  ? [...(group.cellRuns.get(lib)?.values() ?? [])].flat()
  : group.cellRuns.get(lib)?.get(cpus) ?? [])

// Records grouped by a key, in the order the keys first appear: one pass, however many records.
function groupBy (records, keyOf) {
  const groups = new Map()
  for (const record of records) {
    const key = keyOf(record)
    const group = groups.get(key)
    if (group) group.push(record)
    else groups.set(key, [record])
  }
  return groups
}

// UDP runs record what the kernel dropped at the receiving socket (receiverSocketDrops): the part
// of the loss that was the receiver's full buffer rather than the library or the sending side.
export function lossAtReceiver (runs) {
  const known = runs.filter((r) => r.ok && r.received != null && r.receiverSocketDrops != null)
  const lost = known.reduce((total, r) => total + Math.max(0, r.sent - r.received), 0)
  if (known.length === 0 || lost === 0) return null
  const atSocket = known.reduce((total, r) => total + r.receiverSocketDrops, 0)
  const share = Math.min(1, atSocket / lost)
  return `Where the lost events went: of ${lost.toLocaleString('en-US')} events lost in these runs, the receiving socket's full buffer dropped ${atSocket.toLocaleString('en-US')} (${(share * 100).toFixed(1)}%, the kernel's own count); the rest were lost before reaching it, or arrived damaged.`
}

function renderGroup (group, ctx, dataset) {
  const charts = []
  const out = [{ heading: group.title }]
  out.push({
    text: [`${group.eventsLabel} events per worker, ${group.runsPerCell} run${group.runsPerCell > 1 ? 's' : ''} per cell, ${group.figures === FIGURES.time ? 'times in milliseconds' : 'counts per event'} (lower is better). `,
      em('Drop rate'), ' is the share of events that never arrived intact at the receiving end; "unknown" where nothing can be counted.']
  })
  const doneMeans = unique(group.runs.filter((r) => r.doneMeans && r.lib !== 'noop').map((r) => r.doneMeans))
  const fsTypes = unique(group.runs.map((r) => r.fsType).filter(Boolean))
  if (doneMeans.length || fsTypes.length) {
    out.push({
      text: [
        ...(doneMeans.length ? [em('Done'), ` is measured until ${doneMeans.join('; or ')}.`] : []),
        fsTypes.length ? `${doneMeans.length ? ' ' : ''}The files were written to ${fsTypes.join(', ')}${fsTypes.includes('tmpfs') ? ' (memory, not a disk)' : ''}.` : ''
      ]
    })
  }

  // Each pattern the rules find in these runs, explained here where it appears (see anomalies.js).
  // With the document's envs, so that a pair is judged paired by round here as on the main page.
  const anomalies = findAnomalies({ runs: group.runs, env: dataset.env, envs: dataset.envs })
  if (anomalies.length) out.push(`**Anomalies in these runs:**\n\n${anomalyList(anomalies)}`)

  // The chart draws times: counted runs have none.
  if (group.figures === FIGURES.time) {
    const benchmarks = { file: chartFile(group.transport, `benchmarks${group.fileTag}`), ...benchmarksChart(group, ctx.conditions) }
    charts.push(benchmarks)
    out.push(ctx.image(benchmarks.file, `${group.title}: unblocked and done per library`))
  } else {
    out.push({ text: [em('Instructions/event'), ': user-space instructions of the whole worker process (every thread) per event, from the first call to close, counted under a CPU simulator or hardware counters; ', em('write syscalls/event'), ' is what it handed the kernel. These are counts, not times: what they leave out is in docs/costs.md.'] })
  }

  if (group.counted) {
    if (group.summary.some((s) => s.dropRate?.mean > 0)) {
      const drops = { file: chartFile(group.transport, `drop-rate${group.fileTag}`), ...dropRateChart(group, ctx.conditions) }
      charts.push(drops)
      out.push(ctx.image(drops.file, `${group.title}: share of events lost per library`))
      const where = lossAtReceiver(group.runs)
      if (where) out.push({ text: where })
    } else {
      out.push({ text: noLossSentence(group) })
    }
  } else {
    out.push({ text: `Drop rate unknown on ${group.title}: the receiving end cannot count events here (for example an external server), so no drop-rate chart.` })
  }

  let warned = false
  for (const lib of group.libs) {
    const libRuns = runsOf(group, lib)
    const version = libRuns.find((r) => r.libVersion && r.libRange == null)?.libVersion
    out.push({ heading: escaped(`${lib}${version ? ` ${version}` : ''}`), level: 3 })
    if (libRuns.every((r) => r.status === 'unsupported')) {
      out.push({ text: em(['unsupported: ', escaped(libRuns[0].error ?? `${lib} has no ${group.transport} transport`), '.']) })
      continue
    }
    for (const cpus of group.cpusList) {
      const cellRuns = runsOf(group, lib, cpus)
      const chosen = representativeRun(cellRuns)
      if (!chosen) continue
      if (group.figures !== FIGURES.time) continue
      if ((chosen.run.timeseries?.length ?? 0) < 2) {
        out.push(`_${workersLabel(cpus)}: no time-series chart (the run was shorter than two 100 ms samples)._`)
        continue
      }
      const chart = { file: chartFile(group.transport, `${cpus}cpu`, `${lib}${group.fileTag}`), ...timeseriesChart({ group, lib, cpus, runs: cellRuns, chosen, conditions: ctx.conditions }) }
      charts.push(chart)
      out.push(`_${workersLabel(cpus)}_`, ctx.image(chart.file, `${lib}, ${group.title}, ${workersLabel(cpus)}: CPU and memory over time`))
    }
    const table = libTable(group, libRuns)
    warned ||= table.warned
    out.push(table.table)
  }

  out.push({ heading: `${group.title} summary`, level: 3 })
  out.push({ text: ['Mean over the runs that finished (the ', strong('Average'), ' rows above).'] })
  out.push(summaryTable(group))
  out.push({ heading: `${group.title} details`, level: 3 })
  const details = detailsTable(group)
  warned ||= details.warned
  if (group.figures === FIGURES.time) out.push({ text: [`${DETAILS_LEGEND}; `, em('× raw'), ' is the median done time as a multiple of the ', code('raw'), ' baseline\'s median (the plainest code that writes the same lines); ', em('delivered events/s'), ' counts the events that arrived over done time (not those sent: a library that drops events is not credited with them), median over the runs; peak RSS is the largest of any one worker.'] })
  else out.push({ text: [`${DETAILS_LEGEND}; syscalls and bytes written are the medians per event of the workers' /proc/self/io from the first call to close.`] })
  out.push(details.table)
  const delivery = group.figures === FIGURES.time ? deliveryTable(group) : null
  if (delivery) out.push({ text: [em('Delivery latency'), ': from a sampled event\'s ', code('log()'), ' call to its arrival at the receiving end (every k-th event of each worker, at most 1,000 a worker), in ms: median [interval] over the runs of each run\'s p50 and p99; samples is the fewest that arrived in a run. Where arrivals were not timed, why (see docs/measured.md).'] }, delivery)
  if (warned) out.push({ text: [`${WARN} marks a figure whose runs disagree widely (coefficient of variation above ${CV_WARNING * 100}%): its average is not a steady figure. More runs (`, code('--runs'), ') or a quieter machine help.'] })
  return { blocks: out, charts }
}

// Drop rate is always shown: "unknown" where the receiving end cannot count (an external server),
// so a reader never takes a missing column for "nothing lost".
// The drop-rate chart draws finished runs only; where none lost an event, the sentence in its place
// says so, and names the failed runs that did (their rows show the drop rate): a failed run's 100%
// drop is a loss, never "no event was lost".
function noLossSentence (group) {
  const lossy = group.runs.filter((r) => r.status === 'failed' && r.dropRate > 0)
  if (!lossy.length) return `No event was lost on ${group.title}: every counted event arrived intact (so no drop-rate chart).`
  const byCell = [...groupBy(lossy, (r) => cellKey(r)).values()]
    .map((cellRuns) => `${runName(cellRuns[0])}, ${workersLabel(cellRuns[0].cpus)}: ${formatPct(maxOf(cellRuns.map((r) => r.dropRate)))} in run ${cellRuns.map((r) => r.run).join(', ')}`)
  const finished = group.runs.some((r) => r.ok && r.dropRate != null)
  return `${finished ? `No finished run lost an event on ${group.title}, but failed` : `No run finished on ${group.title}; failed`} runs lost events (${byCell.join('; ')}; see their rows), so no drop-rate chart: the chart draws finished runs.`
}

export function libTable (group, libRuns) {
  const figures = group.figures ?? FIGURES.time
  const subs = [...figures.map((f) => f.name), 'drop rate']
  const columns = figureColumns(['', ...group.cpusList.flatMap((cpus) => subs.map(() => workersLabel(cpus)))])
  const rows = [['', ...group.cpusList.flatMap(() => subs.map(em))]]
  // Each cell's runs indexed by run number once: the table is linear in the runs, however many.
  const byCpus = new Map(group.cpusList.map((cpus) => [cpus, { runs: [], byRun: new Map(), unsupported: false }]))
  let maxRun = 1
  for (const r of libRuns) {
    const cell = byCpus.get(r.cpus)
    if (!cell) continue
    cell.runs.push(r)
    if (r.status === 'unsupported') cell.unsupported = true
    if (!cell.byRun.has(r.run)) cell.byRun.set(r.run, r)
    if (r.status !== 'unsupported' && Number.isSafeInteger(r.run) && r.run > maxRun) maxRun = r.run
  }
  for (let n = 1; n <= maxRun; n++) {
    rows.push([`Test ${n}`, ...group.cpusList.flatMap((cpus) => runCells(byCpus.get(cpus), n, figures))])
  }
  let warned = false
  const stat = (pick) => group.cpusList.flatMap((cpus) => {
    const s = summaryOf(group, runName(libRuns[0]), cpus)
    return pick(s, byCpus.get(cpus).runs)
  })
  rows.push([strong('Average'), ...stat((s, cellRuns) => {
    if (!s || s.okRuns === 0) return subs.map((_, i) => (i === 0 ? strong(cellReason(s, cellRuns)) : '—'))
    const partial = s.okRuns < s.runs ? ` (${s.okRuns} of ${s.runs} runs)` : ''
    return [...figures.map((f) => [strong(f.format(s[f.field]?.mean)), partial]), strong(dropOf(s, 'mean'))]
  })])
  const titled = groupCoverage(group)
  rows.push([`Median [${titled} interval]`, ...stat((s) => {
    if (!s || s.okRuns === 0) return subs.map(() => '—')
    return [...figures.map((f) => withInterval(s[f.field], titled, f.format)), dropOf(s, 'median')]
  })])
  rows.push(['Stddev', ...stat((s) => {
    if (!s || s.okRuns === 0) return subs.map(() => '—')
    const spread = (d, format) => {
      if (!d || d.n < 2) return 'one run'
      const warn = d.cv > CV_WARNING
      warned ||= warn
      return `±${format(d.stddev)} (${cvPercent(d.cv)}${warn ? ` ${WARN}` : ''})`
    }
    return [...figures.map((f) => spread(s[f.field], f.format)), s.dropRate ? `±${formatPct(s.dropRate.stddev)}` : 'unknown']
  })])
  return { table: { columns, rows }, warned }
}

// Rounded, except where rounding would show a warned 10.3% as "10%".
function cvPercent (cv) {
  const whole = Math.round(cv * 100)
  return cv > CV_WARNING && whole <= CV_WARNING * 100 ? `${(cv * 100).toFixed(1)}%` : `${whole}%`
}

// The cells of one run: a number where it was measured; where not, the reason once and "failed" after.
function runCells ({ byRun, unsupported }, n, figures) {
  const run = byRun.get(n)
  const values = (r) => [...figures.map((f) => r[f.field]), r.dropRate]
  if (!run) {
    return values({}).map(() => (unsupported ? 'unsupported' : 'not run'))
  }
  let reasonGiven = false
  return values(run).map((value, i) => {
    const isDrop = i === 2
    if (value != null) return isDrop ? formatPct(value) : figures[i].format(value)
    if (run.ok) return isDrop ? 'unknown' : ''
    if (reasonGiven) return ['unsupported', 'skipped'].includes(run.status) ? run.status : 'failed'
    reasonGiven = true
    return failureReason(run)
  })
}

function cellReason (s, cellRuns) {
  const failed = cellRuns.find((r) => !r.ok)
  return failed ? failureReason(failed) : (s?.status ?? 'not run')
}

function dropOf (s, key) {
  return s.dropRate ? formatPct(s.dropRate[key]) : 'unknown'
}

export function summaryTable (group) {
  const figures = group.figures ?? FIGURES.time
  const subs = [...figures.map((f) => f.name), 'drop rate']
  const columns = figureColumns(['', ...group.cpusList.flatMap((cpus) => subs.map(() => workersLabel(cpus)))])
  const rows = [['', ...group.cpusList.flatMap(() => subs.map(em))]]
  for (const lib of group.libs) {
    rows.push([lib, ...group.cpusList.flatMap((cpus) => {
      const s = summaryOf(group, lib, cpus)
      const cellRuns = runsOf(group, lib, cpus)
      if (!s || s.okRuns === 0) return subs.map((_, i) => (i === 0 ? cellReason(s, cellRuns) : '—'))
      const partial = s.okRuns < s.runs ? ` (${s.okRuns} of ${s.runs} runs)` : ''
      return [...figures.map((f) => f.format(s[f.field]?.mean) + partial), dropOf(s, 'mean')]
    })])
  }
  return { columns, rows }
}

// A median with its interval; "*" where its coverage is not the one its column is titled with (see
// intervalNotes).
function withInterval (d, titled, format = formatMs) {
  if (!d) return ''
  if (d.n < 2) return `${format(d.median)} (one run)`
  const mark = !String(titled).includes('–') && coverageTitle(d.ciCoverage) !== titled ? '*' : ''
  return `${format(d.median)} [${format(d.ciLow)}–${format(d.ciHigh)}]${mark}`
}

// The coverage a group's intervals reach, as their column's title: with the same runs in every
// cell one figure ("75%" for 3 runs, "93.7%" for 5); otherwise the range.
// The coverage of the intervals of a group's figures (times, or a counted group's instructions).
export function groupCoverage (group) {
  return coverageRange(group.summary.flatMap((s) => group.figures.map((f) => s[f.field]?.ciCoverage))
    .filter((c) => c != null))
}

export const DETAILS_LEGEND = 'Median [interval, titled by the coverage its runs reach] ± coefficient of variation over the runs that finished (the interval is distribution-free, from order statistics; see docs/comparisons.md)'
export const WIDE_INTERVAL = 0.05

// What a reader must know about the intervals of a group's cells: those wider than ±5% and how many
// runs would narrow them, those below 95% coverage (fewer than 6 runs), and outlying runs.
// Fewer runs than this call no run an outlier: with 3 runs the MAD rests on one distance.
export const OUTLIER_MIN_RUNS = 5

function intervalNotes (group) {
  const titled = groupCoverage(group)
  const wide = []
  const short = new Set()
  const outlying = []
  for (const s of group.summary) {
    for (const { field: key, name } of group.figures ?? FIGURES.time) {
      const d = s[key]
      if (!d || d.n < 2) continue
      const cell = `${runName(s)} ${workersLabel(s.cpus)} ${name}`
      const half = relativeHalfWidth(d)
      if (half > WIDE_INTERVAL) wide.push(`${cell} ±${(half * 100).toFixed(0)}% (${d.n} runs; about ${runsForHalfWidth(d, WIDE_INTERVAL)} would narrow it to ±5%)`)
      if (coverageTitle(d.ciCoverage) !== titled) short.add(`${d.n} runs: ${coverageTitle(d.ciCoverage)}`)
      if (d.outliers > 0 && d.n >= OUTLIER_MIN_RUNS) outlying.push(`${cell} (${d.outliers} of ${d.n} runs)`)
    }
  }
  const notes = []
  if (wide.length) notes.push([`${WARN} Interval wider than ±5%: ${wide.join('; ')}. Use `, code('--runs'), ' or a quieter machine before comparing these.'])
  if (short.size && titled.includes('–')) notes.push(`Each interval covers the median with what its cell's runs allow (below 6 runs, no distribution-free interval reaches ${CONFIDENCE * 100}% and the interval is the runs' range): ${[...short].join(', ')}.`)
  else if (short.size) notes.push([{ markdown: '\\*', plain: '*' }, ` Not the coverage the column is titled with: with fewer than 6 runs no distribution-free interval reaches ${CONFIDENCE * 100}%, so the interval is the runs' range and covers the median with ${[...short].join(', ')}.`])
  else if (titled !== 'no' && titled !== coverageTitle(CONFIDENCE) && !titled.includes('–') && Number.parseFloat(titled) < CONFIDENCE * 100) notes.push(`The intervals cover the median with ${titled}, not ${CONFIDENCE * 100}%: with ${group.runsPerCell} runs no distribution-free interval reaches ${CONFIDENCE * 100}% (the interval is the runs' range).`)
  if (outlying.length) notes.push(`Outliers (runs beyond 10 robust standard deviations of the median, as hyperfine flags them): ${outlying.join('; ')}.`)
  return notes
}

// Events that arrived per second of done, the median over the finished runs: a library that drops
// events is not credited with the ones it never delivered (sent / done where nothing is counted).
export function deliveredPerSec (runs) {
  const rates = runs.filter((r) => r.ok && r.doneMs > 0)
    .map((r) => (r.received ?? r.sent) / (r.doneMs / 1000))
    .filter(Number.isFinite)
  return rates.length ? median(rates) : null
}

export function detailsTable (group) {
  let warned = false
  const titled = groupCoverage(group)
  const spread = (d) => {
    if (!d) return ''
    if (d.n < 2) return withInterval(d, titled)
    const warn = d.cv > CV_WARNING
    warned ||= warn
    return `${withInterval(d, titled)} ±${cvPercent(d.cv)}${warn ? ` ${WARN}` : ''}`
  }
  if (group.figures === FIGURES.instructions) return countedDetails(group)
  // × raw from the medians, like every other figure of the table.
  const rawDone = (cpus) => group.summary.find((x) => x.lib === 'raw' && x.cpus === cpus)?.doneMs?.median
  const columns = figureColumns(['Library', 'Workers', 'Runs ok', `Unblocked ms [${intervalHeading(titled)}]`, `Done ms [${intervalHeading(titled)}]`, 'Done × raw', 'Delivered events/s', 'Peak RSS', 'Drop rate'])
  const rows = []
  for (const lib of group.libs) {
    for (const cpus of group.cpusList) {
      const s = summaryOf(group, lib, cpus)
      if (!s) continue
      const cellRuns = runsOf(group, lib, cpus)
      if (s.okRuns === 0) {
        rows.push([lib, String(cpus), s.status === 'unsupported' ? '—' : `0 of ${s.runs}`, cellReason(s, cellRuns), '—', '—', '—', '—', '—'])
        continue
      }
      rows.push([
        lib,
        String(cpus),
        `${s.okRuns} of ${s.runs}`,
        spread(s.unblockedMs),
        spread(s.doneMs),
        s.lib === 'raw' ? 'baseline' : (rawDone(cpus) && s.doneMs?.median != null ? formatRatio(s.doneMs.median / rawDone(cpus)) : 'no raw run'),
        formatCount(deliveredPerSec(cellRuns)),
        formatBytes(s.maxRssBytes?.median),
        dropOf(s, 'median')
      ])
    }
  }
  return { table: { columns, rows, notes: intervalNotes(group) }, warned }
}

// Delivery latency per cell (deliveryLatencyMs), where the group's runs recorded it (runs from
// before it have no such field: then no table, and the page is as it was).
function deliveryTable (group) {
  const runs = group.libs.flatMap((lib) => runsOf(group, lib))
  if (!runs.some((r) => r.deliveryLatencyMs !== undefined)) return null
  const titled = groupCoverage(group)
  const columns = figureColumns(['Library', 'Workers', `Delivery p50 ms [${intervalHeading(titled)}]`, `Delivery p99 ms [${intervalHeading(titled)}]`, 'Samples'])
  const rows = []
  for (const lib of group.libs) {
    for (const cpus of group.cpusList) {
      const s = summaryOf(group, lib, cpus)
      const timed = runsOf(group, lib, cpus).filter((r) => r.ok && r.deliveryLatencyMs)
      if (!s || s.okRuns === 0) continue
      if (!timed.length) {
        const note = runsOf(group, lib, cpus).find((r) => r.ok)?.deliveryLatencyNote
        rows.push([lib, String(cpus), escaped(note ?? 'not recorded'), '—', '—'])
        continue
      }
      rows.push([
        lib,
        String(cpus),
        withInterval(s.deliveryP50Ms, titled),
        withInterval(s.deliveryP99Ms, titled),
        formatCount(minOf(timed.map((r) => r.deliveryLatencyMs.samples)))
      ])
    }
  }
  // No finished run in the group: no table of titles over nothing.
  return rows.length ? { columns, rows } : null
}

// The details of counted runs: instructions per event with its interval and spread, and beside it
// what the kernel was asked to do per event (syscalls, bytes written), which the count leaves out.
function countedDetails (group) {
  // Counts spread by fractions of a per cent: the spread is shown to two decimals.
  const titled = groupCoverage(group)
  const spread = (d) => (d.n < 2 ? withInterval(d, titled, formatCount) : `${withInterval(d, titled, formatCount)} ±${(d.cv * 100).toFixed(2)}%${d.cv > CV_WARNING ? ` ${WARN}` : ''}`)
  const columns = figureColumns(['Library', 'Workers', 'Runs ok', 'Instructions/event', 'Write syscalls/event', 'Read syscalls/event', 'Bytes written/event', 'Drop rate'])
  const rows = []
  for (const lib of group.libs) {
    for (const cpus of group.cpusList) {
      const s = group.summary.find((x) => runName(x) === lib && x.cpus === cpus)
      if (!s) continue
      if (s.okRuns === 0) {
        rows.push([lib, String(cpus), s.status === 'unsupported' ? '—' : `0 of ${s.runs}`, cellReason(s, runsOf(group, lib, cpus)), '—', '—', '—', '—'])
        continue
      }
      rows.push([
        lib,
        String(cpus),
        `${s.okRuns} of ${s.runs}`,
        s.instructionsPerEvent ? spread(s.instructionsPerEvent) : '',
        syscallsFormat(s.syscallsWritePerEvent?.median),
        syscallsFormat(s.syscallsReadPerEvent?.median),
        formatNumber(s.bytesWrittenPerEvent?.median, 1),
        dropOf(s, 'median')
      ])
    }
  }
  return {
    table: { columns, rows, notes: intervalNotes(group) },
    warned: group.summary.some((s) => s.instructionsPerEvent?.cv > CV_WARNING)
  }
}
