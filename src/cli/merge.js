import { writeJsonAtomic } from '../results/write.js'
import { MERGE_OPTIONS } from '../api/option-tables.js'
import { addOptions } from '../api/options.js'
import { UsageError } from '../errors.js'
import { outputFile, refuseToReplace } from '../api/validate.js'

export const command = 'merge <files..>'
export const describe = 'Join the results of shards (log-bench run --shard k/n) into one results file'

export function builder (yargs) {
  return addOptions(yargs, MERGE_OPTIONS)
    .positional('files', { type: 'string', describe: 'Results JSON files, one per shard of the same scenario or options' })
    .example('$0 merge shard-1.json shard-2.json --out all.json', '')
    .example('$0 merge shard-*.json --out all.json --force', 'replace all.json from an earlier merge')
}

// The command's work is imported when it runs, so that --help and --version start at once.
export async function handler (argv) {
  const [{ mergeShards }, { readResultsFile }] = await Promise.all([import('../results/merge.js'), import('../results/read.js')])
  if (argv.out == null) throw new UsageError('merge needs --out FILE for the merged results, e.g. log-bench merge shard-1.json shard-2.json --out merged.json')
  const out = outputFile(argv.out, { create: true, inputs: argv.files })
  refuseToReplace(out, { force: argv.force, label: `--out ${argv.out}` })
  const inputs = argv.files.map((file) => ({ file, doc: readResultsFile(file) }))
  const { doc, missing } = mergeShards(
    inputs,
    { allowMixedHardware: argv.allowMixedHardware, allowMixedCommits: argv.allowMixedCommits, out }
  )
  writeJsonAtomic(out, doc)
  const note = missing.length ? `; shards ${missing.join(', ')} are missing, so the result is marked incomplete` : ''
  process.stdout.write(`merged ${inputs.length} shards, ${doc.runs.length} runs, into ${out}${note}\n`)
}
