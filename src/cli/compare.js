import { loadResults } from '../results/read.js'
import { DEFAULT_ALPHA, DEFAULT_TEST, TESTS, compareDatasets, describeSource, environmentNoteFor, renderComparison } from '../report/compare.js'
import { UsageError } from '../errors.js'

export const command = 'compare <base> <new>'
export const describe = 'Compare two results files cell by cell: medians, change, and whether it is significant (Mann–Whitney U test)'

export function builder (yargs) {
  return yargs
    .positional('base', { type: 'string', describe: 'Results JSON before the change' })
    .positional('new', { type: 'string', describe: 'Results JSON after the change' })
    .option('alpha', { type: 'string', default: String(DEFAULT_ALPHA), describe: 'Significance threshold (two-sided p)' })
    .option('test', { type: 'string', default: DEFAULT_TEST, describe: 'mann-whitney (medians; needs 4+ runs per side to reach p < 0.05) or welch (means, t-test)' })
    .example('$0 compare results/before.json results/after.json', '')
}

export function parseAlpha (value) {
  const alpha = Number(value)
  if (String(value).trim() === '' || !(alpha > 0 && alpha < 1)) throw new UsageError(`--alpha must be a number between 0 and 1, got "${value}"`)
  return alpha
}

export function parseTest (value) {
  if (typeof value !== 'string' || !Object.hasOwn(TESTS, value)) throw new UsageError(`--test must be one of ${Object.keys(TESTS).join(', ')}, got "${value}"`)
  return value
}

export async function handler (argv) {
  const alpha = parseAlpha(argv.alpha)
  const test = parseTest(argv.test)
  const base = loadResults([String(argv.base)])
  const next = loadResults([String(argv.new)])
  const result = compareDatasets(base, next, { alpha, test })
  process.stdout.write(renderComparison(result, {
    baseLabel: describeSource(argv.base, base),
    newLabel: describeSource(argv.new, next),
    environmentNote: environmentNoteFor(base, next)
  }))
}
