import { UsageError } from '../errors.js'
import { MAX_RUNS } from '../limits.js'
import { positiveInt } from './validate.js'

// --runs, for run and http: a fixed number of runs per cell, or auto: rounds until the comparisons
// of each group are decided (src/results/sequential.js has the design, src/runner/enough-rounds.js
// the stopping). A leaf module, so that the option tables read it without the result model.

export const AUTO_RUNS = { min: 6, max: 20 }

// --runs: a whole number of runs, or auto (AUTO_RUNS), or auto:MIN..MAX (MIN at least 2: a round
// is a pair only beside another).
export function parseRuns (value) {
  const text = String(value).trim()
  const auto = 'auto, or auto:MIN..MAX such as auto:6..12'
  if (!text.startsWith('auto')) return positiveInt(value, 'runs', { max: MAX_RUNS, why: ` (or ${auto})` })
  if (text === 'auto') return { ...AUTO_RUNS }
  const range = /^auto:(\d+)\.\.(\d+)$/.exec(text)
  const [min, max] = range ? [Number(range[1]), Number(range[2])] : []
  if (!range || min < 2 || max < min || max > MAX_RUNS) throw new UsageError(`--runs must be auto (${AUTO_RUNS.min} to ${AUTO_RUNS.max} rounds) or auto:MIN..MAX with 2 <= MIN <= MAX <= ${MAX_RUNS} (auto:6..12), got "${value}"`)
  return { min, max }
}

// How a --runs value reads in a plan's description (and so its id): 5, or auto:6..20.
export const runsText = (runs) => (typeof runs === 'number' ? runs : `auto:${runs.min}..${runs.max}`)

// The most runs a cell may take: its --runs, or the maximum of auto.
export const maxRuns = (runs) => (typeof runs === 'number' ? runs : runs.max)

// The scenario schema of `runs`: a number, or auto's words.
export const RUNS_SCHEMA = { oneOf: [{ type: 'integer', minimum: 1, maximum: MAX_RUNS }, { type: 'string', pattern: '^auto(:[0-9]+\\.\\.[0-9]+)?$' }] }
