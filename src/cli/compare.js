import { loadResults } from '../results/read.js'
import { DEFAULT_ALPHA, DEFAULT_NOISE, compareDatasets, compareWithBaseline, comparisonJson, describeSource, environmentNoteFor, renderComparison } from '../report/compare.js'
import { UsageError } from '../errors.js'
import { runName } from '../report/labels.js'

export const command = 'compare <base> [new]'
export const describe = 'Compare cells with a verdict (faster, slower, same): two results files cell by cell, or the cells of one file against a baseline library (--baseline)'

export function builder (yargs) {
  return addComparisonOptions(yargs)
    .positional('base', { type: 'string', describe: 'Results JSON before the change (with --baseline: the results to compare)' })
    .positional('new', { type: 'string', describe: 'Results JSON after the change (not with --baseline)' })
    .option('baseline', { type: 'string', describe: 'Compare every cell of one results file with this library\'s cell of the same transport, workers, workload, size and receiving end (a name as in the results: pino, pino:sync, an adapter\'s name)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the comparisons as JSON ({ comparisons: [...] }, one row per cell and measure) instead of tables' })
    .example('$0 compare results/before.json results/after.json', '')
    .example('$0 compare results/run.json --baseline pino', 'every library against pino, cell by cell')
}

// --alpha and --noise, shared by `compare` and `run --baseline`.
export function addComparisonOptions (yargs) {
  return yargs
    .option('alpha', { type: 'string', describe: `Significance threshold (two-sided p of the Mann–Whitney U test) [default: ${DEFAULT_ALPHA}]` })
    .option('noise', { type: 'string', describe: `Noise threshold: a difference whose 95% interval lies within ±noise reads "same" (0.02 or 2%) [default: ${DEFAULT_NOISE * 100}%]` })
}

export function parseAlpha (value) {
  if (value == null) return DEFAULT_ALPHA
  const alpha = Number(value)
  if (Array.isArray(value) || String(value).trim() === '' || !(alpha > 0 && alpha < 1)) throw new UsageError(`--alpha must be a number between 0 and 1, got "${value}"`)
  return alpha
}

// A fraction (0.02) or a percentage with its sign (2%).
export function parseNoise (value) {
  if (value == null) return DEFAULT_NOISE
  const text = Array.isArray(value) ? '' : String(value).trim()
  const percent = text.endsWith('%')
  const number = Number(percent ? text.slice(0, -1) : text)
  const noise = percent ? number / 100 : number
  if (text === '' || text === '%' || !Number.isFinite(number) || noise < 0 || noise >= 1) throw new UsageError(`--noise must be a fraction from 0 to below 1 (0.02) or a percentage (2%), got "${value}"`)
  return noise
}

export async function handler (argv) {
  const alpha = parseAlpha(argv.alpha)
  const noise = parseNoise(argv.noise)
  let result
  let labels = {}
  if (argv.baseline != null) {
    if (typeof argv.baseline !== 'string' || argv.baseline.trim() === '') throw new UsageError('--baseline needs a library name, e.g. --baseline pino')
    if (argv.new != null) throw new UsageError(`--baseline compares the cells of one results file: give one file, not two (${argv.base}, ${argv.new})`)
    const dataset = loadResults([String(argv.base)])
    result = compareWithBaseline(dataset, argv.baseline.trim(), { alpha, noise })
    if (result.comparisons.length === 0 && !dataset.runs.some((r) => runName({ lib: r.lib, variant: r.variant }) === argv.baseline.trim())) {
      throw new UsageError(`--baseline ${argv.baseline}: ${result.notCompared[0]}`)
    }
  } else {
    if (argv.new == null) throw new UsageError('compare needs two results files (base and new), or one file and --baseline LIB')
    const base = loadResults([String(argv.base)])
    const next = loadResults([String(argv.new)])
    result = compareDatasets(base, next, { alpha, noise, baseLabel: String(argv.base) })
    labels = { baseLabel: describeSource(argv.base, base), newLabel: describeSource(argv.new, next), environmentNote: environmentNoteFor(base, next) }
  }
  process.stdout.write(argv.json ? comparisonJson(result) : renderComparison(result, labels))
}
