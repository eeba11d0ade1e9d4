import { comparisonJson, renderComparison } from '../report/compare.js'
import { compareFrom } from '../api/compare.js'
import { COMPARE_OPTIONS } from '../api/option-tables.js'
import { addOptions } from '../api/options.js'

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
  const { result, labels } = compareFrom(argv)
  process.stdout.write(argv.json ? comparisonJson(result) : renderComparison(result, labels))
}
