import { loadResults } from '../results/read.js'
import { compareDatasets, describeSource, environmentNoteFor, renderComparison } from '../report/compare.js'
import { COMPARE_OPTIONS } from './option-tables.js'
import { addOptions, parseOptions } from './options.js'

export const command = 'compare <base> <new>'
export const describe = 'Compare two results files cell by cell: medians, change, and whether it is significant (Mann–Whitney U test)'

export function builder (yargs) {
  return addOptions(yargs, COMPARE_OPTIONS)
    .positional('base', { type: 'string', describe: 'Results JSON before the change' })
    .positional('new', { type: 'string', describe: 'Results JSON after the change' })
    .example('$0 compare results/before.json results/after.json', '')
}

export async function handler (argv) {
  const { alpha, test } = parseOptions(COMPARE_OPTIONS, argv)
  const base = loadResults([String(argv.base)])
  const next = loadResults([String(argv.new)])
  const result = compareDatasets(base, next, { alpha, test })
  process.stdout.write(renderComparison(result, {
    baseLabel: describeSource(argv.base, base),
    newLabel: describeSource(argv.new, next),
    environmentNote: environmentNoteFor(base, next)
  }))
}
