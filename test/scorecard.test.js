import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { kernelOf, provenanceBlocks, scorecardBlocks } from '../src/report/scorecard.js'
import { readPages } from '../src/report/pages.js'
import { loadResults } from '../src/results/read.js'
import { markdownTable } from '../src/draw/table.js'
import { escapeRegExp, ROOT } from './helpers.js'

// The scorecard fits a page (issue 58): a few tables by theme, none wider than a page shows once its
// cells' lines (<br>) are drawn, and its provenance names what differs across the pages.

// The width a table takes when drawn: per column its widest line (a cell's <br> lines drawn one
// under the other, a link drawn as its text), plus the borders.
function drawnWidth (markdown) {
  const rows = markdown.split('\n').filter((line) => !/^\|[-:| ]+\|$/.test(line)).map((line) => line.slice(1, -1).split(' | '))
  const widths = rows[0].map((_, i) => Math.max(...rows.map((cells) => Math.max(...(cells[i] ?? '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').split('<br>').map((part) => part.trim().length)))))
  return widths.reduce((n, w) => n + w + 3, 1)
}

test('the committed scorecard is a few tables, each of which a page can show', (t) => {
  const pages = readPages(path.join(ROOT, 'results/pages.json'))
  if (pages.some((p) => p.results.some((f) => !fs.existsSync(path.join(ROOT, f))))) return t.skip('results not committed yet')
  const datasets = pages.map((page) => loadResults(page.results.map((f) => path.join(ROOT, f))))
  const blocks = scorecardBlocks(pages.map((page, i) => ({ dataset: datasets[i], href: path.basename(page.out), label: page.label, details: i === 0 && page.details ? 'seed-article' : null })))
  const tables = blocks.filter((b) => b.columns)
  assert.ok(tables.length >= 4, `${tables.length} tables`)
  for (const table of tables) {
    const width = drawnWidth(markdownTable(table))
    assert.ok(width <= 200, `a table ${width} characters wide: ${table.columns.map((c) => c.title).join(', ')}`)
  }
  const text = blocks.filter((b) => typeof b === 'string').join('\n')
  // The HTTP page ran on another kernel than the seed page (each page's kernel from its own JSON):
  // said, not "one machine".
  const kernel = (label) => kernelOf(datasets[pages.findIndex((p) => p.label === label)].envs[0].env.os)
  const [http, seed] = [kernel('HTTP'), kernel('Seed article matrix')]
  if (http === seed) assert.doesNotMatch(text, /\(HTTP\) against/)
  else assert.match(text, new RegExp(`kernel ${escapeRegExp(http)} \\(HTTP\\) against (Linux [^;]* against )?${escapeRegExp(seed)} \\(Seed article matrix, `))
  assert.doesNotMatch(text, /one machine/)
})

test('provenance says one setup only where machine, kernel and Node agree', () => {
  const env = { cpuModel: 'CPU', cpuCount: 2, memoryBytes: 2 ** 30, node: 'v20.20.2', os: 'OS (Linux 6.1.0 x64)', gitCommit: 'abcdef0123', time: '2026-11-27T10:00:00Z' }
  const page = (label, over = {}) => ({ label, href: `${label}.md`, dataset: { runs: [], envs: [{ env: { ...env, ...over } }] } })
  const provenance = (pages) => provenanceBlocks(pages)[0]
  assert.match(provenance([page('a'), page('b')]), /One machine, kernel and Node version: figures compare within a page/)
  assert.match(provenance([page('a'), page('b', { node: 'v22.1.0' })]), /not all measured on one setup: Node v20\.20\.2 \(a\) against v22\.1\.0 \(b\)\./)
  assert.equal(kernelOf('Debian GNU/Linux 12 (bookworm) (Linux 6.18.44-fc-v782 x64)'), 'Linux 6.18.44-fc-v782')
  assert.equal(kernelOf('Linux 6.1.0-18-amd64 x64'), 'Linux 6.1.0-18-amd64')
  assert.equal(kernelOf(undefined), null)
})
