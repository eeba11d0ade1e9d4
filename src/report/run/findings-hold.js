import { basisWords, formatRatio, ratioInterval, verdictWord } from '../../draw/labels.js'
import { minOf, maxOf } from '../../stats.js'

// Which of the 2019 article's findings still hold, pair by pair, from the article's own runs (the
// three per-run figures of each cell, results/reference/) and ours (judge()'s verdict on this page's
// runs). The article separated a pair where every run of one was below every run of the other:
// that is its finding. It holds only where ours separate the two the same way; a pair ours separate
// the other way is a reversal; a pair ours do not separate is a lead gone, with both magnitudes.
// A pair the article did not separate made no finding, whatever ours say.

// A reference cell's library as our cells name it ("bunyan:sys" where it names a variant).
const nameOf = (c) => (c.variant ? `${c.lib}:${c.variant}` : c.lib)

// The fewest runs a side for "every run below every run" to mean more than one draw.
const MIN_THEN_RUNS = 2

// How the article's runs order a and b on one measure: { ahead, behind, ratio } where every run of
// `ahead` was below every run of `behind` (ratio: the averages', behind over ahead); { overlap: true }
// where they overlap; null where the reference has too few runs to say.
export function articleSeparates (a, b, measure) {
  const [runsA, runsB] = [a.runs?.[measure], b.runs?.[measure]]
  if (!(runsA?.length >= MIN_THEN_RUNS && runsB?.length >= MIN_THEN_RUNS)) return null
  const below = (x, y) => maxOf(x) < minOf(y)
  if (below(runsA, runsB)) return { ahead: nameOf(a), behind: nameOf(b), ratio: b[measure] / a[measure] }
  if (below(runsB, runsA)) return { ahead: nameOf(b), behind: nameOf(a), ratio: a[measure] / b[measure] }
  return { overlap: true }
}

// One pair's finding. then: articleSeparates' answer; now: judge() with the article's leader as the
// baseline, so that `slower` is the article's order. Returns { kind: 'holds' | 'reversed' |
// 'lead gone', text }.
export function pairFinding (then, now) {
  const pair = `${then.ahead} ahead of ${then.behind}: ${formatRatio(then.ratio)} then`
  const nowWords = now?.ratio == null
    ? 'no runs to judge now'
    : `${formatRatio(now.ratio)}${ratioInterval(now)} now (${verdictWord(now.verdict)}, ${basisWords(now)})`
  if (now?.verdict === 'slower') return { kind: 'holds', text: `holds: ${pair}, ${nowWords}` }
  if (now?.verdict === 'faster') return { kind: 'reversed', text: `reversed: ${then.behind} now ahead of ${then.ahead} (${pair}, ${nowWords})` }
  return { kind: 'lead gone', text: `lead gone: ${pair}, ${nowWords}` }
}

// The finding of one transport, number of CPUs and measure, from its pairs: every reversal and
// lead gone first, "holds" only for the pairs that hold; the pairs the article did not separate said.
// unseparated: the pairs whose runs overlapped; unknown: the pairs without the article's runs.
export function findingOfPairs (pairs, unseparated, unknown = []) {
  const order = { reversed: 0, 'lead gone': 1, holds: 2 }
  const sorted = [...pairs].sort((x, y) => order[x.kind] - order[y.kind])
  const named = (list) => list.map((p) => p.join(' and ')).join(', ')
  const overlap = unseparated.length ? `no finding for ${named(unseparated)} (the article's runs overlapped)` : ''
  const without = unknown.length ? `not judged for ${named(unknown)} (the reference file has not the article's runs)` : ''
  return [...sorted.map((p) => p.text), overlap, without].filter(Boolean).join('; ')
}
