import { readJsonFile } from '../results/json-file.js'
import path from 'node:path'
import { leavesDir } from '../paths.js'
import { UsageError } from '../errors.js'
import { loadResults } from '../results/read.js'
import { resultsReadme } from './results-readme.js'
import { readReference } from './then-and-now.js'
import { markdownEscape } from './table.js'

// Several results pages from several results files, listed in one pages file (results/pages.json):
//   { "pages": [ { "out": "results/README.md", "results": ["results/seed-article.json"],
//                  "title": "…", "label": "…", "images": "images", "reference": "results/reference/….json" } ] }
// Paths are relative to the current directory (the repository's root), like a scenario's output.
// Every page links to the others; a new page is one more entry.

const KEYS = ['$comment', 'out', 'results', 'title', 'label', 'images', 'reference']

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
    for (const key of ['title', 'label', 'images', 'reference']) {
      if (page[key] !== undefined && typeof page[key] !== 'string') throw new UsageError(`${where}.${key} must be a string`)
    }
    // A pages file names files of the repository it is run from, to read and to write: none elsewhere.
    const paths = [['out', page.out], ['images', page.images], ['reference', page.reference], ...page.results.map((r, j) => [`results[${j}]`, r])]
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
      reference: page.reference ?? null
    }
  })
}

// Reads every input first (bad input: nothing is written), then writes each page and its charts.
// checkOutput(page) throws if a page or its charts cannot be written there (the CLI's output checks).
export function writePages (pages, { checkOutput = () => {} } = {}) {
  const loaded = pages.map((page) => ({
    page,
    dataset: loadResults(page.results),
    reference: page.reference ? readReference(page.reference) : null
  }))
  for (const { page } of loaded) checkOutput(page)
  const written = []
  for (const { page, dataset, reference } of loaded) {
    written.push(...resultsReadme.write(dataset, {
      out: path.resolve(page.out),
      images: path.resolve(page.images),
      page: { title: page.title, nav: navOf(pages, page), reference }
    }))
  }
  return written
}

function navOf (pages, current) {
  if (pages.length < 2) return null
  const from = path.dirname(path.resolve(current.out))
  const links = pages.map((page) => (page === current
    ? `**${markdownEscape(page.label)}**`
    : `[${markdownEscape(String(page.label).replace(/[[\]]/g, ''))}](${encodeURI(path.relative(from, path.resolve(page.out)).split(path.sep).join('/')).replace(/[()]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)})`))
  return `Pages: ${links.join(' · ')}`
}
