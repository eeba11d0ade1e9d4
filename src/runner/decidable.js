import { comparisonGroupKey } from '../results/model.js'
import { DEFAULT_ALPHA, minOf, pairedMinRounds, smallestMannWhitneyP } from '../stats.js'

// A design that cannot decide is named before it runs: a comparison group whose cells take too few
// runs for any comparison of it to reach p < α reads unclear however large the difference, so the
// session says so, with the runs that could, before the first run (a warning: the runs go ahead).
// With fewer runs than pairing needs (pairedMinRounds) every comparison is unpaired, Mann–Whitney
// on n + n runs, whose smallest p is 2 / C(2n, n): 3 + 3 give 0.1, 4 + 4 0.029. A counted group
// (--measure instructions) is compared so; a timed group run in rounds pairs them from 6 on, but
// can decide unpaired from 4. --runs auto groups were checked when planned (planRounds).

// The fewest runs a cell with which n + n runs, unpaired, can reach p < alpha (4 at 0.05).
export function fewestDecidingRuns (alpha = DEFAULT_ALPHA) {
  let n = 1
  while (smallestMannWhitneyP(n, n) >= alpha) n++
  return n
}

// One line naming the groups that cannot decide, or null. cells: the plan's (runCells' shape).
export function undecidableWarning (cells, { order = { mode: 'interleaved' }, alpha = DEFAULT_ALPHA } = {}) {
  const groups = new Map()
  for (const cell of cells) {
    if (cell.unsupported || cell.rounds) continue
    const key = comparisonGroupKey(cell.settings)
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key).push(cell)
  }
  const compared = [...groups.values()].filter((group) => group.length > 1)
  const fewest = fewestDecidingRuns(alpha)
  const short = new Map()
  for (const group of compared) {
    const runs = minOf(group.map((cell) => cell.runs))
    if (runs >= fewest) continue
    const counted = group.some((cell) => cell.settings.measure === 'instructions')
    const clause = `${runs} run${runs === 1 ? '' : 's'} a cell cannot decide a ${counted ? 'counted' : 'timed'} comparison (${runs === 1
      ? 'one run a side gives no test'
      : `${runs} + ${runs} runs give p ≥ ${+smallestMannWhitneyP(runs, runs).toPrecision(2)}`}); ${fewest} could${!counted && order.mode === 'interleaved' ? `, and ${pairedMinRounds(alpha)} pair its rounds` : ''}`
    short.set(clause, (short.get(clause) ?? 0) + 1)
  }
  if (!short.size) return null
  const groupsShort = [...short.values()].reduce((a, b) => a + b, 0)
  const which = groupsShort < compared.length ? ` (${groupsShort} of ${compared.length} comparison groups)` : ''
  return `${[...short.keys()].join('; ')}${which}`
}
