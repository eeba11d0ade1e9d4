import { UsageError } from '../errors.js'
import { DEFAULT_ORDER, ORDERS } from '../bench/orchestrator.js'
import { positiveInt } from './validate.js'

// --order and --seed, shared by `run` and `http` (both go through runCells).
export function addOrderOptions (yargs) {
  return yargs
    .option('order', { type: 'string', describe: `interleaved: rounds, run 1 of every cell, then run 2 of every cell…, the cells of a round in an order shuffled from --seed, so a slow minute of the machine falls on every library alike; blocked: each cell's runs back to back [default: ${DEFAULT_ORDER}]` })
    .option('seed', { type: 'string', describe: 'Seed of the interleaved order (recorded in the results as env.order; give it again to repeat an order) [default: a new one]' })
}

export function parseOrder (argv) {
  const mode = argv.order ?? DEFAULT_ORDER
  if (typeof mode !== 'string' || !ORDERS.includes(mode)) throw new UsageError(`--order must be one of ${ORDERS.join(', ')}, got "${mode}"`)
  if (argv.seed != null && mode === 'blocked') throw new UsageError('--seed orders interleaved runs: it cannot be combined with --order blocked')
  return { mode, seed: argv.seed == null ? null : positiveInt(argv.seed, 'seed', { min: 0, max: 2 ** 31 - 1 }) }
}
