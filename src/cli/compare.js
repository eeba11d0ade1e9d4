import { loadResults } from '../results/read.js'
import { DEFAULT_ALPHA, compareDatasets, describeSource, environmentNoteFor, renderComparison } from '../report/compare.js'
import { UsageError } from '../errors.js'

export const command = 'compare <base> <new>'
export const describe = 'Compare two results files cell by cell: medians, change, and whether it is significant'

export function builder (yargs) {
  return yargs
    .positional('base', { type: 'string', describe: 'Results JSON before the change' })
    .positional('new', { type: 'string', describe: 'Results JSON after the change' })
    .option('alpha', { type: 'string', default: String(DEFAULT_ALPHA), describe: 'Significance threshold for the two-sided Welch t-test' })
    .example('$0 compare results/before.json results/after.json', '')
}

export function parseAlpha (value) {
  const alpha = Number(value)
  if (String(value).trim() === '' || !(alpha > 0 && alpha < 1)) throw new UsageError(`--alpha must be a number between 0 and 1, got "${value}"`)
  return alpha
}

export async function handler (argv) {
  const alpha = parseAlpha(argv.alpha)
  const base = loadResults([String(argv.base)])
  const next = loadResults([String(argv.new)])
  const result = compareDatasets(base, next, { alpha })
  process.stdout.write(renderComparison(result, {
    baseLabel: describeSource(argv.base, base),
    newLabel: describeSource(argv.new, next),
    environmentNote: environmentNoteFor(base, next)
  }))
}
