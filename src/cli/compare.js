import { loadResults } from '../results/read.js'
import { DEFAULT_NOISE, compareDatasets, baselineMatcher, compareWithBaseline, comparisonJson, describeSource, environmentNoteFor, renderComparison } from '../report/compare.js'
import { UsageError } from '../errors.js'
import { COMPARE_OPTIONS } from './option-tables.js'
import { addOptions, parseOptions } from './options.js'

export const command = 'compare <base> [new]'
export const describe = 'Compare cells with a verdict (faster, slower, same): two results files cell by cell, or the cells of one file against a baseline library (--baseline)'

export function builder (yargs) {
  return addOptions(yargs, COMPARE_OPTIONS)
    .positional('base', { type: 'string', describe: 'Results JSON before the change (with --baseline: the results to compare)' })
    .positional('new', { type: 'string', describe: 'Results JSON after the change (not with --baseline)' })
    .example('$0 compare results/before.json results/after.json', '')
    .example('$0 compare results/run.json --baseline pino', 'every library against pino, cell by cell')
}

export async function handler (argv) {
  const { baseline, alpha, noise = null, json } = parseOptions(COMPARE_OPTIONS, argv)
  const options = { alpha, noise: noise ?? DEFAULT_NOISE }
  let result
  let labels = {}
  if (baseline != null) {
    const name = baseline.trim()
    if (name === '') throw new UsageError('--baseline needs a library name, e.g. --baseline pino')
    if (argv.new != null) throw new UsageError(`--baseline compares the cells of one results file: give one file, not two (${argv.base}, ${argv.new})`)
    const dataset = loadResults([String(argv.base)])
    result = compareWithBaseline(dataset, name, options)
    const isBaseline = baselineMatcher(name)
    if (!dataset.runs.some(isBaseline)) throw new UsageError(`--baseline ${name}: ${result.notCompared[0]}`)
  } else {
    if (argv.new == null) throw new UsageError('compare needs two results files (base and new), or one file and --baseline LIB')
    const base = loadResults([String(argv.base)])
    const next = loadResults([String(argv.new)])
    result = compareDatasets(base, next, { ...options, baseLabel: String(argv.base) })
    labels = { baseLabel: describeSource(argv.base, base), newLabel: describeSource(argv.new, next), environmentNote: environmentNoteFor(base, next) }
  }
  process.stdout.write(json ? comparisonJson(result) : renderComparison(result, labels))
}
