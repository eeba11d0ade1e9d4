import { DEFAULT_ALPHA, DEFAULT_NOISE } from '../../stats.js'
import { compareCellRuns } from '../rounds.js'

// The one verdict. Every place that states a comparison (compare, run's closing answer, the pages'
// Summaries and At a glance, the HTTP glance, the versions tables, the anomaly rules and --runs
// auto's judge) asks judge(), and none other: test/verdict.test.js fails if another source file
// calls compareRuns or compareCellRuns.
//
// judge takes a measure, not a value function and loose options: its direction (`better`) and its
// own noise threshold (x-measure `noise`: requests/s ±5%, counted instructions ±1%) come from the
// schema with it (measureNamed, src/results/run-types/index.js), so no caller can leave out a
// threshold. `noise` is the threshold for a measure without one of its own (--noise, ±2% by default).
//
// What it returns is compareRuns' row (src/stats.js) plus the threshold it was judged at (`noise`)
// and the measure's name: `ratio` is the estimate the verdict rests on (the paired Hodges–Lehmann
// ratio where the runs pair, the ratio of medians where they do not), with its interval; a sentence
// or a table that states the verdict prints that ratio, never a ratio of its own.
export function judge (baselineRuns, runs, measure, options = {}) {
  const { roundOf = null, alpha = DEFAULT_ALPHA, noise = DEFAULT_NOISE } = options
  if (typeof measure?.value !== 'function' || typeof measure.field !== 'string' || !Object.hasOwn(measure, 'better')) {
    throw new TypeError('judge: measure must be one of the schema\'s measures (measureNamed), with field, value and better')
  }
  const threshold = measure.noise ?? noise
  return {
    ...compareCellRuns(baselineRuns, runs, measure.value, { alpha, noise: threshold, better: measure.better, roundOf }),
    measure: measure.field,
    better: measure.better,
    noise: threshold
  }
}

// A verdict's estimate as "how many times" the better side, for sentences that name a best: for a
// time (lower is better) the ratio itself, for a rate (higher is better) its inverse, so that 1.25×
// always means 1.25 times worse than the best. The interval likewise, low to high.
export function timesWorse (comparison, better) {
  if (comparison?.ratio == null) return null
  const flip = better === 'higher'
  return {
    ratio: flip ? 1 / comparison.ratio : comparison.ratio,
    ciLow: comparison.ciLow == null ? null : flip ? 1 / comparison.ciHigh : comparison.ciLow,
    ciHigh: comparison.ciHigh == null ? null : flip ? 1 / comparison.ciLow : comparison.ciHigh,
    coverage: comparison.coverage
  }
}

export { DEFAULT_ALPHA, DEFAULT_NOISE }
