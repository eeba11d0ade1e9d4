import { UsageError } from '../errors.js'
import { ORDER_OPTIONS } from './option-tables.js'
import { parseOptions } from './options.js'

// --order and --seed (ORDER_OPTIONS), shared by `run` and `http` (both go through runCells).
export function parseOrder (argv) {
  const { order, seed } = parseOptions(ORDER_OPTIONS, argv)
  if (seed != null && order === 'blocked') throw new UsageError('--seed orders interleaved runs: it cannot be combined with --order blocked')
  return { mode: order, seed }
}
