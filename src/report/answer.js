import { comparisonGroupKey, cellKey, dimensionValue, inPlanOrder, ofType, runTypeOf } from '../results/model.js'
import { BASELINE_LIBS } from '../engine/library-names.js'
import { DEFAULT_ALPHA, DEFAULT_NOISE, maxOf } from '../stats.js'
import { roundsOf } from '../results/rounds.js'
import { rank } from '../results/judge/rank.js'
import { compareWithBaseline, MEASURES } from './compare.js'
import { basisOf } from '../results/http-summary.js'
import { cellTitle } from './http/tables.js'
import { groupsOf } from './run/section.js'
import { coverageRange, workersLabel, estimateNote, formatCountedDifference, libraryName, notDecidedWords, runName, transportTitle, unique } from '../draw/labels.js'
import { visibleControls, wrap } from '../draw/table.js'
import { displayWidth, padToWidth } from '../draw/width.js'
import { notDecidedBimodal, notRanked } from '../results/judge/verdict-rules.js'
import { kneesOf, kneeText } from './run/latency-section.js'
import { lossOf } from './run/glance.js'
import { KNEE_BOUND_NS } from '../results/judge/knee.js'

// The closing answer of `run` and `http` (and of `report --format terminal`), in hyperfine's manner:
// per comparison group the fastest (or cheapest) library, then every other one as how many times
// slower or faster than it, with the ratio's interval and the verdict. Every figure is a row of
// compareWithBaseline (what `compare --baseline` prints), the group's fastest as the baseline: no
// second comparison. The measure is the one a verdict rests on: done for `run`, the steady state's
// response p99 for paced runs, instructions per event for counted runs; for `http` requests/s, the
// server's CPU µs per request under --rate, or its instructions per request when counted (basisOf).

function measureOf (run) {
  const type = runTypeOf(run)?.name
  const field = type === 'http'
    ? basisOf(run).field
    : dimensionValue(run, 'measure') === 'instructions'
      ? 'instructionsPerEvent'
      // Paced, done is set by the pacer (events ÷ rate): what a paced run answers is the steady
      // state's response time.
      : run.rate != null ? 'responseP99Ns' : 'doneMs'
  return MEASURES[type]?.find((m) => m.measure === field) ?? null
}

// A group's name: an http cell's title (its load), or the run section's group title (transport and
// whatever else sets the transport's groups apart) with the workers.
function groupNamer (dataset) {
  const runs = ofType(dataset.runs, 'run')
  const titles = new Map()
  for (const group of groupsOf(runs, ofType(dataset.summary ?? [], 'run'))) {
    for (const run of group.runs) titles.set(cellKey(run), group.title)
  }
  return (first) => (runTypeOf(first).name === 'http' ? cellTitle(first) : `${titles.get(cellKey(first))}, ${workersLabel(first.cpus)}`)
}

const NOTHING_FINISHED = 'no run of this group finished, so no library can be ranked'
// Why a cell has no finished run: its first run's error, or its runs' status.
const failureOf = (cellRuns) => {
  const failed = cellRuns.find((r) => r.error)
  return failed ? `no finished run (${String(failed.error).split('\n')[0].slice(0, 200)})` : 'no finished run'
}

const nameOf = (run) => `${libraryName(run)}${run.middleware ? ` (${run.middleware})` : ''}`

// ranked: the group's cells, fastest first. Two groups of runs matter where a fastest is named: in
// the first two libraries (baselines aside), as on the pages' first places.
function withheldReason (ranked, measure) {
  const named = (cells) => cells.map((cellRuns) => ({ name: nameOf(cellRuns[0]), runs: cellRuns }))
  const first = ranked.filter((cellRuns) => !BASELINE_LIBS.has(cellRuns[0].lib)).slice(0, 2)
  return notRanked(named(ranked)) ?? notDecidedBimodal(named(first), measure.value)
}

// The answer as data (run and http print it; --json prints it as it is): { alpha, noise, groups:
// [{ group, type, measure, title, better, counted, reference: { library, median, n } | null, rows:
// [compare's row for the measure + library, times, low, high, direction], notCompared, withheld:
// why no library may be ranked on these runs, or null }] }.
// times [low, high]: how many times slower (direction 'slower': a time, an instruction count, or
// the reference's requests/s over the library's) or faster than the reference; the interval is the
// ratio's, turned the same way.
export function closingAnswer (dataset, { alpha = DEFAULT_ALPHA, noise = DEFAULT_NOISE } = {}) {
  const byGroup = new Map()
  for (const run of inPlanOrder(dataset.runs)) {
    if (!measureOf(run)) continue
    const key = comparisonGroupKey(run)
    if (!byGroup.has(key)) byGroup.set(key, [])
    byGroup.get(key).push(run)
  }
  const groupName = groupNamer(dataset)
  const roundOf = roundsOf(dataset)
  const groups = []
  for (const runs of byGroup.values()) {
    const measure = measureOf(runs[0])
    const cells = new Map()
    for (const run of runs) {
      if (!cells.has(cellKey(run))) cells.set(cellKey(run), [])
      cells.get(cellKey(run)).push(run)
    }
    // The fastest library (rank), baselines (noop, raw, none) aside unless the group holds nothing
    // else, among the cells that delivered every event, as At a glance names it: finishing first by
    // dropping events is not being fast. Where every library lost some, the fastest of them.
    const libraries = [...cells.values()].filter((cellRuns) => !BASELINE_LIBS.has(cellRuns[0].lib))
    const lostOf = (cellRuns) => lossOf(cellRuns)?.share
    const rankOf = (list) => rank(list, { measure: measure.judged, runsOf: (c) => c, lostOf, roundOf, alpha, noise })
    const ranking = rankOf(libraries)
    const all = rankOf([...cells.values()])
    const measured = all.ranked
    const reference = ranking.best ?? ranking.ranked[0] ?? all.ranked[0] ?? null
    const entry = {
      group: groupName(runs[0]),
      type: runTypeOf(runs[0]).name,
      measure: measure.measure,
      title: measure.title,
      better: measure.better,
      counted: dimensionValue(runs[0], 'measure') === 'instructions',
      reference: reference
        ? { library: nameOf(reference[0]), median: all.median(reference), n: reference.filter((r) => r.ok).length }
        : null,
      // A library that lost events is faster, so the reference is the fastest of those that lost none.
      passedOver: ranking.fasterButLossy.length > 0 && ranking.best != null,
      rows: [],
      notCompared: [],
      // The pages' one rule (verdict-rules.js): no ranking where a kill or the kill timer ended the
      // runs, no fastest where a cell's runs fall in two groups. The rows stay in the data. A group
      // in which no run finished has nothing to rank, and says so.
      withheld: measured.length > 1 ? withheldReason(measured, measure) : reference ? null : NOTHING_FINISHED
    }
    // Without a reference, each library is named with why it was not compared: its runs' failure.
    if (!reference) for (const cellRuns of cells.values()) entry.notCompared.push(`${nameOf(cellRuns[0])}: ${failureOf(cellRuns)}`)
    for (const cellRuns of reference ? [...cells.values()].filter((c) => c !== reference) : []) {
      const result = compareWithBaseline(
        { ...dataset, runs: [...reference, ...cellRuns] },
        runName(reference[0]),
        { alpha, noise }
      )
      const row = result.comparisons.find((r) => r.measure === measure.measure)
      if (row) {
        entry.rows.push({
          library: nameOf(cellRuns[0]),
          logsPerRequest: cellRuns[0].logsPerRequest ?? null,
          ...row,
          ...turned(row, measure.better)
        })
      } else {
        entry.notCompared.push(`${nameOf(cellRuns[0])}: ${result.notCompared[0] ?? 'no finished run'}`)
      }
    }
    groups.push(entry)
  }
  return { alpha, noise, groups, knees: kneesIn(dataset) }
}

// Where the runs were paced at several rates: per transport each library's knee (src/results/judge/knee.js,
// the latency page's rule), highest first, baselines last. A paced group's done time is set by the
// rate, so the knee is what such runs answer.
function kneesIn (dataset) {
  const knees = []
  for (const [transport, byLib] of kneesOf(dataset.summary ?? [])) {
    if (![...byLib.values()].some((k) => k.tried.length > 1)) continue
    const rows = [...byLib].map(([library, k]) => ({
      transport,
      library,
      rate: k.knee?.rate ?? null,
      responseP99Ns: k.knee?.responseP99Ns ?? null,
      keptEvery: k.knee?.keptEvery ?? null,
      rates: k.tried.map((t) => t.rate),
      text: kneeText(k)
    }))
    const baseline = (r) => BASELINE_LIBS.has(r.library.split(':')[0]) ? 1 : 0
    rows.sort((a, b) => baseline(a) - baseline(b) || (b.rate ?? -1) - (a.rate ?? -1))
    knees.push(...rows)
  }
  return knees
}

// A ratio as how many times slower or faster, with its interval turned the same way: the way the
// verdict says, else (same, unclear) the way the medians lean.
function turned (row, better) {
  if (row.ratio == null) return { times: null, low: null, high: null, direction: null }
  const cost = better === 'higher' ? [1 / row.ratio, 1 / row.ciHigh, 1 / row.ciLow] : [row.ratio, row.ciLow, row.ciHigh]
  const faster = row.verdict === 'faster' || (row.verdict !== 'slower' && cost[0] < 1)
  // A ratio that prints as 1.000 leans neither way: undecided, it is no "slower".
  if (row.verdict !== 'faster' && row.verdict !== 'slower' && Math.abs(cost[0] - 1) < 0.0005) return { times: 1, low: cost[1], high: cost[2], direction: null }
  if (faster) return { times: 1 / cost[0], low: 1 / cost[2], high: 1 / cost[1], direction: 'faster' }
  return { times: cost[0], low: cost[1], high: cost[2], direction: 'slower' }
}

// A ratio turned as turned() turns a row's: for a rate inverted, and for "how many times faster" inverted.
function turnedRatio (ratio, better, direction) {
  const cost = better === 'higher' ? 1 / ratio : ratio
  return direction === 'faster' ? 1 / cost : cost
}

// Two decimals, three where the interval is narrower than 0.1 (a count's 1.004 [1.002, 1.006]).
const digits = (row) => (row.high - row.low < 0.1 ? 3 : 2)
const figure = (v, row) => v.toFixed(v < 10 ? digits(row) : 1)

// The verdict in words; where the runs cannot tell, the way the estimate leans with a question mark,
// then on what the verdict is not decided and what would decide it.
function verdictWords (row, reference) {
  const lean = row.direction ? `${row.direction} than ${reference}?` : `against ${reference}:`
  if (row.p == null) return `${lean} one run a side: no verdict`
  if (row.verdict === 'same') return `same as ${reference}`
  if (row.verdict === 'unclear') return `${lean} ${notDecidedWords(row)}`
  return `${row.verdict} than ${reference}`
}

// One line per library: "winston  2.10× [1.90, 2.31] slower than pino"; a counted one adds the
// difference in instructions per log call (and per request).
function answerLine (row, group, nameWidth) {
  const ratio = row.times == null ? 'no ratio' : `${figure(row.times, row)}× [${figure(row.low, row)}, ${figure(row.high, row)}]`
  const counted = group.counted ? ` (${formatCountedDifference(row.difference, { type: group.type, logsPerRequest: row.middleware ? null : row.logsPerRequest })})` : ''
  const lost = row.lost > 0 ? `, ${(row.lost * 100).toFixed(2)}% of its events lost` : ''
  const estimate = row.times == null ? '' : estimateNote(row, (v) => turnedRatio(v, group.better, row.direction))
  return `${padToWidth(row.library, nameWidth)}  ${ratio} ${verdictWords(row, group.reference.library)}${counted}${lost}${estimate ? ` (${estimate})` : ''}`
}

// A line indented by two spaces, its continuations by four, within `width`.
function indented (line, width) {
  return wrap(line, width - 4).split('\n').map((text, i) => `${i ? '    ' : '  '}${text}`).join('\n')
}

function groupHeading (group) {
  const format = MEASURES[group.type].find((m) => m.measure === group.measure).format
  if (!group.reference) return `${group.group}: no finished run`
  if (group.withheld) return `${group.group}, ${group.title}:`
  const best = group.counted || group.measure === 'serverCpuUsPerRequest' ? 'cheapest' : 'fastest'
  return `${group.group}: ${best} ${group.reference.library}${group.passedOver ? ' (of those that delivered every event)' : ''}, ${group.title}: ${format(group.reference.median)} (median of ${group.reference.n} run${group.reference.n === 1 ? '' : 's'})`
}

// The answer for a terminal, no line wider than `width`; file: the results file, for the pointer
// to `log-bench report`.
// Groups measured under --runs auto are tested at the α of each look (compare's rows carry it):
// say so, with the α the verdicts used, so the header's p < α is not read as theirs.
function designedNote (rows, alpha) {
  const designed = rows.filter((r) => r.looks)
  if (!designed.length) return ''
  const looks = [...new Set(designed.map((r) => r.looks.join(', ')))].join(' / ')
  const each = [...new Set(designed.map((r) => +r.alpha.toPrecision(3)))].join(' / ')
  return ` ${designed.length === rows.length ? 'Every group' : 'Groups'} under --runs auto: judged at ${looks} rounds, each look at p < ${each} (${alpha} split across the looks), paired.`
}

export function renderAnswer (answer, { width = Infinity, file = null } = {}) {
  const shown = answer.groups
  if (!shown.length) return ''
  const rows = shown.flatMap((g) => g.rows)
  const coverage = coverageRange(rows.map((r) => r.coverage))
  // Where no library has another to be compared with, the header promises no ratio: each group
  // names its fastest and says it stands alone.
  const intro = rows.length
    ? `Per group, each library against the fastest (or cheapest) of its group, as \`log-bench compare --baseline\` compares them: how many times slower or faster [${coverage === 'no' ? 'no interval: one run a side' : `the ratio's ${coverage} interval`}], and the verdict (p < ${answer.alpha}, noise ±${noiseText(rows, answer.noise)}).${rows.some((r) => r.paired) ? ' Where the runs pair by round, the ratio is the per-round estimate the verdict rests on, which can differ from the ratio of the medians.' : ''}${designedNote(rows, answer.alpha)}`
    : shown.some((g) => g.reference)
      ? 'Per group, the fastest (or cheapest) library. No group holds another library that finished, so there is no ratio and no verdict.'
      : 'No run finished: no library to name, nothing to compare (the failed runs and their reasons are above).'
  const out = [
    'Answer',
    '======',
    // Names come from adapters and results files: their controls are shown, never sent.
    wrap(intro, width)
  ]
  for (const group of shown) {
    const nameWidth = maxOf(group.rows.map((r) => displayWidth(r.library)), 0)
    const lines = group.withheld
      ? [indented(visibleControls(group.withheld), width)]
      : group.rows.map((row) => indented(visibleControls(answerLine(row, group, nameWidth)), width))
    out.push('', wrap(visibleControls(groupHeading(group)), width), ...lines, ...group.notCompared.map((text) => indented(visibleControls(`not compared: ${text}`), width)))
    if (group.reference && !group.rows.length && !group.notCompared.length) out.push(indented(visibleControls(`${group.reference.library} is the only library in its group: nothing to compare it with`), width))
  }
  for (const transport of unique((answer.knees ?? []).map((k) => k.transport))) {
    const rows = answer.knees.filter((k) => k.transport === transport)
    const nameWidth = maxOf(rows.map((r) => displayWidth(r.library)))
    out.push('', wrap(`${transportTitle(transport)}, knees: the highest rate each sustained with steady-state response p99 at most ${KNEE_BOUND_NS / 1e6} ms (from each call's intended time), below the first rate it did not:`, width),
      ...rows.map((r) => indented(visibleControls(`${padToWidth(r.library, nameWidth)}  ${r.text}`), width)))
  }
  if (file) out.push('', wrap(visibleControls(`Full tables and charts: log-bench report ${file}`), width))
  return out.join('\n') + '\n'
}

// The thresholds the verdicts applied: --noise, or a measure's own (counted instructions).
function noiseText (rows, noise) {
  const applied = unique(rows.map((r) => r.noise ?? noise)).sort((a, b) => a - b)
  return (applied.length ? applied : [noise]).map((n) => `${+(n * 100).toFixed(2)}%`).join(' or ±')
}

// --json: the answer's rows and where the results are.
export function answerJson (answer, { file = null } = {}) {
  return JSON.stringify({ results: file, ...answer }, null, 2) + '\n'
}
