import { loadResults } from '../results/read.js'
import { DEFAULT_NOISE, compareDatasets, baselineMatcher, compareWithBaseline, comparisonJson, describeSource, environmentNoteFor, gateFailures, gateMessage, renderComparison, whyNothingCompared } from '../report/compare.js'
import { comparisonMarkdown } from '../report/compare-markdown.js'
import { EXIT, UsageError } from '../errors.js'
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
    .example('$0 compare bench.json --baseline pino@10 --fail-on slower --markdown > comment.md', 'a CI gate: exit 3 when a cell reads slower, and a pull-request comment')
}

export async function handler (argv) {
  const { baseline, alpha, noise = null, json, markdown, failOn, ignoreVersion } = parseOptions(COMPARE_OPTIONS, argv)
  if (json && markdown) throw new UsageError('--json and --markdown are two formats: give one')
  const options = { alpha, noise: noise ?? DEFAULT_NOISE }
  let result
  let labels = {}
  if (baseline != null) {
    const name = baseline.trim()
    if (name === '') throw new UsageError('--baseline needs a library name, e.g. --baseline pino')
    if (argv.new != null) throw new UsageError(`--baseline compares the cells of one results file: give one file, not two (${argv.base}, ${argv.new})`)
    if (ignoreVersion) throw new UsageError('--ignore-version pairs the cells of two files; with --baseline, name the version instead (--baseline pino@9)')
    const dataset = loadResults([String(argv.base)])
    result = compareWithBaseline(dataset, name, options)
    const isBaseline = baselineMatcher(name)
    if (!dataset.runs.some(isBaseline)) throw new UsageError(`--baseline ${name}: ${result.notCompared[0]}`)
    if (result.comparisons.length === 0) throw new UsageError(`--baseline ${name}: nothing to compare in ${argv.base}${result.notCompared.length ? `: ${result.notCompared.join('; ')}` : `: it holds no cell but ${name}'s`}`)
  } else {
    if (argv.new == null) throw new UsageError('compare needs two results files (base and new), or one file and --baseline LIB')
    const base = loadResults([String(argv.base)])
    const next = loadResults([String(argv.new)])
    result = compareDatasets(base, next, { ...options, baseLabel: String(argv.base), ignoreVersion })
    // A comparison of nothing is not a pass: a gate on it would check nothing.
    if (result.comparisons.length === 0) throw new UsageError(whyNothingCompared(result, base, next, { baseFile: String(argv.base), newFile: String(argv.new) }))
    labels = { baseLabel: describeSource(argv.base, base), newLabel: describeSource(argv.new, next), environmentNote: environmentNoteFor(base, next) }
  }
  process.stdout.write(json ? comparisonJson(result) : markdown ? comparisonMarkdown(result, { ...labels, baseLabel: String(argv.base), newLabel: argv.new == null ? null : String(argv.new) }) : renderComparison(result, labels))
  if (failOn) {
    const failures = gateFailures(result, failOn)
    if (failures.length) {
      process.stderr.write(`log-bench: ${gateMessage(failures, failOn, result.comparisons.length)}\n`)
      process.exitCode = EXIT.FAIL_ON
    }
  }
}
