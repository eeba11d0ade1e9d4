import { UsageError } from '../errors.js'
import { ORDER_OPTIONS } from './option-tables.js'
import { parseOptions } from './options.js'
import { sequentialDesign } from '../results/sequential.js'

// --order and --seed (ORDER_OPTIONS), shared by `run` and `http` (both go through runCells).
export function parseOrder (argv) {
  const { order, seed } = parseOptions(ORDER_OPTIONS, argv)
  if (seed != null && order === 'blocked') throw new UsageError('--seed orders interleaved runs: it cannot be combined with --order blocked')
  return { mode: order, seed }
}

// --runs auto: the cells planned with it carry their group's design (src/results/sequential.js) and
// whether each is the cell its group is compared with, for runCells' judge (src/runner/enough-rounds.js).
// runs: --runs as parsed (a number, or { min, max }).
export function withRounds (cells, runs) {
  if (typeof runs === 'object') for (const cell of cells) cell.rounds = runs
  return cells
}

export function planRounds (cells, order, { alpha, noise, baseline = null, isBaseline = () => false }) {
  const designs = new Map()
  for (const cell of cells) {
    if (!cell.rounds) continue
    if (order.mode === 'blocked') throw new UsageError('--runs auto adds rounds to interleaved runs: it cannot be combined with --order blocked')
    const { min, max } = cell.rounds
    if (!designs.has(`${min}..${max}`)) designs.set(`${min}..${max}`, sequentialDesign({ min, max }, { alpha, noise, baseline }))
    cell.rounds = { design: designs.get(`${min}..${max}`), baseline: isBaseline(cell.settings) }
  }
  return cells
}
