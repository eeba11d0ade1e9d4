import { readJsonFile } from '../results/json-file.js'
import fs from 'node:fs'
import path from 'node:path'
import { leavesDir } from '../paths.js'
import { UsageError } from '../errors.js'
import { loadResults } from '../results/read.js'
import { writeFilesAtomic } from '../results/write.js'
import { exporterFor } from './exporters.js'
import { readReference } from './run/then-and-now.js'
import { SECTIONS } from './sections.js'
import { BURSTS_HEADING, burstsSection, showsBursts } from './run/bursts-section.js'
import { latencySection, OVERLOAD_HEADING, pacesStalls } from './run/latency-section.js'
import { headingId } from '../draw/html-text.js'
import { markdownEscape } from '../draw/table.js'
import { writeFileAtomic } from '../results/write.js'

// Several results pages from several results files, listed in one pages file (results/pages.json):
//   { "pages": [ { "out": "results/README.md", "results": ["results/seed-article.json"],
//                  "title": "…", "label": "…", "images": "images", "reference": "results/reference/….json",
//                  "details": "results/seed-article", "csv": "results/README.csv", "sections": ["durability"],
//                  "profiles": ["results/profiles/seed-article.json"] } ] }
// details (optional): a directory for the page's detail pages (each comparison's charts and
// per-library tables), linked from the main page so that it stays short; csv (optional): a CSV of
// every run (time series left out) written beside the page and linked from its Reproduce block.
// sections (optional): the report sections the page shows, by name (src/report/sections.js); all by default.
// Paths are relative to the current directory (the repository's root), like a scenario's output.
// Every page links to the others; a new page is one more entry.

// profiles (optional): results files of profiled runs (run --profile) of the page's cells, kept apart
// from its results so that its times stay unprofiled; the Anomalies cite a profile of an anomaly's
// cell beside the cause found by hand (src/results/judge/anomalies.js, docs/costs.md).
const KEYS = ['$comment', 'out', 'results', 'title', 'label', 'images', 'reference', 'details', 'csv', 'sections', 'profiles']

export function readPages (file) {
  const doc = readJsonFile(file, { what: 'a pages file (results/pages.json)' })
  if (!Array.isArray(doc?.pages) || doc.pages.length === 0) throw new UsageError(`${file}: expected { "pages": [ … ] } with at least one page`)
  const outs = new Set()
  return doc.pages.map((page, i) => {
    const where = `${file}: pages[${i}]`
    if (page === null || typeof page !== 'object') throw new UsageError(`${where} is not an object`)
    const unknown = Object.keys(page).find((key) => !KEYS.includes(key))
    if (unknown) throw new UsageError(`${where}: unknown field "${unknown}" (allowed: ${KEYS.join(', ')})`)
    if (typeof page.out !== 'string' || !page.out.endsWith('.md')) throw new UsageError(`${where}.out must be the path of a .md page`)
    if (outs.has(path.resolve(page.out))) throw new UsageError(`${where}.out ${page.out} is named twice`)
    outs.add(path.resolve(page.out))
    if (!Array.isArray(page.results) || page.results.length === 0 || page.results.some((r) => typeof r !== 'string')) throw new UsageError(`${where}.results must be a list of results JSON files`)
    for (const key of ['title', 'label', 'images', 'reference', 'details', 'csv']) {
      if (page[key] !== undefined && typeof page[key] !== 'string') throw new UsageError(`${where}.${key} must be a string`)
    }
    if (page.profiles !== undefined && (!Array.isArray(page.profiles) || page.profiles.length === 0 || page.profiles.some((r) => typeof r !== 'string'))) throw new UsageError(`${where}.profiles must be a list of results JSON files of profiled runs (run --profile)`)
    const names = SECTIONS.map((s) => s.name)
    if (page.sections !== undefined && (!Array.isArray(page.sections) || page.sections.length === 0 || page.sections.some((s) => !names.includes(s)))) throw new UsageError(`${where}.sections must be a list of report sections (${names.join(', ')})`)
    // A pages file names files of the repository it is run from, to read and to write: none elsewhere.
    if (page.csv !== undefined && !page.csv.endsWith('.csv')) throw new UsageError(`${where}.csv must be the path of a .csv file`)
    const paths = [['out', page.out], ['images', page.images], ['reference', page.reference], ['details', page.details], ['csv', page.csv], ...page.results.map((r, j) => [`results[${j}]`, r]), ...(page.profiles ?? []).map((r, j) => [`profiles[${j}]`, r])]
    for (const [key, value] of paths) {
      const leaves = value === undefined ? null : leavesDir(value)
      if (leaves) throw new UsageError(`${where}.${key} ${value} ${leaves === 'outside' ? 'is outside' : 'leads outside'} the current directory${leaves === 'outside' ? '' : ' through a symbolic link'}: a pages file names files of the repository it is run from (run it from there)`)
    }
    return {
      out: page.out,
      results: page.results,
      title: page.title ?? 'log-bench results',
      label: page.label ?? page.title ?? path.basename(page.out, '.md'),
      images: page.images ?? 'images',
      reference: page.reference ?? null,
      details: page.details ?? null,
      csv: page.csv ?? null,
      profiles: page.profiles ?? [],
      sections: page.sections ? SECTIONS.filter((s) => page.sections.includes(s.name)) : SECTIONS
    }
  })
}

// The formats --pages writes: the markdown page (md, with its charts) and its HTML twin (html).
export const PAGE_FORMATS = ['md', 'html']

// Reads every input first (bad input: nothing is written), then writes each page and its charts in
// each format (md: the .md page; html: an .html page beside it).
// checkOutput(page, files) throws if a page, its other formats' files (files) or its charts cannot
// be written there (the CLI's output checks).
export function writePages (pages, { checkOutput = () => {}, formats = ['md'] } = {}) {
  const loaded = pages.map((page) => ({
    page,
    dataset: withProfiles(loadResults(page.results), page),
    reference: page.reference ? readReference(page.reference) : null
  }))
  const exporters = formats.map(exporterFor)
  for (const { page } of loaded) {
    checkOutput(page, exporters.flatMap((exporter) => fileOf(exporter, page)))
    checkCompanions(page)
  }
  // Every page in every format, with its charts, lands together or none does (writeFilesAtomic).
  const files = []
  // The results index (the first page) carries the scorecard: every page's figures per library.
  const index = loaded[0].page
  const scorecard = loaded.map(({ page, dataset }) => ({
    dataset,
    label: page.label,
    href: relativeLink(path.dirname(path.resolve(index.out)), path.resolve(page.out)),
    // Its detail pages' directory from the index: the scorecard links a figure to the page that shows it.
    details: page.details ? relativeLink(path.dirname(path.resolve(index.out)), path.resolve(page.details)) : null
  }))
  for (const { page, dataset, reference } of loaded) {
    for (const exporter of exporters) {
      // The markdown page has detail pages and a CSV beside it; its HTML twin links to them.
      const companions = exporter.name === 'md' ? { details: page.details ? path.resolve(page.details) : null, sources: page.results, csv: page.csv } : {}
      files.push(...exporter.files(dataset, {
        out: path.resolve(page.out),
        images: path.resolve(page.images),
        page: {
          title: page.title,
          nav: navOf(pages, page, exporter),
          reference,
          sections: page.sections,
          link: linkOf(pages, page, exporter),
          burstSize: burstSizeLink(loaded, page),
          pacedOverload: pacedOverloadLink(loaded, page),
          ...(page === index ? { scorecard } : {}),
          ...companions
        }
      }))
    }
  }
  writeFilesAtomic(files)
  return files.map(({ file }) => file)
}

// Where a page that compares libraries in one loop sends its reader for the burst size (see
// comparesInOneLoop): the listed page that measures it (its section on bursts), else
// docs/bursts.md, which says how to measure it (a pages file's paths are from the repository's root).
// The .md link; linkOf gives the HTML twin the other page's .html.
function burstSizeLink (loaded, current) {
  const from = path.dirname(path.resolve(current.out))
  const measured = loaded.find(({ page, dataset }) =>
    page !== current && page.sections.includes(burstsSection) && showsBursts(dataset))
  if (measured) return `${relativeLink(from, path.resolve(measured.page.out))}#${headingId(BURSTS_HEADING, new Set())}`
  return relativeLink(from, path.resolve('docs', 'bursts.md'))
}

// Where a page whose tight loop logged too little during a stall to tell what the logger did sends
// its reader for the verdicts of paced logging under a stall: the listed page that shows them (its
// overload table), else docs/costs.md's "Paced logging under a stall", which says how to measure them.
function pacedOverloadLink (loaded, current) {
  const from = path.dirname(path.resolve(current.out))
  const measured = loaded.find(({ page, dataset }) =>
    page !== current && page.sections.includes(latencySection) && pacesStalls(dataset))
  if (measured) return `${relativeLink(from, path.resolve(measured.page.out))}#${headingId(OVERLOAD_HEADING, new Set())}`
  return `${relativeLink(from, path.resolve('docs', 'costs.md'))}#paced-logging-under-a-stall`
}

// A page's profiled runs (its `profiles` files) beside its dataset, for the Anomalies to cite. A file
// there holds profiled runs only: a timed run in it would be a time the page does not show.
function withProfiles (dataset, page) {
  if (!page.profiles.length) return dataset
  const profiled = []
  for (const file of page.profiles) {
    const { runs } = loadResults([file])
    if (runs.some((r) => r.profile !== true)) throw new UsageError(`${page.out}: profiles ${file} holds runs that were not profiled: a page's profiles file holds only runs of log-bench run --profile (its timed runs belong in results)`)
    profiled.push(...runs)
  }
  return { ...dataset, profiles: profiled }
}

// The file a format writes for a page (the .md page itself, or the .html beside it).
const fileOf = (exporter, page) => exporter.targets({ out: path.resolve(page.out) })[0]
const relativeLink = (from, file) => path.relative(from, file).split(path.sep).join('/')

// A page's detail directory and CSV are outputs too: checked before anything is written.
function checkCompanions (page) {
  const kind = (file) => {
    try {
      return fs.statSync(file).isDirectory() ? 'directory' : 'file'
    } catch {
      return null
    }
  }
  if (page.details && kind(page.details) === 'file') throw new UsageError(`${page.out}: details ${page.details} is a file, not a directory for the detail pages`)
  if (page.csv && kind(page.csv) === 'directory') throw new UsageError(`${page.out}: csv ${page.csv} is a directory, not a .csv file`)
}

// Links to the other pages in the same format.
function navOf (pages, current, exporter) {
  if (pages.length < 2) return null
  const from = path.dirname(fileOf(exporter, current))
  const links = pages.map((page) => (page === current
    ? `**${markdownEscape(page.label)}**`
    : `[${markdownEscape(String(page.label).replace(/[[\]]/g, ''))}](${encodeURI(relativeLink(from, fileOf(exporter, page))).replace(/[()]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)})`))
  return `Pages: ${links.join(' · ')}`
}

// A link of a page's prose to another page (its .md) leads to that page in the same format.
function linkOf (pages, current, exporter) {
  const from = path.dirname(path.resolve(current.out))
  return (href) => {
    const [target, anchor] = href.split(/(?=#)/)
    if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) return href
    const page = pages.find((p) => path.resolve(p.out) === path.resolve(from, target))
    return page ? relativeLink(path.dirname(fileOf(exporter, current)), fileOf(exporter, page)) + (anchor ?? '') : href
  }
}

// What --pages wrote last time, listed beside the pages file (results/pages.json →
// results/pages.written.json), so that the next --pages removes what it no longer writes (a chart of
// a cell that is gone, a detail page named for an old version) and only that: a file is removed
// only when the list names it, it lies inside one of the pages' image or detail directories or is a
// page's own companion, it ends in an extension --pages writes, and it is a regular file.
const WRITTEN_EXTENSIONS = ['.md', '.html', '.png', '.csv']

export function writtenListOf (pagesFile) {
  return path.join(path.dirname(pagesFile), `${path.basename(pagesFile, '.json')}.written.json`)
}

export function replaceWrittenList (pagesFile, pages, written) {
  const listFile = writtenListOf(pagesFile)
  const relative = (file) => path.relative(process.cwd(), path.resolve(file)).split(path.sep).join('/')
  const now = [...new Set(written.map(relative))].sort()
  let before = []
  try {
    const doc = JSON.parse(fs.readFileSync(listFile, 'utf8'))
    if (Array.isArray(doc?.files)) before = doc.files.filter((f) => typeof f === 'string')
  } catch {}
  const roots = pages.flatMap((page) => [page.images, page.details].filter(Boolean))
    .map((dir) => path.resolve(dir) + path.sep)
  const ours = (file) => {
    const at = path.resolve(file)
    return WRITTEN_EXTENSIONS.includes(path.extname(at)) &&
      roots.some((root) => at.startsWith(root)) &&
      leavesDir(file) === null
  }
  const removed = []
  for (const file of before.filter((f) => !now.includes(f) && ours(f))) {
    try {
      if (!fs.lstatSync(file).isFile()) continue
      fs.unlinkSync(file)
      removed.push(file)
    } catch {}
  }
  writeFileAtomic(listFile, JSON.stringify({ $comment: 'Every file `log-bench report --pages` wrote from this pages file, so that the next run removes those it no longer writes. Generated: do not edit.', files: now }, null, 2) + '\n')
  return removed
}
