import { cellKey, comparisonGroupKey, dimensionValue, ofType } from '../results/model.js'
import { runTypeName } from '../results/record.js'
import { compareCellRuns, roundsOf } from '../results/rounds.js'
import { median, medianInterval } from '../stats.js'
import { axisTitle, chartFile, titles } from '../draw/charts.js'
import { palette, translucent } from '../draw/colours.js'
import { escapeMarkdown, findAnomalies } from '../draw/anomalies.js'
import { formatCount, formatMs, formatPct, formatRatio, libraryName, transportTitle, unique } from '../draw/labels.js'
import { figureColumns, wrap } from '../draw/table.js'
import { countedSentences } from '../http/glance.js'

// `## Summary`, the first section of a page: a few plain sentences made from the findings that
// survive their statistics, one headline chart and a short findings table with each library as a
// multiple of the best. A library is named best only where compareRuns separates it from the next;
// otherwise the page says the first places are a tie. Everything comes from the results.

const BASELINES = new Set(['noop', 'raw', 'none'])
// Above this spread between the largest and the smallest bar, the headline chart uses a log axis:
// on a linear one the small bars would be invisible.
export const LOG_AXIS_SPAN = 20

// What a page's summary measures, per run type: the figure of a run, whether lower is better, and
// the words for it.
const MEASURES = {
  run: { value: (r) => r.doneMs, better: 'lower', title: 'time until done', unit: 'ms', format: (v) => `${formatMs(v)} ms`, best: 'fastest', axis: 'done (ms), median of the runs' },
  http: { value: (r) => r.reqPerSec?.mean, better: 'higher', title: 'requests per second', unit: 'req/s', format: (v) => `${formatCount(v)} req/s`, best: 'cheapest', axis: 'requests per second, median of the runs' }
}

// The comparisons of a page: groups of cells that differ only in the library, each cell with its
// runs' figures, median and loss, the best cell (or the tie) and each cell as a multiple of the best.
export function findings (dataset) {
  const type = dataset.runs.some((r) => runTypeName(r) === 'run') ? 'run' : 'http'
  const measure = MEASURES[type]
  // http: the route's logging under a closed loop (requests/s); the control, request loggers, fixed
  // rates (CPU per request) and counted runs have their own tables under At a glance.
  const runs = ofType(dataset.runs, type).filter((r) => !(type === 'http' && (r.mode !== 'route' || r.logsPerRequest === 0 || r.rate != null || r.measure === 'instructions')))
  const cells = new Map()
  for (const run of runs) {
    if (BASELINES.has(run.lib) || run.status === 'unsupported') continue
    const key = cellKey(run)
    if (!cells.has(key)) cells.set(key, { key, group: String(comparisonGroupKey(run)), first: run, name: libraryName(run), runs: [] })
    cells.get(key).runs.push(run)
  }
  const groups = new Map()
  for (const cell of cells.values()) {
    const ok = cell.runs.filter((r) => r.ok)
    cell.values = ok.map(measure.value).filter((v) => typeof v === 'number' && Number.isFinite(v) && v > 0)
    cell.median = cell.values.length ? median(cell.values) : null
    const expected = ok.reduce((n, r) => n + (r.expected ?? r.sent ?? 0), 0)
    const received = ok.reduce((n, r) => n + (r.received ?? 0), 0)
    cell.lost = ok.some((r) => r.received != null) && expected > 0 ? Math.max(0, expected - received) / expected : 0
    if (!groups.has(cell.group)) groups.set(cell.group, { key: cell.group, first: cell.first, cells: [] })
    groups.get(cell.group).cells.push(cell)
  }
  const versus = comparer(measure, roundsOf(dataset))
  const varying = labelFields(type, [...groups.values()].map((g) => g.first))
  const result = []
  for (const group of groups.values()) {
    group.label = groupLabel(group.first, varying)
    const measured = group.cells.filter((c) => c.median != null)
    if (measured.length < 2) continue
    const order = (a, b) => (measure.better === 'lower' ? a.median - b.median : b.median - a.median)
    const whole = measured.filter((c) => !(c.lost > 0)).sort(order)
    const lossy = measured.filter((c) => c.lost > 0).sort(order)
    group.ranked = [...whole, ...lossy]
    group.best = whole[0] ?? null
    group.tie = group.best ? whole.filter((c) => c === group.best || versus(group.best, c).verdict !== 'slower') : []
    // The only cell without loss is best by default, not by its runs.
    group.onlyWhole = whole.length === 1
    for (const cell of group.ranked) {
      cell.relative = group.best ? (measure.better === 'lower' ? cell.median / group.best.median : group.best.median / cell.median) : null
      cell.verdict = group.best && cell !== group.best ? versus(group.best, cell).verdict : null
    }
    group.fasterButLossy = group.best ? lossy.filter((c) => order(c, group.best) < 0) : lossy
    result.push(group)
  }
  return { type, measure, groups: result, runsPerCell: unique([...cells.values()].map((c) => c.values.length).filter((n) => n > 0)).sort((a, b) => a - b) }
}

// compare's comparison of one cell's runs with another's (paired by round where they ran in rounds).
function comparer (measure, roundOf) {
  return (base, other) => {
    return compareCellRuns(base.runs, other.runs, measure.value, { better: measure.better, roundOf })
  }
}

const LABEL_FIELDS = {
  run: ['transport', 'cpus', 'workload', 'runtime', 'sink', 'size', 'events', 'rate', 'ending', 'receiverRate', 'receiverStallMs'],
  http: ['transport', 'cpus', 'logsPerRequest', 'size', 'connections']
}

// The dimensions that tell the comparisons apart: the transport always, any other only where it
// varies among comparisons of one transport (a receiving end that comes with its transport is not
// named).
function labelFields (type, firsts) {
  const transports = unique(firsts.map((r) => r.transport))
  return LABEL_FIELDS[type].filter((field, i) => i === 0 || transports.some((t) => unique(firsts.filter((r) => r.transport === t).map((r) => String(dimensionValue(r, field)))).length > 1))
}

function groupLabel (record, fields) {
  return fields.map((field) => {
    const value = dimensionValue(record, field)
    if (field === 'transport') return transportTitle(value)
    if (field === 'cpus') return `${value} worker${value > 1 ? 's' : ''}`
    if (field === 'logsPerRequest') return `${value} logs/request`
    if (field === 'size') return `${value} B`
    if (field === 'events') return `${formatCount(value)} events`
    if (field === 'rate') return value == null ? 'tight loop' : `${formatCount(value)}/s`
    if (field === 'ending') return `ending ${value}`
    if (field === 'receiverRate') return value == null ? 'read at full speed' : `read at ${formatCount(value)} B/s`
    if (field === 'receiverStallMs') return value == null ? 'no stall' : `reader stalled ${formatCount(value)} ms`
    return String(value)
  }).join(', ')
}

// "pino" or "tie: pino, winston".
function bestName (group) {
  if (!group.best) return 'none without loss'
  if (group.onlyWhole) return `${group.best.name} (the only one without loss)`
  return group.tie.length > 1 ? `tie: ${group.tie.map((c) => c.name).join(', ')}` : group.best.name
}

export function summarySection (dataset, ctx) {
  const found = findings(dataset)
  if (!found.groups.length) {
    // Only counted http tables: their sentences alone.
    const counted = countedSentences(dataset)
    return { blocks: counted.length ? [{ heading: 'Summary' }, paragraph(counted.join(' '))] : [], charts: [] }
  }
  const anomalies = findAnomalies(dataset)
  const chart = { file: chartFile(ctx.summaryChart ?? 'summary'), ...headlineChart(found, ctx.conditions) }
  const blocks = [
    { heading: 'Summary' },
    paragraph(sentences(found, anomalies, dataset).join(' ')),
    ctx.image(chart.file, `Headline: ${found.measure.title} per library and comparison`),
    findingsTable(found)
  ]
  return { blocks, charts: [chart] }
}

function sentences ({ measure, groups, runsPerCell }, anomalies, dataset) {
  const out = []
  const libs = unique(groups.flatMap((g) => g.cells.map((c) => c.name)))
  const env = dataset.env
  const workers = unique(groups.map((g) => dimensionValue(g.first, 'cpus'))).sort((a, b) => a - b)
  const most = workers[workers.length - 1]
  const machine = `${workers.join(', ').replace(/, (\d+)$/, ' and $1')} worker${most > 1 ? 's' : ''} on ${env.cpuCount} core${env.cpuCount > 1 ? 's' : ''}${most > env.cpuCount ? ', so the larger counts share cores' : ''}`
  out.push(`${libs.length} ${libs.length === 1 ? 'library' : 'libraries'} compared on ${measure.title} in ${groups.length} comparison${groups.length > 1 ? 's' : ''} (${machine}), ${runsLine(runsPerCell)} per cell.`)
  const fewest = runsPerCell[0] ?? 0
  if (fewest < 5) out.push(`With ${fewest} run${fewest === 1 ? '' : 's'} ${runsPerCell.length > 1 ? 'in some cells' : 'per cell'}, intervals are wide and many comparisons read unclear: 5 runs or more are needed to call a difference.`)
  const named = groups.filter((g) => g.best && g.tie.length === 1 && !g.onlyWhole)
  const alone = groups.filter((g) => g.onlyWhole)
  const ties = groups.filter((g) => g.tie.length > 1)
  const counts = new Map()
  for (const g of named) counts.set(g.best.name, (counts.get(g.best.name) ?? 0) + 1)
  const winners = [...counts].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} in ${n}`)
  if (named.length) out.push(`Where the runs separate the ${measure.best} from the next, it is ${winners.join(', ')} of the ${groups.length}.`)
  else out.push(`In no comparison do the runs separate the ${measure.best} from the next.`)
  const rest = []
  if (ties.length) rest.push(`in ${ties.length} the first places are a tie (the runs cannot tell them apart)`)
  if (alone.length) rest.push(`in ${alone.length} only one library delivered every event (${unique(alone.map((g) => g.best.name)).join(', ')})`)
  if (rest.length) out.push(`${rest.join('; ').replace(/^i/, 'I')}.`)
  const lossy = groups.flatMap((g) => g.ranked.filter((c) => c.lost > 0).map((c) => ({ c, g }))).sort((a, b) => b.c.lost - a.c.lost)
  if (lossy.length) {
    const shown = lossy.slice(0, 3).map(({ c, g }) => `${c.name} on ${g.label} (${formatPct(c.lost)})`)
    out.push(`${lossy.length} cell${lossy.length > 1 ? 's' : ''} lost events, most ${shown.join(', ')}${lossy.length > 3 ? ` and ${lossy.length - 3} more` : ''}: a cell that lost events is never named ${measure.best}, and its bar is drawn pale and marked "lossy".`)
  }
  if (anomalies.length) out.push(`${anomalies.length} pattern${anomalies.length > 1 ? 's' : ''} in the runs ${anomalies.length > 1 ? 'are' : 'is'} explained under Anomalies below.`)
  // What the counted tables (the same on any machine) say, whatever the closed loop could not.
  return [...out.slice(0, 6), ...countedSentences(dataset)]
}

// Sentences with names from the results in them: escaped on the page, as they are in the terminal.
const paragraph = (text) => ({ text: { markdown: escapeMarkdown(text), plain: text } })

function runsLine (counts) {
  if (!counts.length) return 'no runs'
  const [low, high] = [counts[0], counts[counts.length - 1]]
  return low === high ? `${low} run${low === 1 ? '' : 's'}` : `${low} to ${high} runs`
}

// One row per comparison: the best (or the tie), its median, and every other library as a multiple
// of it with compare's verdict against it.
function findingsTable ({ measure, groups }) {
  const columns = figureColumns(['Comparison', measure.best === 'fastest' ? 'Fastest' : 'Cheapest', 'Median', `× the ${measure.best} (verdict)`])
  const rows = groups.map((g) => [
    g.label,
    bestName(g),
    g.best ? measure.format(g.best.median) : '—',
    g.ranked.filter((c) => c !== g.best).map((c) => `${c.name} ${c.relative == null ? measure.format(c.median) : formatRatio(c.relative)}${c.lost > 0 ? ` lossy ${formatPct(c.lost)}` : c.verdict ? ` ${c.verdict}` : ''}`).join('; ')
  ])
  return { columns, rows }
}

// A log axis labels 1, 2 and 5 times each power of ten, no more: the other gridlines stay bare.
function logTick (value) {
  const leading = value / 10 ** Math.floor(Math.log10(value) + 1e-9)
  return [1, 2, 5].some((d) => Math.abs(leading - d) < 1e-6) ? value.toLocaleString('en-US') : ''
}

// Bars per comparison, one per library in its colour; a log axis where the bars span more than
// LOG_AXIS_SPAN; a cell that lost events pale, outlined and marked "lossy".
export function headlineChart ({ measure, groups }, conditions) {
  const libs = unique(groups.flatMap((g) => g.cells.map((c) => c.name)))
  const colours = palette(libs)
  const values = groups.flatMap((g) => g.cells.map((c) => c.median)).filter((v) => v > 0)
  const span = Math.max(...values) / Math.min(...values)
  const log = span > LOG_AXIS_SPAN
  const datasets = libs.map((name) => {
    const cells = groups.map((g) => g.cells.find((c) => c.name === name))
    return {
      label: name,
      backgroundColor: cells.map((c) => (c?.lost > 0 ? translucent(colours.get(name), 0.25) : colours.get(name))),
      borderColor: colours.get(name),
      borderWidth: cells.map((c) => (c?.lost > 0 ? 2 : 0)),
      data: cells.map((c) => c?.median ?? null),
      // The median's interval over the runs (its coverage is the findings table's).
      errorBars: cells.map((c) => {
        if (!c?.values?.length) return null
        const { low, high } = medianInterval(c.values)
        return low == null ? null : [low, high]
      }),
      barNotes: cells.map((c) => (c?.lost > 0 ? `lossy ${formatPct(c.lost)}` : null))
    }
  })
  // What every comparison shares (10,000 events, no stall) is said once under the title, not under each group.
  const parts = groups.map((g) => g.label.split(', '))
  const shared = groups.length > 1 ? parts[0].filter((part) => parts.every((list) => list.includes(part))) : []
  const longestWord = Math.max(...parts.flat().flatMap((part) => part.split(' ')).map((word) => word.length))
  const width = Math.max(1000, Math.min(2400, 120 + groups.length * Math.max(libs.length * 16, longestWord * 7 + 12)))
  // A label's lines fit its group's band (about 7 px a character at the chart's tick size).
  const fit = Math.max(8, Math.floor((width - 120) / groups.length / 7))
  const labels = parts.map((list) => {
    const own = list.filter((part) => !shared.includes(part))
    return (own.length ? own : list).flatMap((part) => wrap(part, fit, { cutWords: false }).split('\n'))
  })
  // Headroom above the highest whisker for a "lossy" note (about 70 px of rotated text).
  const top = Math.max(...datasets.flatMap((d) => [...d.data, ...d.errorBars.map((range) => range?.[1])]).filter((v) => v > 0))
  const noted = datasets.some((d) => d.barNotes.some(Boolean))
  const notes = [['median of each cell\'s runs', ...(shared.length ? [shared.join(', ')] : []), measure.better === 'lower' ? 'lower is better' : 'higher is better', log ? `log axis (the bars span ${Math.round(span)}×)` : 'linear axis'].join(' · '), ['whiskers: the median\'s interval', ...(noted ? ['pale bars marked "lossy": the share of events the cell lost'] : [])].join(' · '), conditions]
  return {
    width,
    height: 560,
    config: {
      type: 'bar',
      data: { labels, datasets },
      options: {
        // A comparison draws only the libraries it has: no empty slots for the others.
        skipNull: true,
        plugins: titles(`${measure.title[0].toUpperCase()}${measure.title.slice(1)} per library`, notes),
        scales: {
          x: { ticks: { maxRotation: 0, autoSkip: false } },
          y: log ? { type: 'logarithmic', max: top * (noted ? 4 : 1.2), title: axisTitle(`${measure.axis}, log scale`), ticks: { callback: logTick } } : { beginAtZero: true, suggestedMax: top * (noted ? 1.35 : 1.05), title: axisTitle(measure.axis) }
        }
      }
    }
  }
}
