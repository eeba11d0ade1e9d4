import { failureOf } from '../results/model.js'
import { basisWords, coverageNote, coverageTitle, formatCount, formatRatio, visibleMediansRatio } from '../format.js'

// A library's name, a transport's title and a worker count (a run's `cpus`: labels say workers) are
// a record's words (src/results/record.js, where a cell's words are made), the number formats
// src/format.js's: one copy each, exported from here too.
export { libraryName, runName, transportTitle, workersLabel } from '../results/record.js'
export { basisWords, coverageNote, coverageTitle, formatBytes, formatCount, formatMs, formatNumber, formatPct, formatRatio, listWords, mediansRatioNote, ratioInterval, unique } from '../format.js'

// Words and number formats: the one set every exporter (terminal, markdown, charts, compare) uses.

// Why a run has no number, in a few words: what a reader needs in a table cell.
const FAILURE_LABELS = { 'out-of-memory': 'failed: out of memory', timeout: 'failed: timed out', killed: 'failed: killed', crashed: 'failed: worker crashed', 'nothing-arrived': 'failed: nothing arrived' }

export function failureReason (run) {
  if (run.status === 'unsupported') return 'unsupported'
  if (run.status === 'interrupted') return 'interrupted'
  const failure = failureOf(run)
  if (run.status === 'skipped') return failure?.afterRun ? `skipped: run ${failure.afterRun} timed out` : 'skipped'
  return FAILURE_LABELS[failure?.kind] ?? 'failed'
}

// A noise threshold as the band a verdict's interval is judged by: 0.02 → "±2%", 0.005 → "±0.5%".
export const formatNoiseBand = (noise) => `±${+(noise * 100).toFixed(2)}%`

// A ratio as a signed change: 0.9 → "−10.0%", 1.05 → "+5.0%".
export function formatChangePct (ratio) {
  const pct = (ratio - 1) * 100
  return `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${Math.abs(pct).toFixed(1)}%`
}

// The coverages of several intervals as one title: "75%", "75–93.7%".
export function coverageRange (coverages) {
  const known = coverages.filter((c) => c > 0).sort((a, b) => a - b)
  if (!known.length) return 'no'
  const [low, high] = [coverageTitle(known[0]), coverageTitle(known[known.length - 1])]
  return low === high ? low : `${low.replace('%', '')}–${high}`
}

// A column's interval title, from coverageTitle or coverageRange: "93.7%", "75–93.7%", and "no
// interval" where no cell has one (one run each), never a bare "no".
export function intervalHeading (titled) {
  return titled === 'no' ? 'no interval' : titled
}

// A comparison (compareRuns in src/stats.js) as a change with its verdict, optionally its interval:
// "−10.0% [−12.1%, −8.2%] slower".
// decided: false where the page's rule withholds every verdict on these figures (a failed control,
// src/results/judge/verdict-rules.js): the change and its interval, then "not decided".
export function formatChange (comparison, { interval = false, decided = true } = {}) {
  if (comparison?.ratio == null) return ''
  const range = interval && comparison.ciLow != null && comparison.coverage > 0 ? ` [${formatChangePct(comparison.ciLow)}, ${formatChangePct(comparison.ciHigh)}${coverageNote(comparison.coverage)}]` : ''
  // Without a test (fewer than 2 runs a side) a verdict would be a guess: the change alone.
  return `${formatChangePct(comparison.ratio)}${range}${comparison.p == null ? '' : decided ? ` ${verdictWord(comparison.verdict)}` : ' not decided'}`
}

// A counted comparison's difference of medians in instructions, in the units a reader weighs: per
// log call (a `run` event is one call), and for http per request and, where the route logs several
// times, per log call: "+69,571 instructions per request, +13,914 per log call". No time: a count
// taken under the simulator says nothing of the machine's instructions per µs (docs/costs.md).
export function formatCountedDifference (difference, { type = 'run', logsPerRequest = null } = {}) {
  if (difference == null) return ''
  const signed = (v) => `${v > 0 ? '+' : v < 0 ? '−' : '±'}${formatCount(Math.abs(v))}`
  if (type !== 'http') return `${signed(difference)} instructions per log call`
  return `${signed(difference)} instructions per request${logsPerRequest > 0 ? `, ${signed(difference / logsPerRequest)} per log call` : ''}`
}

// compareRuns' runsToDecide in words ("about 31", "more than 1,000"): beyond 1,000 runs a side the
// estimate says only that no practical number of runs would decide.
export function formatRunsToDecide (n, { short = false } = {}) {
  if (n > 1000) return short ? '>1,000' : 'more than 1,000'
  return `${short ? '~' : 'about '}${formatCount(n)}`
}

// The four words (docs/comparisons.md, "One verdict, four words"): faster or slower (higher or lower
// for a measure without a better direction), same, and not decided. Records, --json and --fail-on
// keep the verdict's code `unclear`; every sentence and table says "not decided".
export function verdictWord (verdict) {
  return verdict === 'unclear' ? 'not decided' : verdict ?? ''
}

// Where every round ordered the pair the same way, the runs' side of it (judge's `higherIn` and
// `better`): "slower in each of 5 rounds". null where the rounds disagree or there are none.
export function orderWords (c) {
  if (!(c?.pairs >= 2) || c.higherIn == null || (c.higherIn > 0 && c.higherIn < c.pairs)) return null
  const higher = c.higherIn === c.pairs
  const word = c.better === 'lower' ? (higher ? 'slower' : 'faster') : c.better === 'higher' ? (higher ? 'faster' : 'slower') : (higher ? 'higher' : 'lower')
  return `${word} in each of ${c.pairs} rounds`
}

// A comparison that is not decided, in words that say on what and what would decide it:
// "not decided on 5 + 5 runs, unpaired; about 9 a side would decide it; slower in each of 5 rounds".
export function notDecidedWords (c) {
  const would = c.runsToDecide == null ? null : `${formatRunsToDecide(c.runsToDecide)} ${c.paired ? 'rounds' : 'a side'} would decide it`
  return [`not decided on ${basisWords(c)}`, would, orderWords(c)].filter(Boolean).join('; ')
}

// A paired comparison's ratio is the rounds' estimate (the centre of the per-round ratios), not the
// ratio of the two medians a page prints beside it; where the two differ visibly (by more than 2%),
// this says which one is shown: "per-round estimate, paired; the medians' ratio is 1.12×". '' where
// they are that close or
// the comparison is unpaired (its ratio is the medians'). turn: how the printed figure is made from a
// ratio (inverted for "how many times faster", or for a rate), applied to the medians' ratio alike.
export function estimateNote (c, turn = (v) => v) {
  const ofMedians = visibleMediansRatio(c, turn)
  return ofMedians == null ? '' : `per-round estimate, paired; the medians' ratio is ${formatRatio(ofMedians)}`
}
