import { cellKey, COMPARED_DIMENSIONS, comparisonGroupKey, dimensionValue, runTypeOf } from '../results/model.js'
import { compared } from '../results/run-types/index.js'
import { roundsOf } from '../results/rounds.js'
import { judge } from '../results/judge/verdict.js'
import { rank } from '../results/judge/rank.js'

// --runs auto (src/results/sequential.js): whether a comparison group has had rounds enough. A cell
// planned with it carries `rounds`: { design, baseline } (its group's design, and whether it is the
// cell the others are compared with). Nothing here depends on how a cell executes its runs.

// The design of each group, as the results record it (env.order.sequential): one entry per design,
// with the comparison groups that ran under it, each as what its cells share (every dimension but
// the library's). Null where no cell runs under --runs auto.
export function recordedDesigns (cells) {
  const designs = new Map()
  for (const cell of cells) {
    if (!cell.rounds) continue
    const { design } = cell.rounds
    if (!designs.has(design)) designs.set(design, new Map())
    designs.get(design).set(comparisonGroupKey(cell.settings), groupOf(cell.settings))
  }
  return designs.size ? [...designs].map(([design, groups]) => ({ ...design, groups: [...groups.values()] })) : null
}

const groupOf = (common) => Object.fromEntries(runTypeOf(common).dimensions.filter((f) => !COMPARED_DIMENSIONS.includes(f) && f !== 'libVersion').map((f) => [f, dimensionValue(common, f)]))

// A judge for runCells: (cell, run) → null while the cell's group should go on, or the reason it
// stops before `run`. A group is judged once per look, before its first run of the round after the
// look, on the runs the store holds (so --resume stops where the first session would have).
export function roundsJudge (cells, store) {
  const groups = new Map()
  for (const cell of cells) {
    if (!cell.rounds) continue
    const key = comparisonGroupKey(cell.settings)
    if (!groups.has(key)) groups.set(key, { cells: [], design: cell.rounds.design, judged: new Set(), stopped: null })
    groups.get(key).cells.push(cell)
  }
  // Rounds and designs as a document of these runs records them (compare reads them so).
  const roundOf = roundsOf({ env: { order: { mode: 'interleaved', sequential: recordedDesigns(cells) } } })
  return (cell, run) => {
    const group = cell.rounds ? groups.get(comparisonGroupKey(cell.settings)) : null
    if (!group) return null
    const look = run - 1
    if (group.stopped == null && group.design.looks.includes(look) && !group.judged.has(look)) {
      group.judged.add(look)
      const runsOf = (c) => store.doc.runs.filter((r) => r.run <= look && cellKey(r) === c.key)
      const open = undecided(
        group.cells.map((c) => ({ name: c.label, baseline: c.rounds.baseline, runs: runsOf(c) })),
        { roundOf, noise: group.design.noise }
      )
      if (!open.length) group.stopped = look
    }
    return group.stopped == null ? null : `stopped after ${group.stopped} rounds (--runs auto, at most ${group.design.max}): every comparison of its group is decided`
  }
}

// The comparisons of a group that are not decided yet (neither faster, slower nor same), by name:
// each cell against the baseline cell, where the group has one, and each cell against its neighbour
// in the ranking (rank, what a page's "fastest" rests on), on each speed measure the runs
// recorded. cells: [{ name, baseline, runs }]. judge (src/results/judge/verdict.js) judges them as compare will (at the
// design's α for each look, through roundOf's designOf).
export function undecided (cells, { roundOf, noise }) {
  const type = cells.flatMap((c) => c.runs).map(runTypeOf).find(Boolean)
  if (!type) return []
  const open = []
  for (const measure of compared(type).filter((m) => m.compare === 'speed')) {
    const { ranked } = rank(cells, { measure, runsOf: (c) => c.runs, roundOf, noise })
    if (ranked.length < 2) continue
    const pairs = []
    const base = ranked.find((c) => c.baseline)
    if (base) for (const c of ranked) if (c !== base) pairs.push([base, c])
    for (let i = 1; i < ranked.length; i++) {
      if (!pairs.some((pair) => pair.includes(ranked[i - 1]) && pair.includes(ranked[i]))) {
        pairs.push([ranked[i - 1], ranked[i]])
      }
    }
    for (const [a, b] of pairs) {
      const { verdict } = judge(a.runs, b.runs, measure, { roundOf, noise })
      if (verdict == null || verdict === 'unclear') open.push(`${b.name} vs ${a.name}: ${measure.title}`)
    }
  }
  return open
}
