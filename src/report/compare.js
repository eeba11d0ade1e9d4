import semver from 'semver'
import { UsageError } from '../errors.js'
import { CELL_FIELDS, comparisonGroupKey, cellKey, cellWords, dimensionValue, inPlanOrder, RUN_TYPES, runTypeOf, varyingDimensions } from '../results/model.js'
import { compared } from '../results/run-types/index.js'
import { roundsOf } from '../results/rounds.js'
import { judge } from '../results/judge/verdict.js'
import { environmentDifference, settingsDifferences } from '../results/read.js'
import { CONFIDENCE, DEFAULT_ALPHA, DEFAULT_NOISE, minOf, pairedMinRounds, smallestP } from '../stats.js'
import { figureColumns, terminalTable, visibleControls, wrap } from '../draw/table.js'
import { jsonWithEscapedControls } from '../escape.js'
import { coverageTitle, failureReason, formatBytes, formatCount, formatMs, formatNoiseBand, formatRunsToDecide, runName, unique, verdictWord } from '../draw/labels.js'

// Comparisons of cells, each judged by the one verdict (judge, src/results/judge/verdict.js): a cell
// against the baseline library's cell of the same comparison group in one file (--baseline), or
// each cell of one file against the same cell of another (before/after). Rows are data (--json
// prints them); the terminal table is rendered from them.

export { DEFAULT_ALPHA, DEFAULT_NOISE }

// What is compared, per run type: the measures its module marks `compare` (src/results/run-types/),
// each with its direction (better: lower for times, higher for rates, null where neither is, as for
// memory: the verdict is then higher/lower), drawn in the format of its unit. `speed` measures are
// the ones a --baseline comparison shows.
const points = (v) => `${(v * 100).toFixed(2)}%`
const FORMATS = {
  ms: formatMs,
  ns: formatCount,
  bytes: formatBytes,
  share: points,
  count: formatCount,
  'events/s': formatCount,
  'requests/s': formatCount,
  'per 10,000 events': (v) => v.toFixed(1),
  instructions: formatCount,
  µs: (v) => v.toFixed(1),
  syscalls: (v) => v.toFixed(4)
}
const SCALES = { 'ns ms': 1e-6 }
function formatOf (measure) {
  const format = FORMATS[measure.shownIn ?? measure.unit]
  if (!format) throw new Error(`no format for the unit ${measure.shownIn ?? measure.unit} of ${measure.field}`)
  if (!measure.shownIn) return format
  const scale = SCALES[`${measure.unit} ${measure.shownIn}`]
  return (v) => format(v * scale)
}
export const MEASURES = Object.fromEntries(RUN_TYPES.map((type) => [type.name, compared(type).map((m) => ({
  measure: m.field,
  title: m.title,
  format: formatOf(m),
  better: m.better,
  speed: m.compare === 'speed',
  points: m.unit === 'share',
  // The unit written after a difference (a format of bytes carries its own).
  unit: m.unit === 'bytes' ? null : m.shownIn ?? m.unit,
  // A measure's own noise threshold (counted instructions: ±1%), else --noise.
  noise: m.noise ?? null,
  value: m.value,
  // The schema's measure, as the verdict takes it (judge).
  judged: m
}))]))

// keyOf: the cell's identity (cellKey); compareDatasets --ignore-version keys without the library's
// version, so a cell may then hold runs of two versions (versions lists them).
function cellsOf (runs, keyOf = cellKey) {
  const cells = new Map()
  for (const run of inPlanOrder(runs)) {
    const type = dimensionValue(run, 'type')
    if (!Object.hasOwn(MEASURES, type)) continue
    const key = keyOf(run)
    if (!cells.has(key)) cells.set(key, { key, type, first: run, runs: [], versions: [] })
    const cell = cells.get(key)
    cell.runs.push(run)
    if (!cell.versions.includes(run.libVersion ?? null)) cell.versions.push(run.libVersion ?? null)
  }
  return cells
}

const withoutVersion = (run) => cellKey(run, { except: ['libVersion'] })

// A cell's name in the tables: its library, transport and workers, and whatever else tells it apart
// among the compared cells (cellWords: an ending, a rate, a receiver's settings…).
// With --ignore-version the versions are said after the name (9.14.0 → 10.4.0), not in it.
function namer (cells, { except = [] } = {}) {
  const shown = varyingDimensions(cells.map((c) => c.first), { always: ['lib', 'transport', 'cpus'] })
    .filter((field) => !except.includes(field))
  return ({ first }) => cellWords(first, shown)
}

function row ({ cell, name, measure, baseline, baselineRuns, runs, options, roundOf = null }) {
  // The cell's identity: its type's dimensions (the schema's), each as the record reads it; the
  // dimension `measure` (time or counted instructions) as `measurement`, `measure` being the row's.
  const identity = Object.fromEntries(runTypeOf(cell.first).dimensions
    .map((f) => [f === 'measure' ? 'measurement' : f, dimensionValue(cell.first, f)]))
  return {
    cell: name,
    ...identity,
    measure: measure.measure,
    baseline,
    ...judge(baselineRuns, runs, measure.judged, { alpha: options.alpha, noise: options.noise, roundOf }),
    lost: lostShare(runs)
  }
}

// Events lost over the finished runs, as a share of those sent: a lossy cell is compared, and said to be.
function lostShare (runs) {
  const counted = runs.filter((r) => r.ok && r.sent > 0 && r.received != null)
  if (!counted.length) return null
  const sent = counted.reduce((n, r) => n + r.sent, 0)
  return Math.max(0, sent - counted.reduce((n, r) => n + r.received, 0)) / sent
}

const finished = (runs) => runs.some((r) => r.ok)
const why = (runs) => (finished(runs) ? 'ok' : failureReason(runs.find((r) => !r.ok) ?? {}))

// Every cell of a dataset against the baseline library's cell of its comparison group (same run type,
// transport, workers, workload, size, receiving end, events and load): --baseline.
export function compareWithBaseline (dataset, baseline, { alpha = DEFAULT_ALPHA, noise = DEFAULT_NOISE } = {}) {
  const cells = [...cellsOf(dataset.runs).values()]
  const name = namer(cells)
  const isBaseline = baselineMatcher(baseline)
  const roundOf = roundsOf(dataset)
  const result = { mode: 'baseline', baseline, alpha, noise, groupWords: groupWords(cells), comparisons: [], notCompared: [], unpairedDocuments: unpairedDocuments(dataset) }
  if (!cells.some((c) => isBaseline(c.first))) {
    result.notCompared.push(`no cell of ${baseline} in the results (libraries: ${unique(cells.map((c) => runName(c.first))).join(', ')})`)
    return result
  }
  for (const cell of cells.filter((c) => !isBaseline(c.first))) {
    const bases = cells.filter((c) =>
      isBaseline(c.first) && comparisonGroupKey(c.first) === comparisonGroupKey(cell.first))
    if (bases.length > 1) {
      const versions = bases.map((c) => runName(c.first))
      result.notCompared.push(`${name(cell)} (${baseline} is ${versions.join(' and ')} in its group: name one, e.g. --baseline ${versions[0]})`)
      continue
    }
    const base = bases[0]
    if (!base) {
      result.notCompared.push(`${name(cell)} (no ${baseline} cell with the same ${runTypeOf(cell.first).groupWords})`)
      continue
    }
    if (!finished(cell.runs) || !finished(base.runs)) {
      result.notCompared.push(`${name(cell)} (${baseline}: ${why(base.runs)}; ${name(cell)}: ${why(cell.runs)})`)
      continue
    }
    for (const measure of MEASURES[cell.type].filter((m) => m.speed)) {
      const compared = row({
        cell,
        name: name(cell),
        measure,
        baseline,
        baselineRuns: base.runs,
        runs: cell.runs,
        options: { alpha, noise },
        roundOf
      })
      // A measure neither side recorded (times of counted runs, counts of timed ones) is no row.
      if (compared.n > 0 || compared.nBaseline > 0) result.comparisons.push(compared)
    }
  }
  return result
}

// The documents that say they ran in rounds but whose runs say otherwise (roundsProblem,
// src/results/round-order.js): their cells are compared unpaired, and the comparison says why.
function unpairedDocuments (dataset) {
  return (dataset.envs ?? []).filter((e) => e.roundsProblem).map((e) => ({ file: e.file, reason: e.roundsProblem }))
}

export const unpairedNote = ({ file, reason }) => `${file} is compared unpaired: its rounds cannot be read (${reason})`

// What the cells of one comparison group share, in words: of the one run type compared, or of each.
function groupWords (cells) {
  const types = RUN_TYPES.filter((type) => cells.some((c) => c.type === type.name))
  if (types.length <= 1) return (types[0] ?? RUN_TYPES[0]).groupWords
  return types.map((type) => `${type.groupWords} (${type.name})`).join('; ')
}

// Which runs a --baseline names: a library as the results name it (pino, pino:sync, an adapter's
// name), optionally with a version range (pino@9, winston@3.2.1, log4js@^6) matched against the
// version each run recorded: `--lib pino@9,pino@10 --baseline pino@9`. A name without a range matches
// every version of the library; where one group holds two, compareWithBaseline asks for one.
const LOCAL_VERSION = /@[^@]*\+local\.[0-9a-f]+/

export function baselineMatcher (baseline) {
  const spec = String(baseline)
  const at = spec.lastIndexOf('@')
  const colon = spec.indexOf(':', at + 1)
  const range = at > 0 ? spec.slice(at + 1, colon > at ? colon : undefined) : null
  const plain = at > 0 ? spec.slice(0, at) + (colon > at ? spec.slice(colon) : '') : spec
  // A dist-tag (pino@latest) names the runs that asked for it: which version it meant is the registry's
  // answer on the day of the run, recorded as libRange beside the version installed.
  const tag = range != null && semver.validRange(range) == null && /^[a-z][\w.-]*$/i.test(range) ? range : null
  if (range != null && tag == null && (range.trim() === '' || semver.validRange(range) == null)) throw new UsageError(`--baseline ${spec}: "${range}" is not a version, range or dist-tag (pino@9, winston@3.2.1, log4js@^6, pino@latest)`)
  return (run) => {
    if (runName(run) === spec) return true
    // A local copy named as the baseline (pino@10.4.0+local.1a2b3c4d, as its cells are named) is that
    // copy alone: the release's version satisfies the range, build metadata aside, but is not it.
    if (LOCAL_VERSION.test(spec)) return false
    // A local copy (libSource, --lib pino+sonic-boom@./sb) is the baseline only where named in full:
    // its version satisfies the release's range, and it is what is set beside the release.
    if (run.libSource) return false
    if (runName({ lib: run.lib, variant: run.variant }) !== plain) return false
    if (tag != null) return run.libRange === tag
    return range == null ||
      (run.libVersion != null && semver.valid(run.libVersion) != null && semver.satisfies(run.libVersion, range))
  }
}

// Each cell of `next` against the same cell of `base` (before/after), every measure. With
// ignoreVersion, a cell is paired with the cell of the other file that differs from it only in the
// library's version (pino 9.14.0 in base, 10.4.0 in new): each file must then hold one version per
// cell, and the rows say which two were compared (baseLibVersion, libVersion).
export function compareDatasets (base, next, { alpha = DEFAULT_ALPHA, noise = DEFAULT_NOISE, baseLabel = 'base', ignoreVersion = false } = {}) {
  const keyOf = ignoreVersion ? withoutVersion : cellKey
  const baseCells = cellsOf(base.runs, keyOf)
  const newCells = cellsOf(next.runs, keyOf)
  const name = namer([...baseCells.values(), ...newCells.values()], { except: ignoreVersion ? ['libVersion'] : [] })
  const result = {
    mode: 'files',
    baseline: baseLabel,
    alpha,
    noise,
    ignoreVersion,
    settingsNote: settingsNoteFor(base, next),
    comparisons: [],
    onlyBase: [...baseCells.values()].filter((c) => !newCells.has(c.key)).map(name),
    onlyNew: [...newCells.values()].filter((c) => !baseCells.has(c.key)).map(name),
    notCompared: []
  }
  for (const [key, b] of baseCells) {
    const n = newCells.get(key)
    if (!n) continue
    const mixed = [['base', b], ['new', n]].find(([, cell]) => cell.versions.length > 1)
    if (mixed) {
      result.notCompared.push(`${name(b)} (${mixed[0]} holds ${b.first.lib} ${mixed[1].versions.join(' and ')} in this cell: --ignore-version pairs one version per file)`)
      continue
    }
    if (!finished(b.runs) || !finished(n.runs)) {
      result.notCompared.push(`${name(b)} (base: ${why(b.runs)}; new: ${why(n.runs)})`)
      continue
    }
    for (const measure of MEASURES[b.type]) {
      const compared = row({
        cell: b,
        name: name(b),
        measure,
        baseline: baseLabel,
        baselineRuns: b.runs,
        runs: n.runs,
        options: { alpha, noise }
      })
      if (ignoreVersion) Object.assign(compared, { cell: `${compared.cell}${b.versions[0] === n.versions[0] ? '' : ` ${b.versions[0]} → ${n.versions[0]}`}`, baseLibVersion: b.versions[0], libVersion: n.versions[0] })
      if (compared.verdict != null) result.comparisons.push(compared)
    }
  }
  return result
}

// Why two files gave nothing to compare, in two lines: { message } the gist (the cells they share
// have no finished runs, or no cell is in both and what differs: the library's version, most often),
// and { hint } what to do or how to see each file's cells.
export function whyNothingCompared (result, base, next, files = {}) {
  const { message, hint } = nothingComparedReason(result, base, next, files)
  return { message: oneLine(message), hint: oneLine(hint) }
}

// The first few of a list, and how many more.
const few = (list, n = 2, separator = ', ') => (list.length > n ? `${list.slice(0, n).join(separator)} and ${list.length - n} more` : list.join(separator) || 'none')

function nothingComparedReason (result, base, next, { baseFile = 'base', newFile = 'new' }) {
  const seeCells = `each file's cells: log-bench report ${baseFile} --format terminal (and ${newFile}); its closing answer lists them by group`
  if (result.notCompared.length) return { message: `nothing to compare between ${baseFile} and ${newFile}: ${few(result.notCompared)}`, hint: seeCells }
  const versions = (dataset) => unique([...cellsOf(dataset.runs).values()].map((c) => `${libraryLabel(c.first)} ${c.first.libVersion ?? '(no version)'}`))
  if (!result.ignoreVersion) {
    const baseKeys = new Set([...cellsOf(base.runs, withoutVersion).keys()])
    if ([...cellsOf(next.runs, withoutVersion).keys()].some((key) => baseKeys.has(key))) {
      return {
        message: `no cell is in both ${baseFile} and ${newFile}: their cells differ in the library's version (${few(versions(base), 3)} in ${baseFile}; ${few(versions(next), 3)} in ${newFile})`,
        hint: 'to compare two versions, measure them in one run, interleaved (log-bench run --lib pino@9,pino@10, then compare that file --baseline pino@9), ' +
          'or pair these two files\' cells across versions with --ignore-version (two sessions, not interleaved: the drift between them is part of each ratio)'
      }
    }
  }
  const differing = CELL_FIELDS.filter((field) => field !== 'libVersion').map((field) => {
    const of = (dataset) => unique(dataset.runs.map((r) => String(dimensionValue(r, field) ?? '-')))
    const [a, b] = [of(base), of(next)]
    return a.join() === b.join() ? null : `${field} ${few(a, 3, '/')} vs ${few(b, 3, '/')}`
  }).filter(Boolean)
  return {
    message: `no cell is in both ${baseFile} and ${newFile}${differing.length ? ` (they differ in ${differing.slice(0, 2).join('; ')}${differing.length > 2 ? `; ${differing.length - 2} more dimensions` : ''})` : ''}: ${baseFile} has ${few(result.onlyBase, 1)}; ${newFile} has ${few(result.onlyNew, 1)}`,
    hint: `compare pairs cells with the same library, version, transport, workers, workload, size, receiving end and events; ${seeCells}`
  }
}

const libraryLabel = (run) => runName({ lib: run.lib, variant: run.variant })

// The rows whose verdict --fail-on names, worst first.
export function gateFailures (result, failOn) {
  return worstFirst(result.comparisons.filter((r) => failOn.includes(r.verdict)))
}

// The line --fail-on prints on stderr when it fails: how many rows, and the first few.
export function gateMessage (failures, failOn, total) {
  const shown = failures.slice(0, 3).map((r) => `${oneLine(r.cell)} ${measureTitle(r)} ${r.verdict}${r.ratio != null ? ` ${r.ratio.toFixed(3)}×` : ''}`)
  return `--fail-on ${failOn.join(',')}: ${failures.length} of ${total} comparison${total === 1 ? '' : 's'} read ${unique(failures.map((r) => r.verdict)).join(' or ')} (${shown.join('; ')}${failures.length > 3 ? '; …' : ''})`
}

// One line whatever the names in it hold (a cell's name comes from a results file): control
// characters (a newline, an escape) become spaces.
const oneLine = (text) => String(text).replace(/\p{Cc}+/gu, ' ')

const measureTitle = (r) => MEASURES[r.type]?.find((m) => m.measure === r.measure)?.title ?? r.measure

// Worst first: slower, then unclear, higher/lower, faster, same; within a verdict, the largest
// change first (a ratio's distance from 1, on a log scale, so 2× and 0.5× weigh alike).
const VERDICT_ORDER = ['slower', 'unclear', 'higher', 'lower', 'faster', 'same']
export function worstFirst (rows) {
  const rank = (r) => (VERDICT_ORDER.includes(r.verdict) ? VERDICT_ORDER.indexOf(r.verdict) : VERDICT_ORDER.length)
  const size = (r) => (r.ratio != null
    ? Math.abs(Math.log(r.ratio))
    : r.baselineMedian ? Math.abs(r.difference / r.baselineMedian) : Math.abs(r.difference ?? 0))
  return [...rows].sort((a, b) => rank(a) - rank(b) || size(b) - size(a))
}

export function renderComparison (
  result,
  { baseLabel = null, newLabel = null, environmentNote = null, width = Infinity } = {}
) {
  const out = []
  if (result.mode === 'files') out.push(`base: ${baseLabel}`, `new:  ${newLabel}`)
  else out.push(`baseline: ${result.baseline} (each cell against the ${result.baseline} cell of the same ${result.groupWords ?? RUN_TYPES[0].groupWords})`)
  if (environmentNote) out.push(`note: ${environmentNote}`)
  if (result.settingsNote) out.push(`note: ${result.settingsNote}`)
  for (const unpaired of result.unpairedDocuments ?? []) out.push(`note: ${unpairedNote(unpaired)}`)
  if (result.ignoreVersion) out.push(`note: ${IGNORE_VERSION_NOTE}`)
  const band = `±${+(result.noise * 100).toFixed(2)}%`
  out.push(`Medians of the finished runs; ratio = ${result.mode === 'files' ? 'new / base' : `cell / ${result.baseline}`} with its interval (distribution-free, Hodges–Lehmann; titled by the coverage its runs reach: ${CONFIDENCE * 100}% where they can). ${result.mode === 'files' ? FILES_METHOD : methodNote(result.alpha)} Verdict: faster/slower where p < ${result.alpha} and the whole interval lies beyond ${band} (--noise${ownNoise(result)}; for events/s and requests/s, more is faster); same where the whole interval lies within ${band}; not decided otherwise (the runs cannot tell), with about how many runs a side would decide it (docs/comparisons.md).`)
  const measures = unique(result.comparisons.map((r) => r.measure))
  for (const measureName of measures) {
    const rows = result.comparisons.filter((r) => r.measure === measureName)
    const measure = Object.values(MEASURES)
      .flat()
      .find((m) => m.measure === measureName && MEASURES[rows[0].type]?.includes(m))
    const inRounds = rows.some((r) => r.pairs != null)
    const table = rows.map((r) => [
      r.cell + (r.lost > 0 ? ` (${(r.lost * 100).toFixed(2)}% lost)` : ''),
      `${measure.format(r.baselineMedian)} (n=${r.nBaseline})`,
      `${measure.format(r.median)} (n=${r.n})`,
      intervalText(r, measure),
      r.p == null ? 'n/a' : r.p < 0.001 ? '<0.001' : r.p.toFixed(3),
      ...(inRounds ? [pairingText(r)] : []),
      verdictText(r)
    ])
    const coverages = unique(rows.map((r) => coverageTitle(r.coverage)))
    const title = coverages.length === 1 ? `[${coverages[0]} interval]` : '[interval] coverage'
    if (coverages.length > 1) rows.forEach((r, i) => { table[i][3] += ` ${coverageTitle(r.coverage)}` })
    out.push('', measure.title, terminalTable({ columns: figureColumns(['cell', result.mode === 'files' ? 'base' : result.baseline, result.mode === 'files' ? 'new' : 'cell', `${result.mode === 'files' ? 'new/base' : 'ratio'} ${title}`, 'p', ...(inRounds ? ['pairs'] : []), 'verdict']), rows: table }, { width }))
  }
  const rows = result.comparisons
  if (rows.length === 0) out.push('', result.mode === 'files' ? 'no cell has finished runs in both files: nothing to compare' : 'nothing to compare')
  const designed = rows.filter((r) => r.looks != null)
  if (designed.length) out.push('', `${designed.length === rows.length ? 'every comparison' : `${designed.length} of the ${rows.length} comparisons`} ran under --runs auto: judged at ${unique(designed.map((r) => r.looks.join(', '))).join(' / ')} rounds, each look at p < ${unique(designed.map((r) => +r.alpha.toPrecision(3))).join(' / ')} (${result.alpha} split across the looks that can reach it), paired, so that identical code reads faster or slower no more often than ${result.alpha} however many looks it took`)
  const short = rows.filter((r) => r.coverage != null && r.coverage < CONFIDENCE - 1e-9)
  if (short.length) out.push('', `intervals below ${CONFIDENCE * 100}% coverage: with ${unique(short.map((r) => `${r.nBaseline}+${r.n}`)).join(' / ')} runs no distribution-free interval reaches it (${unique(short.map((r) => coverageTitle(r.coverage))).join(' / ')} instead)`)
  const powerless = rows.filter((r) => r.p != null && smallestP(r) >= result.alpha)
  if (powerless.length) {
    const counts = unique(powerless.map((r) => `${r.nBaseline}+${r.n}`))
    const smallest = minOf(powerless.map(smallestP))
    out.push('', `warning: with ${counts.join(' / ')} runs the smallest p the test can give is ${smallest.toFixed(3)}, not below ${result.alpha}: ${powerless.length === rows.length ? 'no' : `${powerless.length} of the`} comparison${powerless.length === rows.length ? '' : 's'} can read faster or slower however large the difference. Measure with --runs 5 or more (4+4: smallest p 0.029; 5+5: 0.008).`)
  }
  const testable = rows.filter((r) => r.p != null && !powerless.includes(r))
  if (testable.length) {
    const called = testable.filter((r) => !['same', 'unclear'].includes(r.verdict)).length
    const same = testable.filter((r) => r.verdict === 'same').length
    const unclear = testable.filter((r) => r.verdict === 'unclear').length
    out.push('', `${called} of ${testable.length} comparison${testable.length > 1 ? 's' : ''} that could reach p < ${result.alpha} read${testable.length > 1 ? '' : 's'} faster or slower, ${same} same, ${unclear} not decided; on identical code about ${(testable.length * result.alpha).toFixed(1)} tests would be significant by chance (each has a ${result.alpha * 100}% false-positive rate), fewer of them beyond ${band} as well: trust differences that are large or repeat.`)
  }
  if (result.onlyBase?.length) out.push('', `only in base (not compared): ${result.onlyBase.join(', ')}`)
  if (result.onlyNew?.length) out.push('', `only in new (not compared): ${result.onlyNew.join(', ')}`)
  if (result.notCompared.length) out.push('', `not compared: ${result.notCompared.join(', ')}`)
  // Names, files and machines come from the results files: their controls are shown, never sent.
  // The tables fit `width` as drawn; every other line is wrapped to it.
  return out.map((block) => (block.startsWith('|') ? visibleControls(block) : wrap(visibleControls(block), width))).join('\n') + '\n'
}

// The measures compared with their own threshold, in words for the header: ", instructions per event: ±1%".
function ownNoise (result) {
  const own = unique(result.comparisons.filter((r) => r.noise != null && r.noise !== result.noise).map((r) => `${MEASURES[r.type]?.find((m) => m.measure === r.measure)?.title ?? r.measure}: ${formatNoiseBand(r.noise)}`))
  return own.length ? `; ${own.join(', ')}` : ''
}

function intervalText (r, measure) {
  if (r.ratio != null) return `${r.ratio.toFixed(3)} [${r.ciLow.toFixed(3)}, ${r.ciHigh.toFixed(3)}]`
  return differenceText(r, measure)
}

// Where no ratio can be taken (a share, or a base median of 0), the difference with its interval,
// each figure with its unit: the column is titled as a ratio, and "+0.50" alone would read as one.
export function differenceText (r, measure) {
  const signed = (v) => `${v >= 0 ? '+' : ''}${measure.points ? `${(v * 100).toFixed(2)} pp` : `${measure.format(v)}${measure.unit ? ` ${measure.unit}` : ''}`}`
  return `${signed(r.difference)} [${signed(r.diffLow)}, ${signed(r.diffHigh)}]`
}

// How a row was analysed, in words: which test, and on how many rounds.
export const methodNote = (alpha) => `Where the two cells ran interleaved in rounds in one document (column pairs), the comparison rests on the per-round ratios once ${pairedMinRounds(alpha)} or more rounds finished on both sides (the fewest whose pairs can reach p < ${alpha}): the Hodges–Lehmann estimate of those ratios, its interval and the Wilcoxon signed-rank test, so drift common to a round cancels; otherwise ratio of medians, p from the two-sided Mann–Whitney U test.`

export const FILES_METHOD = 'Two documents, not interleaved with each other: p from the two-sided Mann–Whitney U test (unpaired).'

export function pairingText (r) {
  if (r.alternated) return r.paired ? `alternated, ${r.pairs}` : `alternated, unpaired (${r.pairs ?? 0})`
  if (r.paired) return `paired, ${r.pairs}`
  return r.pairs == null ? 'unpaired' : `unpaired (${r.pairs} rounds)`
}

// The verdict's word; not decided with about how many runs a side would decide it.
function verdictText (r) {
  if (r.verdict !== 'unclear') return verdictWord(r.verdict)
  return r.runsToDecide == null ? 'not decided' : `not decided (${formatRunsToDecide(r.runsToDecide, { short: true })} runs)`
}

export const IGNORE_VERSION_NOTE = 'cells paired across library versions (--ignore-version): the two files were measured in two sessions, not interleaved, so the machine\'s drift between them is part of every ratio; one run of both versions (--lib pino@9,pino@10, compare --baseline pino@9) interleaves them'

// The rows as JSON (--json): the comparisons and what could not be compared.
export function comparisonJson (result) {
  const {
    mode,
    baseline,
    alpha,
    noise,
    ignoreVersion = false,
    settingsNote = null,
    comparisons,
    notCompared,
    onlyBase = [],
    onlyNew = [],
    unpairedDocuments = []
  } = result
  // Names come from the results files: C1 and bidi characters are escaped, as the tables show them.
  return jsonWithEscapedControls(JSON.stringify({ mode, baseline, alpha, noise, ignoreVersion, ...(mode === 'files' ? { settingsNote } : {}), confidence: CONFIDENCE, method: `paired rows (paired: true, on ${pairedMinRounds(alpha)} or more complete rounds of one interleaved document): ratio the Hodges–Lehmann estimate of the per-round ratios, its distribution-free interval and p from the two-sided Wilcoxon signed-rank test on their logarithms; unpaired rows: ratio of medians; distribution-free interval (Hodges–Lehmann/Moses, inverting the Mann–Whitney U test on the logarithms); p: two-sided Mann–Whitney U test`, comparisons, notCompared, onlyBase, onlyNew, unpairedDocuments }, null, 2)) + '\n'
}

export function describeSource (file, dataset) {
  const env = dataset.env
  return `${file} (${env.firstTime.slice(0, 16).replace('T', ' ')}, ${env.cpuModel}, ${env.cpuCount} cores, Node ${env.node})`
}

// Settings that are not dimensions of a cell (so its cells pair with each other's) but change what
// is measured: said where the two documents differ in them.
export function settingsNoteFor (base, next) {
  const differences = settingsDifferences(base, next)
  return differences.length ? `the two files were measured with different settings that are no part of a cell (${differences.join('; ')}): the change includes that difference` : null
}

export function environmentNoteFor (base, next) {
  const difference = environmentDifference(base.env, next.env)
  return difference ? `the two files come from different environments (${difference}): the change includes that difference` : null
}
