import { UsageError } from '../errors.js'
import { ORDER_OPTIONS } from './option-tables.js'
import { parseOptions } from './options.js'
import { canDecide, fewestDecidingMax, sequentialDesign } from '../results/sequential.js'
import { runsText } from './runs-option.js'

// --order and --seed (ORDER_OPTIONS), shared by `run` and `http` (both go through runCells).
export function parseOrder (argv) {
  const { order, seed } = parseOptions(ORDER_OPTIONS, argv)
  if (seed != null && order === 'blocked') throw new UsageError('--seed orders interleaved runs: it cannot be combined with --order blocked')
  return { mode: order, seed }
}

// --runs auto: the cells planned with it carry their group's design (src/results/sequential.js) and
// whether each is the cell its group is compared with, for runCells' judge (src/runner/enough-rounds.js).
// runs: --runs as parsed (a number, or { min, max }); asked: how the plan asked for it, for a refusal
// ("--runs", or a scenario's "scenarios/x.json: run[0]: runs").
export function withRounds (cells, runs, asked = '--runs') {
  if (typeof runs === 'object') for (const cell of cells) cell.rounds = { ...runs, asked }
  return cells
}

// A design whose looks can never reach p < α (every look is paired, and too few pairs cannot) is
// refused before anything runs: it would run to its maximum and read unclear whatever it measured.
export function planRounds (cells, order, { alpha, noise, baseline = null, isBaseline = () => false }) {
  const designs = new Map()
  for (const cell of cells) {
    if (!cell.rounds) continue
    if (order.mode === 'blocked') throw new UsageError('--runs auto adds rounds to interleaved runs: it cannot be combined with --order blocked')
    const { min, max, asked } = cell.rounds
    if (!designs.has(`${min}..${max}`)) {
      const design = sequentialDesign({ min, max }, { alpha, noise, baseline })
      if (!canDecide(design)) {
        const fewest = fewestDecidingMax(min, alpha)
        throw new UsageError(`${asked} ${runsText({ min, max })} can never decide: its looks are paired and fewer than ${fewest} rounds cannot reach p < ${alpha}; ask for a maximum of at least ${fewest} (${runsText({ min, max: fewest })})`)
      }
      designs.set(`${min}..${max}`, design)
    }
    cell.rounds = { design: designs.get(`${min}..${max}`), baseline: isBaseline(cell.settings) }
  }
  return cells
}
