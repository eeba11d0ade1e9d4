import path from 'node:path'
import { UsageError } from '../errors.js'
import { loadResults } from '../results/read.js'
import { EXPORTERS, FORMATS, exporterFor } from '../report/exporters.js'
import { list, oneOf, outputDirectory, outputFile } from './validate.js'

export const command = 'report <files..>'
export const describe = 'Turn results JSON into a results page (markdown + PNG charts) and/or CSV'

export function builder (yargs) {
  return yargs
    .positional('files', { type: 'string', describe: 'Results JSON files from `log-bench run` (same machine and Node version)' })
    .option('out', { type: 'string', default: 'results/README.md', describe: 'Markdown page to write; the CSV goes next to it with a .csv extension' })
    .option('images', { type: 'string', default: 'images', describe: 'Directory for the PNG charts (linked from the page by relative path)' })
    .option('format', { type: 'string', default: 'md', describe: `Comma list: ${EXPORTERS.map((e) => `${e.name} (${e.describe})`).join('; ')}` })
    .example('$0 report results/*.json', 'writes results/README.md and images/')
    .example('$0 report r.json --out docs/RESULTS.md --images docs/images --format md,csv', '')
}

export function parseReportOptions (argv) {
  const formats = [...new Set(oneOf(list(argv.format, 'format'), FORMATS, 'format'))]
  return { files: [argv.files].flat().map(String), formats, out: path.resolve(String(argv.out)), images: path.resolve(String(argv.images)) }
}

export async function handler (argv) {
  const options = parseReportOptions(argv)
  const dataset = loadResults(options.files)
  // Only once the inputs are known good: check every output, then create the page's directory
  // (docs/ in `--out docs/RESULTS.md`); the charts' directory is made when the first chart is written.
  outputDirectory(options.images, { label: `--images ${argv.images}` })
  for (const format of options.formats) {
    for (const file of exporterFor(format).targets(options)) {
      if (file === options.images) throw new UsageError(`--out ${argv.out} and --images ${argv.images} name the same path: the page and the charts' directory need two`)
      outputFile(file, { label: `--out ${argv.out}${file === options.out ? '' : ` (${path.basename(file)})`}`, create: true })
    }
  }
  const written = []
  for (const format of options.formats) written.push(...exporterFor(format).write(dataset, options))
  const relative = (file) => {
    const shown = path.relative(process.cwd(), file)
    return shown.startsWith('..') ? file : shown
  }
  const pngs = written.filter((f) => f.endsWith('.png'))
  const others = written.filter((f) => !f.endsWith('.png'))
  process.stdout.write(`wrote ${others.map(relative).join(', ')}${pngs.length ? ` and ${pngs.length} chart${pngs.length > 1 ? 's' : ''} in ${relative(options.images)}/` : ''}\n`)
}
