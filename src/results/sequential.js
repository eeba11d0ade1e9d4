import { DEFAULT_ALPHA, DEFAULT_NOISE, maxOf, smallestSignedRankP } from '../stats.js'
import { dimensionValue } from './record.js'

// --runs auto: rounds as the question needs. A comparison group (the cells that differ only by
// library) runs round after round, and at fixed round counts, the looks, its comparisons are
// judged; once every one is decided (faster, slower or same) the group stops, else it stops at
// the maximum and what is undecided reads unclear.
//
// Looking again and again inflates false positives, so the looks are fixed in advance and α is
// split across them (Bonferroni): each look tests at lookAlpha, and an A/A's chance of reading
// faster or slower at any look is at most the sum of its chances at the looks, at most α. A look
// whose pairs cannot reach p < lookAlpha (the signed-rank test's smallest p with n pairs is 2 / 2^n)
// can only stop the group on `same`; it spends none of α, so α is split across the looks that can.
// The design (looks, α, lookAlpha) is recorded in the results (env.order.sequential), and every
// comparison of such a group, in compare and on the pages, tests at lookAlpha.

// The round counts at which a group is judged: the minimum, then about half as many again each
// time (6, 9, 14, 20): few looks keep more of α for each, and the last is the maximum.
export function looksFor ({ min, max }) {
  const looks = [min]
  while (looks.at(-1) < max) looks.push(Math.min(max, Math.ceil(looks.at(-1) * 1.5)))
  return looks
}

// The α each look tests at: the largest a such that the looks whose pairs can reach p < a, times a,
// make at most α (Bonferroni: the union over the looks stays at most α; a look that cannot reach it
// spends nothing). The largest is α / c for some count c, or a look's smallest p itself.
export function lookAlphaFor (alpha, looks) {
  const reaching = (a) => looks.filter((n) => smallestSignedRankP(n) < a).length
  const candidates = [
    ...looks.map((_, i) => alpha / (i + 1)),
    ...looks.map(smallestSignedRankP).filter((p) => p <= alpha)
  ]
  return maxOf(candidates.filter((a) => reaching(a) * a <= alpha))
}

// Whether a design can ever read faster or slower: its last look, the most pairs it takes, can
// reach p < lookAlpha. One that cannot only ever reads same or unclear, whatever the difference.
export function canDecide ({ looks, lookAlpha }) {
  return smallestSignedRankP(looks.at(-1)) < lookAlpha
}

// The fewest rounds auto:MIN..MAX must allow for its design to decide at α (6 at α 0.05, where the
// looks of auto:2..6 test at 0.05 and 6 pairs reach 0.031).
export function fewestDecidingMax (min, alpha = DEFAULT_ALPHA) {
  let max = min
  while (!canDecide(sequentialDesign({ min, max }, { alpha }))) max++
  return max
}

// The design recorded for the groups of a --runs auto plan.
export function sequentialDesign (
  { min, max },
  { alpha = DEFAULT_ALPHA, noise = DEFAULT_NOISE, baseline = null } = {}
) {
  const looks = looksFor({ min, max })
  return { min, max, looks, alpha, lookAlpha: lookAlphaFor(alpha, looks), noise, baseline }
}

// The design of a run's group in the document(s) it came from, or null where it ran a fixed number
// of runs: a function of a run, as roundsOf's. A design names its groups by what their cells share
// (every dimension but the library's: { type, transport, cpus, … }), so that this module needs no run
// type (they compare through it: src/results/run-types/http.js).
export function designsOf (source) {
  const envs = source?.envs ?? [{ file: null, env: source?.env }]
  const designs = envs.flatMap(({ file = null, env }) =>
    (env?.order?.sequential ?? []).map((design) => ({ file, design })))
  if (!designs.length) return () => null
  const found = new WeakMap()
  const matches = (run, group) => Object.entries(group).every(([field, value]) => dimensionValue(run, field) === value)
  return (run) => {
    if (!run) return null
    if (!found.has(run)) {
      found.set(run, designs.find(({ file, design }) =>
        file === (run.file ?? null) && (design.groups ?? []).some((group) => matches(run, group)))?.design ?? null)
    }
    return found.get(run)
  }
}

// The comparison options for two cells of a group that ran under a design: at the look's α (the α
// asked for, split across the design's looks), paired from 2 complete rounds (every look tests the
// rounds as pairs, also where they cannot reach lookAlpha: then only `same` can be read).
export function designedOptions (design, alpha) {
  return { alpha: lookAlphaFor(alpha ?? design.alpha, design.looks), minPairs: 2 }
}
