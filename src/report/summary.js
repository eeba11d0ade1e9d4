import { cellKey, cellWords, COMPARED_DIMENSIONS, comparisonGroupKey, dimensionValue, measureNamed, ofType, varyingDimensions } from '../results/model.js'
import { runTypeName } from '../results/record.js'
import { roundsOf } from '../results/rounds.js'
import { timesWorse } from '../results/judge/verdict.js'
import { rank } from '../results/judge/rank.js'
import { DEFAULT_ALPHA, maxOf, median, medianInterval, minOf, smallestMannWhitneyP } from '../stats.js'
import { barChart, chartFile, logAxis, logTicks, zeroAxis } from '../draw/charts.js'
import { palette, translucent } from '../draw/colours.js'
import { bimodal, escapeMarkdown, findAnomalies } from '../results/judge/anomalies.js'
import { basisWords, formatCount, formatMs, formatPct, formatRatio, libraryName, mediansRatioNote, orderWords, ratioInterval, unique, verdictWord } from '../draw/labels.js'
import { figureColumns, wrap } from '../draw/table.js'
import { controlsByTable, countedSentences, tableOf } from './http/glance.js'
import { summarizeHttp } from '../results/http-summary.js'
import { notDecidedBimodal, notDecidedControl, notRanked, shortReason } from '../results/judge/verdict-rules.js'
import { keptSentences } from './run/durability-section.js'
import { transportIs } from '../engine/transports.js'
import { BASELINE_LIBS } from '../engine/library-names.js'

// `## Summary`, the first section of a page: a few plain sentences made from the findings that
// survive their statistics, one headline chart and a short findings table with each library as a
// multiple of the best. A library is named best only where the verdict (judge, src/results/judge/verdict.js)
// separates it from every other; the libraries it does not separate from the first are named as
// not separated from it, on how many runs, and each multiple is the estimate its verdict was judged
// on (paired where the runs pair). Everything comes from the results.

// Above this spread between the largest and the smallest bar, the headline chart uses a log axis:
// on a linear one the small bars would be invisible.
export const LOG_AXIS_SPAN = 20

// What a page's summary measures, per run type: the figure of a run, whether lower is better, and
// the words for it.
const MEASURES = {
  run: { field: 'doneMs', value: (r) => r.doneMs, better: 'lower', title: 'time until done', unit: 'ms', format: (v) => `${formatMs(v)} ms`, best: 'fastest', axis: 'done (ms), median of the runs' },
  http: { field: 'reqPerSec', value: (r) => r.reqPerSec?.mean, better: 'higher', title: 'requests per second', unit: 'req/s', format: (v) => `${formatCount(v)} req/s`, best: 'cheapest', axis: 'requests per second, median of the runs' }
}

// The comparisons of a page: groups of cells that differ only in the library, each cell with its
// runs' figures, median and loss, the best cell and those not separated from it (`firsts`), and each
// cell as a multiple of the best: the estimate of its comparison with the best (`comparison`).
export function findings (dataset) {
  const type = dataset.runs.some((r) => runTypeName(r) === 'run') ? 'run' : 'http'
  const measure = MEASURES[type]
  // http: the route's logging under a closed loop (requests/s); the control, request loggers, fixed
  // rates (CPU per request) and counted runs have their own tables under At a glance.
  const runs = ofType(dataset.runs, type).filter((r) => !(type === 'http' && (r.mode !== 'route' || r.logsPerRequest === 0 || r.rate != null || r.measure === 'instructions')))
  const cells = new Map()
  const unsupported = new Map()
  for (const run of runs) {
    if (BASELINE_LIBS.has(run.lib)) continue
    if (run.status === 'unsupported') {
      const group = String(comparisonGroupKey(run))
      if (!unsupported.has(group)) unsupported.set(group, new Set())
      unsupported.get(group).add(libraryName(run))
      continue
    }
    const key = cellKey(run)
    if (!cells.has(key)) {
      cells.set(key, { key, group: String(comparisonGroupKey(run)), first: run, name: libraryName(run), runs: [] })
    }
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
  const roundOf = roundsOf(dataset)
  // The verdict of one cell's runs against another's, on the page's measure as the schema defines
  // it (its noise: requests/s ±5%), paired by round where they ran in rounds.
  const judged = measureNamed(type, measure.field)
  // http: a table whose control (0 logs per request) does not read same decides nothing.
  const controls = type === 'http' ? controlsByTable(summarizeHttp(ofType(dataset.runs, 'http'), { roundOf })) : null
  const result = []
  for (const group of groups.values()) {
    const ranking = rank(group.cells, { measure: judged, runsOf: (c) => c.runs, lostOf: (c) => c.lost, roundOf })
    if (ranking.ranked.length < 2) continue
    group.ranked = ranking.ranked
    group.unsupported = [...(unsupported.get(group.key) ?? [])]
    group.best = ranking.best
    group.firsts = ranking.firsts
    // The only cell without loss is best by default, not by its runs.
    group.onlyWhole = ranking.whole.length === 1
    // The one rule (verdict-rules.js): no ranking where the control failed, where a kill ended the
    // runs, or where the first places' runs fall in two groups.
    const control = controls?.get(tableOf(group.first))
    group.undecided = (control && notDecidedControl(control)) ||
      notRanked(group.cells) ||
      (group.best ? notDecidedBimodal(group.firsts, measure.value) : null)
    if (group.undecided) {
      group.best = null
      group.firsts = []
      group.onlyWhole = false
    }
    for (const cell of group.ranked) {
      cell.comparison = group.best && cell !== group.best ? ranking.versus(cell) : null
      cell.times = cell === group.best ? { ratio: 1 } : timesWorse(cell.comparison, measure.better)
      cell.relative = cell.times?.ratio ?? null
      cell.verdict = cell.comparison?.verdict ?? null
      // A cell whose runs fall in two groups gets no verdict: its median describes neither.
      if (cell.verdict && bimodal(cell.values)) cell.verdict = 'runs in two groups'
    }
    result.push(group)
  }
  // Named by what tells apart the comparisons with a figure of this measure (a counted group has
  // no time to compare, so it names nothing "timed").
  const measuredGroups = [...groups.values()].filter((g) => g.cells.some((c) => c.median != null))
  const varying = labelFields(measuredGroups.map((g) => g.first))
  for (const group of result) group.label = cellWords(group.first, varying)
  return {
    type,
    measure,
    groups: result,
    runsPerCell: unique([...cells.values()].map((c) => c.values.length).filter((n) => n > 0)).sort((a, b) => a - b)
  }
}

// A comparison's label: its transport, and whatever else tells it apart from the comparisons of
// the same transport (a receiving end that comes with its transport is not named). What tells the
// cells of one comparison apart (the library) is not the comparison's.
function labelFields (firsts) {
  const apart = [...COMPARED_DIMENSIONS, 'libVersion']
  return varyingDimensions(firsts, { always: ['transport'], within: ['transport'] }).filter((field) => !apart.includes(field))
}

// "pino", or "pino (not separated from winston)" where the runs do not separate the first places.
function bestName (group) {
  if (group.undecided) return shortReason(group.undecided)
  if (!group.best) return 'none without loss'
  if (group.onlyWhole) return `${group.best.name} (the only one without loss)`
  const close = group.firsts.filter((c) => c !== group.best)
  return close.length ? `${group.best.name} (not separated from ${list(close.map((c) => c.name))})` : group.best.name
}

export function summarySection (dataset, ctx) {
  const found = findings(dataset)
  if (!found.groups.length) {
    // Only counted http tables: their sentences alone.
    const counted = countedSentences(dataset)
    return { blocks: counted.length ? [{ heading: 'Summary' }, summaryText(counted.map((text) => ({ text })))] : [], charts: [] }
  }
  const anomalies = findAnomalies(dataset)
  const chart = { file: chartFile(ctx.summaryChart ?? 'summary'), ...headlineChart(found, ctx.conditions) }
  const blocks = [
    { heading: 'Summary' },
    summaryText(sentences(found, anomalies, dataset)),
    ctx.image(chart.file, `Headline: ${found.measure.title} per library and comparison`),
    findingsTable(found)
  ]
  return { blocks, charts: [chart] }
}

// An anomaly's pattern in a few words, for the Summary's pointer to the Anomalies section.
const PATTERN_WORDS = {
  'constant-loss': 'the same loss in every run',
  loss: 'losses that differ from run to run',
  bimodal: 'runs in two groups',
  'slow-transport': 'far slower on one transport only',
  'done-late': 'first to unblock, late to done',
  'slow-runtime': 'slower under another runtime',
  'round-drift': 'every cell moved in some rounds',
  'round-drift-partial': 'part of a round slowed',
  'costly-disabled': 'costly calls at a disabled level',
  'slower-release': 'slower than an earlier release',
  owner: 'its profile\'s largest owner has a known cause'
}

// At most this many words in a Summary: a reader takes it in beside its table; every figure stays
// in the tables below it. Words are what whitespace separates (a figure such as 4,540 ms is two).
export const SUMMARY_WORDS = 150
const MORE = 'Every comparison is in the table below.'
export const wordCount = (text) => text.split(/\s+/).filter(Boolean).length

// What a reader should take away, as a short list in words with figures: per comparison who is
// first and by how much (or why nothing is decided), who lost events where, per run and pooled,
// then the anomalies. Each sentence has a priority; the most important fill SUMMARY_WORDS, in page
// order, and where some are left out the last item says the table has every comparison.
function sentences (found, anomalies, dataset) {
  const { measure, groups, runsPerCell } = found
  const items = []
  const add = (priority, text) => items.push({ priority, text, order: items.length })
  // A page of endings says what each ending kept; its losses are that list, not a second one.
  const kept = keptSentences(ofType(dataset.runs, 'run'), { brief: true })
  for (const text of kept) add(0, text)
  const fewest = runsPerCell[0] ?? 0
  // Runs too few for any verdict (n + n runs cannot reach p < α: 3 + 3 give 0.1) are said to be.
  if (fewest > 0 && smallestMannWhitneyP(fewest, fewest) >= DEFAULT_ALPHA) add(1, `With ${fewest} run${fewest === 1 ? '' : 's'} ${runsPerCell.length > 1 ? 'in some cells' : 'per cell'}, no comparison of ${runsPerCell.length > 1 ? 'those cells' : 'a cell'} can be decided: ${fewest} + ${fewest} runs cannot reach p < ${DEFAULT_ALPHA} (4 + 4 can; from 6 rounds they pair).`)
  const undecided = new Map()
  for (const g of groups) {
    if (g.undecided) {
      if (!undecided.has(g.undecided)) undecided.set(g.undecided, [])
      undecided.get(g.undecided).push(g)
      continue
    }
    const text = groupSentence(g, measure)
    if (text) add(g.firsts.length > 1 ? 3 : 2, text)
  }
  for (const [reason, list] of undecided) add(4, `${list.map((g) => g.label).join('; ')}: ${reason}.`)
  for (const text of kept.length ? [] : lossSentences(found, dataset, anomalies)) add(1, text)
  const odd = anomalies.filter((a) => a.pattern !== 'constant-loss' || !dimensionValue(a.cell, 'ending') || dimensionValue(a.cell, 'ending') === 'close')
  if (odd.length) add(5, `Anomalies below: ${odd.slice(0, 2).map((a) => `${a.where} (${PATTERN_WORDS[a.pattern] ?? a.pattern})`).join('; ')}${odd.length > 2 ? `; ${odd.length - 2} more` : ''}.`)
  for (const text of countedSentences(dataset)) add(1, text)
  const chosen = []
  let used = wordCount(MORE)
  for (const item of [...items].sort((x, y) => x.priority - y.priority || x.order - y.order)) {
    const words = wordCount(item.text)
    if (used + words > SUMMARY_WORDS) continue
    chosen.push(item)
    used += words
  }
  const out = chosen.sort((x, y) => x.order - y.order)
  if (chosen.length < items.length) out.push({ text: MORE })
  return out
}

// The sentences as a short list, escaped on the page as they are in the terminal.
function summaryText (sentences) {
  const texts = sentences.map((s) => s.text)
  return { text: { markdown: texts.map((t) => `- ${escapeMarkdown(t)}`).join('\n'), plain: texts.join('\n') } }
}

// "Filesystem, 1 worker: bunyan fastest (643 ms); pino 1.12× as long, winston 1.71×, log4js 13.5×."
// Where the runs do not separate the first places: "Console, 8 workers: pino first by median
// (23,541 ms); bunyan 1.49× as long, not separated on 5 + 5 runs, unpaired (slower in each of 5
// rounds); …". Each multiple is the estimate of the cell's verdict against the first. The only cell
// that delivered every event is named with its pace beside it, and the lossy cells' paces: a sender
// that feeds a receiver more slowly may lose less for that alone.
function groupSentence (g, measure) {
  if (!g.best) return null
  const unit = measure.better === 'higher' ? ' fewer requests/s' : ' as long'
  const close = g.firsts.filter((c) => c !== g.best)
  if (g.onlyWhole) {
    const lossy = g.ranked.filter((c) => c.lost > 0)
    const paced = pace(g.best)
    if (paced == null) return `${g.label}: only ${g.best.name} delivered every event (${measure.format(g.best.median)}).`
    const others = lossy.filter((c) => pace(c) != null).map((c) => `${c.name} ${formatCount(pace(c))}/s`)
    return `${g.label}: only ${g.best.name} delivered every event, sending ${formatCount(paced)} events/s${others.length ? ` (lossy: ${others.join(', ')})` : ''}.`
  }
  const first = `${g.best.name} ${close.length ? 'first by median' : measure.best} (${measure.format(g.best.median)})`
  const notSeparated = close.map((c, i) => {
    const order = [mediansOf(c, measure), orderWords(c.comparison)].filter(Boolean).join('; ')
    return `${c.name} ${formatRatio(c.relative)}${i === 0 ? unit : ''}, not separated on ${basisWords(c.comparison)}${order ? ` (${order})` : ''}`
  })
  const rest = g.ranked.filter((c) => !g.firsts.includes(c) && c !== g.best && !(c.lost > 0))
  const others = rest.map((c, i) => {
    const notes = [c.verdict && c.verdict !== 'slower' ? verdictWord(c.verdict) : null, mediansOf(c, measure)].filter(Boolean).join('; ')
    return `${c.name} ${formatRatio(c.relative)}${i === 0 && !close.length ? unit : ''}${notes ? ` (${notes})` : ''}`
  })
  return `${g.label}: ${[first, ...notSeparated, others.join(', ')].filter(Boolean).join('; ')}.`
}

// Beside a multiple that is a per-round estimate, the medians' ratio where it differs visibly, labelled
// (the bars and the Median column are medians): "medians' ratio 1.12×".
function mediansOf (cell, measure) {
  return mediansRatioNote(cell.comparison, (v) => (measure.better === 'higher' ? 1 / v : v))
}

// A cell's pace: the median of its finished runs' events sent per second until done; null where
// not recorded (an HTTP cell).
export function pace (cell) {
  const rates = cell.runs.filter((r) => r.ok).map((r) => r.eventsPerSec).filter((v) => typeof v === 'number' && v > 0)
  return rates.length ? median(rates) : null
}

// The receiving socket's own drop counter over the run: `receiverDrops` where recorded, else the
// count an earlier log-bench read from /proc/net/udp (`receiverSocketDrops`); null where neither is.
export function receiverDrops (run) {
  if (typeof run.receiverDrops === 'number') return run.receiverDrops
  if (typeof run.receiverSocketDrops === 'number') return run.receiverSocketDrops
  return null
}

const list = (names) => names.join(', ').replace(/, ([^,]+)$/, ' and $1')

// Who lost events where, one sentence per comparison, the largest loss first: each cell's share
// pooled and per run, where it was lost (at the receiving socket, on the same machine, or before it),
// and the cause where the data shows it: `raw`, the plainest sender, losing events in the same
// comparison means the receiving end does not keep up with the load.
function lossSentences ({ groups }, dataset, anomalies) {
  const lossy = groups.map((g) => ({ g, cells: g.ranked.filter((c) => c.lost > 0).sort((x, y) => y.lost - x.lost) }))
    .filter((e) => e.cells.length)
    .sort((x, y) => y.cells[0].lost - x.cells[0].lost)
  if (!lossy.length) return []
  const rawRuns = new Map()
  for (const run of ofType(dataset.runs, 'run').filter((r) => r.lib === 'raw' && r.ok && r.received != null)) {
    const key = String(comparisonGroupKey(run))
    if (!rawRuns.has(key)) rawRuns.set(key, [])
    rawRuns.get(key).push(run)
  }
  const whereOf = whereLost
  const out = lossy.slice(0, 3).map(({ g, cells }) => {
    const wheres = cells.map(whereOf)
    const same = wheres.every((w) => w === wheres[0])
    const named = cells.map((c, i) => `${c.name} ${lossPerRun(c.runs, c.lost, wheres[i].startsWith('at the'))}${!same && wheres[i] ? ` (${wheres[i]})` : ''}`)
    const raw = rawRuns.get(g.key) ?? []
    const rawLost = raw.reduce((n, r) => n + lostOf(r), 0)
    const known = cells.filter((c) => anomalies.some((a) => a.explanation && a.cell && cellKey(a.cell) === c.key))
    const cause = rawLost > 0
      ? `raw, the plainest sender, lost ${lossPerRun(raw, rawLost / raw.reduce((n, r) => n + expectedOf(r), 0), false)} there too: the receiver does not keep up`
      : known.length === cells.length ? 'cause under Anomalies' : known.length ? `cause under Anomalies for ${named.length > 1 ? known.map((c) => c.name).join(', ') : 'it'}, not known yet for the rest` : 'cause not known yet'
    return `${g.label}: lost ${same && wheres[0] ? `${wheres[0]}: ` : ''}${named.join('; ')}; ${cause}.`
  })
  if (lossy.length > 3) out.push(`Events lost in ${lossy.length - 3} more comparison${lossy.length - 3 > 1 ? 's' : ''}: see the table.`)
  return out
}

// Where a cell's events were lost: at the receiving socket (its own drop counter holds them all),
// before the receiver (none there; a TCP stream is not dropped at the socket), part at each, or ''
// where a run did not record it.
export function whereLost (cell) {
  const ok = cell.runs.filter((r) => r.ok && r.received != null)
  const lost = ok.reduce((n, r) => n + lostOf(r), 0)
  if (!ok.every((r) => receiverDrops(r) != null || transportIs(r.transport, 'socketDrops', 'none'))) return ''
  const atSocket = ok.reduce((n, r) => n + (receiverDrops(r) ?? 0), 0)
  return atSocket >= lost ? 'at the receiving socket, on this machine' : atSocket === 0 ? 'before the receiver' : `${formatPct(atSocket / lost)} of it at the receiving socket`
}

const expectedOf = (r) => r.expected ?? r.sent
const lostOf = (r) => Math.max(0, expectedOf(r) - r.received)

// A cell's loss pooled and per run: at a receiver (paced: where a sender's pace matters), "4.25%
// pooled: 0.00% in its slowest run, 10.11% in a faster one" where its most lossy run was faster than
// its slowest; else "9.89% pooled, 5.39%–15.96% by run"; "87.20% in every run" where they agree.
export function lossPerRun (runs, pooled, paced) {
  const ok = runs.filter((r) => r.ok && r.received != null && expectedOf(r) > 0)
  if (ok.length < 2) return formatPct(pooled)
  const share = (r) => lostOf(r) / expectedOf(r)
  const shares = ok.map(share)
  const low = minOf(shares)
  const high = maxOf(shares)
  if (formatPct(low) === formatPct(high)) return `${formatPct(high)} in every run`
  const slowest = ok.reduce((a, b) => ((b.doneMs ?? 0) > (a.doneMs ?? 0) ? b : a))
  const most = ok.reduce((a, b) => (share(b) > share(a) ? b : a))
  if (paced && most !== slowest && share(slowest) < share(most)) return `${formatPct(pooled)} pooled: ${formatPct(share(slowest))} in its slowest run, ${formatPct(share(most))} in a faster one`
  return `${formatPct(pooled)} pooled, ${formatPct(low)}–${formatPct(high)} by run`
}

// One row per comparison: the best (and those not separated from it), its median, and every other
// library as a multiple of it, the estimate with its interval, and the verdict against it.
function findingsTable ({ measure, groups }) {
  // The best and the multiples are words, which the HTML page wraps (as one-line figures they
  // pushed the table past a 1,300-pixel window); the markdown and terminal tables keep their shape.
  const words = (column) => ({ ...column, words: true })
  const columns = figureColumns(['Comparison', measure.best === 'fastest' ? 'Fastest' : 'Cheapest', 'Median', `× the ${measure.best} (verdict)`])
    .map((column, i) => (i === 1 || i === 3 ? words(column) : column))
  const rows = groups.map((g) => [
    g.label,
    bestName(g),
    g.best ? measure.format(g.best.median) : '—',
    // Not decided: the figures in the order of the names, so that their order reads as no ranking.
    [...(g.undecided ? [...g.ranked].sort((a, b) => a.name.localeCompare(b.name)) : g.ranked)
      .filter((c) => c !== g.best).map((c) => otherCell(c, measure)),
    ...g.unsupported.map((name) => `${name} unsupported`)].join('; ')
  ])
  return { columns, rows }
}

// A cell beside the best: its multiple (the verdict's estimate, with its interval) and verdict; a
// lossy cell or one without a multiple by its median. The table shows no other median than the
// best's, so no medians' ratio is there to divide: the sentences above it label one where it differs.
function otherCell (c, measure) {
  if (c.lost > 0 || c.relative == null) return `${c.name} ${measure.format(c.median)}${c.lost > 0 ? ` lossy ${formatPct(c.lost)}` : c.verdict ? ` ${verdictWord(c.verdict)}` : ''}`
  return `${c.name} ${formatRatio(c.relative)}${ratioInterval(c.times)}${c.verdict ? ` ${verdictWord(c.verdict)}` : ''}`
}

// Bars per comparison, one per library in its colour; a log axis where the bars span more than
// LOG_AXIS_SPAN; a cell that lost events pale, outlined and marked "lossy".
export function headlineChart ({ measure, groups }, conditions) {
  const libs = unique(groups.flatMap((g) => g.cells.map((c) => c.name)))
  const colours = palette(libs)
  const values = groups.flatMap((g) => g.cells.map((c) => c.median)).filter((v) => v > 0)
  const span = maxOf(values) / minOf(values)
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
  const longestWord = maxOf(parts.flat().flatMap((part) => part.split(' ')).map((word) => word.length))
  const width = Math.max(1000, Math.min(2400, 120 + groups.length * Math.max(libs.length * 16, longestWord * 7 + 12)))
  // A label's lines fit its group's band (about 7 px a character at the chart's tick size).
  const fit = Math.max(8, Math.floor((width - 120) / groups.length / 7))
  // A library the comparison could not run, or whose every run failed, is named under its label: no
  // bar is not a fast bar.
  const labels = parts.map((list, i) => {
    const own = list.filter((part) => !shared.includes(part))
    const unsupported = groups[i].unsupported?.length ? [`${groups[i].unsupported.join(', ')}: unsupported`] : []
    const failed = (groups[i].cells ?? []).filter((c) => c.median == null).map((c) => c.name)
    const notFinished = failed.length ? [`${failed.join(', ')}: did not finish`] : []
    return [...(own.length ? own : list), ...unsupported, ...notFinished].flatMap((part) => wrap(part, fit, { cutWords: false }).split('\n'))
  })
  // Headroom above the highest whisker for a "lossy" note (about 70 px of rotated text).
  const top = maxOf(datasets.flatMap((d) => [...d.data, ...d.errorBars.map((range) => range?.[1])])
    .filter((v) => v > 0))
  const noted = datasets.some((d) => d.barNotes.some(Boolean))
  const notes = [['median of each cell\'s runs', ...(shared.length ? [shared.join(', ')] : []), measure.better === 'lower' ? 'lower is better' : 'higher is better', log ? `log axis (the bars span ${Math.round(span)}×)` : 'linear axis'].join(' · '), ['whiskers: the median\'s interval', ...(noted ? ['pale bars marked "lossy": the share of events the cell lost'] : [])].join(' · '), conditions]
  return barChart({
    width,
    height: 560,
    title: `${measure.title[0].toUpperCase()}${measure.title.slice(1)} per library`,
    notes,
    labels,
    datasets,
    scales: {
      x: { ticks: { maxRotation: 0, autoSkip: false } },
      y: log
        ? logAxis(`${measure.axis}, log scale`, { max: top * (noted ? 4 : 1.2), ticks: { callback: logTicks(minOf(values), top * (noted ? 4 : 1.2)) } })
        : zeroAxis(measure.axis, { suggestedMax: top * (noted ? 1.35 : 1.05) })
    },
    // A comparison draws only the libraries it has: no empty slots for the others.
    options: { skipNull: true }
  })
}
