import fs from 'node:fs'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { loadResults } from '../results/read.js'
import { removeEmptyTree } from '../results/write.js'
import { exporterFor } from '../report/exporters.js'
import { readPages, writePages } from '../report/pages.js'
import { REPORT_OPTIONS } from './option-tables.js'
import { addOptions, givenOptions, parseOptions } from './options.js'
import { filePathText, outputDirectory, outputFile, refuseExisting } from './validate.js'

export const command = 'report [files..]'
export const describe = 'Turn results JSON into a results page (markdown + PNG charts) and/or CSV'

export function builder (yargs) {
  return addOptions(yargs, REPORT_OPTIONS)
    .positional('files', { type: 'string', describe: 'Results JSON files from `log-bench run` (same machine and Node version)' })
    .example('$0 report results/*.json', 'writes results/README.md and images/')
    .example('$0 report --pages results/pages.json', 'regenerates every committed results page (results/README.md, results/http.md, …)')
    .example('$0 report r.json --out docs/RESULTS.md --images docs/images --format md,csv', '')
}

export function parseReportOptions (argv) {
  const given = parseOptions(REPORT_OPTIONS, argv)
  filePathText(given.out, `--out ${given.out}`)
  return { force: given.force, defaultOut: argv.out == null, files: [argv.files].flat().map(String), formats: given.format, out: path.resolve(given.out), images: path.resolve(given.images), outText: given.out, imagesText: given.images }
}

export async function handler (argv) {
  if (argv.pages != null) return reportPages(argv)
  if (argv.files == null || [argv.files].flat().length === 0) throw new UsageError('give the results JSON files to report, or --pages <file>')
  const options = parseReportOptions(argv)
  const dataset = loadResults(options.files)
  // Only once the inputs are known good: check every output, then create the page's directory
  // (docs/ in `--out docs/RESULTS.md`); the charts' directory is made when the first chart is written.
  // Only the page draws charts: --format terminal or csv alone needs no --images directory.
  if (options.formats.includes('md')) outputDirectory(options.images, { label: `--images ${options.imagesText}` })
  const firstMissing = firstMissingDir(path.dirname(options.out))
  for (const format of options.formats) {
    for (const file of exporterFor(format).targets(options)) {
      if (file === options.images) throw new UsageError(`--out ${options.outText} and --images ${options.imagesText} name the same path: the page and the charts' directory need two`)
      const label = `${options.defaultOut ? `the default --out ${options.outText}` : `--out ${options.outText}`}${file === options.out ? '' : ` (${path.basename(file)})`}`
      outputFile(file, { label, create: true, inputs: options.files, notResults: true })
      refuseExisting(file, { force: options.force, label })
    }
  }
  const written = []
  try {
    for (const format of options.formats) written.push(...exporterFor(format).write(dataset, options))
  } catch (err) {
    // Nothing half-written: not even the page's directory made for it above.
    if (firstMissing && !written.length) removeEmptyTree(firstMissing)
    throw err
  }
  summarizeWritten(written, options.images)
}

// The topmost directory of `dir` that does not exist yet, or null.
function firstMissingDir (dir) {
  let missing = null
  for (let at = path.resolve(dir); !fs.existsSync(at); at = path.dirname(at)) missing = at
  return missing
}

function reportPages (argv) {
  const given = givenOptions(REPORT_OPTIONS, argv).filter((name) => name !== 'pages')
  if ([argv.files ?? []].flat().length || given.length) throw new UsageError(`--pages names every page, its results and images: it cannot be combined with ${given.length ? `--${given[0]}` : 'results files'}`)
  const pages = readPages(String(argv.pages))
  const inputs = [String(argv.pages), ...pages.flatMap((page) => [...page.results, ...(page.reference ? [page.reference] : [])])]
  const checkOutput = (page) => {
    outputDirectory(page.images, { label: `${argv.pages}: images ${page.images}` })
    outputFile(page.out, { label: `${argv.pages}: page ${page.out}`, create: true, inputs, notResults: true })
  }
  summarizeWritten(writePages(pages, { checkOutput }), path.resolve(pages[0].images))
}

function summarizeWritten (written, images) {
  if (written.length === 0) return
  const relative = (file) => {
    const shown = path.relative(process.cwd(), file)
    return shown.startsWith('..') ? file : shown
  }
  const pngs = written.filter((f) => f.endsWith('.png'))
  const others = written.filter((f) => !f.endsWith('.png'))
  process.stdout.write(`wrote ${others.map(relative).join(', ')}${pngs.length ? ` and ${pngs.length} chart${pngs.length > 1 ? 's' : ''} in ${relative(images)}/` : ''}\n`)
}
