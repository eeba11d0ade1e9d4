import fs from 'node:fs'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { loadDocuments, loadResults, readResultsFile, validateDocument } from '../results/read.js'
import { removeEmptyTree } from '../results/write.js'
import { exporterFor, writeExports } from '../report/exporters.js'
import { PAGE_FORMATS, readPages, replaceWrittenList, writePages } from '../report/pages.js'
import { REPORT_OPTIONS } from './option-tables.js'
import { argvFromApi, givenOptions, optionNamed, parseOption, parseOptions } from './options.js'
import { filePathText, outputDirectory, outputFile, refuseExisting } from './validate.js'

export function parseReportOptions (argv) {
  const given = parseOptions(REPORT_OPTIONS, argv)
  filePathText(given.out, `--out ${given.out}`)
  // The charts go beside the page unless --images says where: report --out elsewhere/page.md
  // writes elsewhere/images/, which the page's relative links then reach wherever it is moved with them.
  const images = given.images ?? path.join(path.dirname(given.out), 'images')
  return {
    force: given.force,
    defaultOut: argv.out == null,
    files: [argv.files].flat().filter((f) => !isDocument(f)).map(String),
    formats: given.format,
    out: path.resolve(given.out),
    images: path.resolve(images),
    outText: given.out,
    imagesText: images,
    imagesGiven: given.images != null
  }
}

const isDocument = (value) => value !== null && typeof value === 'object' && !Array.isArray(value)

// Results files by path and, from the API, results documents (checked as a file is).
function loadSources (sources) {
  if (!sources.some(isDocument)) return loadResults(sources.map(String))
  return loadDocuments(sources.map((source, index) => {
    if (!isDocument(source)) {
      return { file: String(source), doc: readResultsFile(String(source)), realPath: fs.realpathSync(String(source)) }
    }
    const file = `results document ${index + 1}`
    validateDocument(source, file)
    return { file, doc: source }
  }))
}

// `report`'s work from argv (the command line's, or the API's options turned into argv): the
// files given in argv.files (paths, or from the API results documents) or argv.pages. The terminal
// format is written to `stream`. Returns { files, images }: the files written, and the charts' directory.
export function reportFrom (argv, { stream }) {
  if (argv.pages != null) return reportPages(argv)
  if (argv.files == null || [argv.files].flat().length === 0) throw new UsageError('give the results JSON files to report, or --pages <file>')
  const options = { ...parseReportOptions(argv), stream }
  const dataset = loadSources([argv.files].flat())
  // Only once the inputs are known good: check every output, then create the page's directory
  // (docs/ in `--out docs/RESULTS.md`); the charts' directory is made when the first chart is written.
  // Only the page draws charts: --format terminal or csv alone needs no --images directory.
  // The charts' directory is checked first where --images named it, else after the page it follows.
  const checkImages = () => outputDirectory(options.images, { label: `--images ${options.imagesText}` })
  if (options.formats.includes('md') && options.imagesGiven) checkImages()
  const firstMissing = firstMissingDir(path.dirname(options.out))
  const targets = options.formats.flatMap((format) => exporterFor(format).targets(options)
    .map((file) => ({ format, file })))
  const twice = targets.find((t, i) => targets.findIndex((u) => u.file === t.file) !== i)
  if (twice) throw new UsageError(`--format ${targets.find((t) => t.file === twice.file).format} and ${twice.format} would both write ${path.relative(process.cwd(), twice.file) || twice.file}: give --out a name that is not one of theirs (e.g. --out results/README.md writes README.md and README.html)`)
  for (const format of options.formats) {
    for (const file of exporterFor(format).targets(options)) {
      if (file === options.images) throw new UsageError(`--out ${options.outText} and --images ${options.imagesText} name the same path: the page and the charts' directory need two`)
      const label = `${options.defaultOut ? `the default --out ${options.outText}` : `--out ${options.outText}`}${file === options.out ? '' : ` (${path.basename(file)})`}`
      outputFile(file, { label, create: true, inputs: options.files, notResults: true })
      refuseExisting(file, { force: options.force, label })
    }
  }
  if (options.formats.includes('md') && !options.imagesGiven) checkImages()
  try {
    return { files: writeExports(options.formats, dataset, options), images: options.images }
  } catch (err) {
    // Nothing half-written: not even the page's directory made for it above.
    if (firstMissing) removeEmptyTree(firstMissing)
    throw err
  }
}

// The topmost directory of `dir` that does not exist yet, or null.
function firstMissingDir (dir) {
  let missing = null
  for (let at = path.resolve(dir); !fs.existsSync(at); at = path.dirname(at)) missing = at
  return missing
}

function reportPages (argv) {
  const given = givenOptions(REPORT_OPTIONS, argv).filter((name) => name !== 'pages' && name !== 'format')
  if ([argv.files ?? []].flat().length || given.length) throw new UsageError(`--pages names every page, its results and images: it cannot be combined with ${given.length ? `--${given[0]}` : 'results files'}`)
  const formats = parseOption(optionNamed(REPORT_OPTIONS, 'format'), argv)
  const other = formats.find((format) => !PAGE_FORMATS.includes(format))
  if (other) throw new UsageError(`--pages writes pages: --format ${other} is not one (use --format ${PAGE_FORMATS.join(', ')} or ${PAGE_FORMATS.join(',')})`)
  const pages = readPages(String(argv.pages))
  const inputs = [
    String(argv.pages),
    ...pages.flatMap((page) => [...page.results, ...(page.reference ? [page.reference] : [])])
  ]
  const checkOutput = (page, files) => {
    if (formats.includes('md')) outputDirectory(page.images, { label: `${argv.pages}: images ${page.images}` })
    for (const file of files) outputFile(file, { label: `${argv.pages}: page ${path.relative(process.cwd(), file)}`, create: true, inputs, notResults: true })
  }
  const files = writePages(pages, { checkOutput, formats })
  const removed = replaceWrittenList(String(argv.pages), pages, files)
  return { files, removed, images: path.resolve(pages[0].images) }
}

// The API: report(results, options) writes what `log-bench report` would: results are results
// documents or results files' paths (one or a list); options are report's (format, out, images,
// pages). Resolves to { files, terminal }: the files written, and the terminal format's text
// (format 'terminal'; the API prints nothing).
export async function report (results, options = {}) {
  const argv = argvFromApi(REPORT_OPTIONS, options ?? {}, 'report')
  let terminal = ''
  const stream = { isTTY: false, write (text) { terminal += text } }
  const { files } = reportFrom({ ...argv, files: results == null ? undefined : [results].flat() }, { stream })
  return { files, terminal: terminal || null }
}
