import { mergeShards } from '../results/merge.js'
import { readResultsFile } from '../results/read.js'
import { writeJsonAtomic } from '../results/write.js'
import { MERGE_OPTIONS } from './option-tables.js'
import { addOptions } from './options.js'
import { outputFile } from './validate.js'

export const command = 'merge <files..>'
export const describe = 'Join the results of shards (log-bench run --shard k/n) into one results file'

export function builder (yargs) {
  return addOptions(yargs, MERGE_OPTIONS)
    .demandOption('out', 'give --out <file> for the merged results')
    .positional('files', { type: 'string', describe: 'Results JSON files, one per shard of the same scenario or options' })
    .example('$0 merge shard-1.json shard-2.json --out all.json', '')
}

export async function handler (argv) {
  const out = outputFile(argv.out, { create: true })
  const inputs = argv.files.map((file) => ({ file, doc: readResultsFile(file) }))
  const { doc, missing } = mergeShards(inputs, { allowMixedHardware: argv.allowMixedHardware })
  writeJsonAtomic(out, doc)
  const note = missing.length ? `; shards ${missing.join(', ')} are missing, so the result is marked incomplete` : ''
  process.stdout.write(`merged ${inputs.length} shards, ${doc.runs.length} runs, into ${out}${note}\n`)
}
