import { DEFAULT_NOISE } from './stats.js'

// Numbers as every page, table, sentence and rule writes them: one set, at the ground of src/ so
// that the judgement (src/results/judge/) and the exporters share it.

// A count as tables write it: 10000 → "10,000".
export function formatCount (v) {
  return formatNumber(v, 0)
}

export function formatNumber (v, digits = 0) {
  return v == null ? '' : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

export function formatMs (v) {
  if (v == null) return ''
  if (Math.abs(v) < 1) return v.toFixed(2)
  if (Math.abs(v) < 10) return v.toFixed(1)
  return Math.round(v).toLocaleString('en-US')
}

export function formatPct (v) {
  if (v == null) return 'unknown'
  return `${(v * 100).toFixed(v > 0 && v < 0.001 ? 3 : 2)}%`
}

// Memory and throughput alike, in units of 1024 (the unit of RSS figures), so named as binary
// units: 337 MiB, not "337 MB" (which would be 353,370,112 bytes read as 10^6).
export function formatBytes (v) {
  if (v == null) return ''
  if (v >= 1024 ** 3) return `${(v / 1024 ** 3).toFixed(1)} GiB`
  if (v >= 10 * 1024 ** 2) return `${Math.round(v / 1024 ** 2).toLocaleString('en-US')} MiB`
  if (v >= 1024 ** 2) return `${(v / 1024 ** 2).toFixed(1)} MiB`
  if (v >= 1024) return `${(v / 1024).toFixed(1)} KiB`
  return `${Math.round(v)} B`
}

export function formatRatio (v) {
  return v == null ? '' : `${v.toFixed(v < 10 ? 2 : 1)}×`
}

// Words joined as a sentence lists them: "a", "a and b", "a, b and c".
export function listWords (items) {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? '')
}

export function unique (values) {
  return [...new Set(values)]
}

// An interval's coverage as its title: "75%", "93.7%" (rounded down: never claimed higher than it
// is); "no" for one run.
export function coverageTitle (coverage) {
  if (!(coverage > 0)) return 'no'
  const tenths = Math.floor(coverage * 1000 + 1e-9) / 10
  return `${Number.isInteger(tenths) ? tenths : tenths.toFixed(1)}%`
}

// An interval from few runs covers less than 95%: say how much, as its title says it (e.g. "; 93.7%").
export function coverageNote (coverage) {
  return coverage != null && coverage < 0.95 ? `; ${coverageTitle(coverage)}` : ''
}

// What a comparison rests on: "6 rounds, paired" or "5 + 5 runs, unpaired".
export function basisWords (c) {
  return c.paired ? `${c.pairs} rounds, paired` : `${c.nBaseline} + ${c.n} runs, unpaired`
}

// "medians' ratio 1.06×" beside a paired estimate that differs from it visibly (by more than the
// default noise threshold, 2%); '' otherwise. One number per pair: the estimate is the figure, the
// medians' ratio only labelled beside it, so that a reader who divides the medians printed next to
// it knows why the two differ.
export function mediansRatioNote (c, turn = (v) => v) {
  const ofMedians = visibleMediansRatio(c, turn)
  return ofMedians == null ? '' : `medians' ratio ${formatRatio(ofMedians)}`
}

export function visibleMediansRatio (c, turn) {
  if (!c?.paired || c.ratio == null || !(c.baselineMedian > 0) || !(c.median > 0)) return null
  const [shown, ofMedians] = [turn(c.ratio), turn(c.median / c.baselineMedian)]
  return Math.abs(shown / ofMedians - 1) <= DEFAULT_NOISE ? null : ofMedians
}

// " [1.16, 1.47]" after a ratio (or a multiple turned from one), with its coverage where the runs
// cannot reach 95%; '' without an interval.
export function ratioInterval (c) {
  if (c?.ciLow == null || !(c.coverage > 0)) return ''
  return ` [${c.ciLow.toFixed(2)}, ${c.ciHigh.toFixed(2)}${coverageNote(c.coverage)}]`
}
