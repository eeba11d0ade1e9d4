import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { readPages } from '../src/report/pages.js'
import { ROOT, runCli, tmpDir } from './helpers.js'

// The committed results pages are exactly what `log-bench report --pages` makes from the committed
// results JSON: each pages file's inputs are copied to a temporary directory with the same layout,
// the pages regenerated there, and compared byte for byte; every chart they link must exist.

const FIXTURE_PAGES = 'test/fixtures/pages/pages.json'
const RESULTS_PAGES = 'results/pages.json'

async function regenerate (pagesFile) {
  const pages = readPages(path.join(ROOT, pagesFile))
  const dir = tmpDir('lb-pages-')
  const copy = (rel) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.copyFileSync(path.join(ROOT, rel), path.join(dir, rel))
  }
  copy(pagesFile)
  for (const page of pages) [...page.results, ...(page.reference ? [page.reference] : [])].forEach(copy)
  const ran = await runCli(['report', '--pages', pagesFile], { cwd: dir })
  return { pages, dir, ran }
}

function imageLinks (markdown) {
  return [...markdown.matchAll(/!\[[^\]]*\]\(([^)]+\.png)\)/g)].map((m) => m[1])
}

async function checkPages (pagesFile, { committedImages }) {
  const { pages, dir, ran } = await regenerate(pagesFile)
  try {
    assert.equal(ran.code, 0, ran.stderr)
    for (const page of pages) {
      const made = fs.readFileSync(path.join(dir, page.out), 'utf8')
      const committed = fs.readFileSync(path.join(ROOT, page.out), 'utf8')
      assert.equal(committed, made, `${page.out} is not what \`log-bench report --pages ${pagesFile}\` makes from the committed results: regenerate it`)
      for (const link of imageLinks(made)) {
        const rel = path.join(path.dirname(page.out), link)
        assert.ok(fs.existsSync(path.join(dir, rel)), `${page.out} links ${link}, which report did not write`)
        if (committedImages) assert.ok(fs.existsSync(path.join(ROOT, rel)), `${page.out} links ${link}, which is not committed`)
      }
    }
    return pages
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

test('fixture pages regenerate byte for byte from their results (At a glance, Then and now, HTTP page, links between pages)', async () => {
  const pages = await checkPages(FIXTURE_PAGES, { committedImages: false })
  const [main, http] = pages.map((p) => fs.readFileSync(path.join(ROOT, p.out), 'utf8'))
  assert.match(main, /^# .+\n\nPages: \*\*[^*]+\*\* · \[HTTP\]\(http\.md\)/)
  assert.match(main, /## At a glance[\s\S]*## Hardware and Software[\s\S]*## Then and now/)
  assert.match(main, /skipped \(run 2, 3\): run 1 timed out after 300 s; --retry-timeouts runs them anyway/)
  assert.match(main, /at the receiver's socket, [\d,]+ before it/)
  // A cell that lost events is never simply "fastest": its loss is named with its time.
  assert.match(main, /every cell lost events; fastest: winston 1,400 ms \(0\.30% lost\)/)
  assert.match(main, /Node 8\.15\.1/)
  assert.match(http, /## HTTP route logging/)
  assert.match(http, /Pages: \[[^\]]+\]\(README\.md\) · \*\*HTTP\*\*/)
})

test('the committed results pages are what report makes from the committed results JSON', async (t) => {
  const pages = readPages(path.join(ROOT, RESULTS_PAGES))
  const missing = pages.flatMap((p) => [...p.results, ...(p.reference ? [p.reference] : [])]).filter((f) => !fs.existsSync(path.join(ROOT, f)))
  if (missing.length) return t.skip(`results not committed yet: ${missing.join(', ')} (run the scenarios, then \`npx log-bench report --pages ${RESULTS_PAGES}\`)`)
  await checkPages(RESULTS_PAGES, { committedImages: true })
})

test('a bad pages file is one line, exit 2, nothing written', async () => {
  const dir = tmpDir('lb-pages-bad-')
  try {
    fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [{ out: 'a.md', results: ['missing.json'], colour: 'red' }] }))
    const bad = await runCli(['report', '--pages', 'pages.json'], { cwd: dir })
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /pages\[0\]: unknown field "colour"/)
    fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [{ out: 'a.md', results: ['missing.json'] }] }))
    const missing = await runCli(['report', '--pages', 'pages.json'], { cwd: dir })
    assert.equal(missing.code, 2)
    assert.match(missing.stderr, /missing\.json: cannot read it \(no such file\)/)
    const mixed = await runCli(['report', '--pages', 'pages.json', '--out', 'x.md'], { cwd: dir })
    assert.equal(mixed.code, 2)
    assert.deepEqual(fs.readdirSync(dir), ['pages.json'])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
