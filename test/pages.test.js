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
  for (const page of pages) {
    [...page.results, ...page.profiles, ...(page.reference ? [page.reference] : [])].forEach(copy)
  }
  const ran = await runCli(['report', '--pages', pagesFile], { cwd: dir })
  return { pages, dir, ran }
}

function imageLinks (markdown) {
  return [...markdown.matchAll(/!\[[^\]]*\]\(([^)]+\.png)\)/g)].map((m) => m[1])
}

// A page's own files besides itself: its detail pages (linked .md files inside its details
// directory) and its CSV, relative to the repository's root.
function companions (page, markdown) {
  const from = path.dirname(page.out)
  const details = page.details ? [...markdown.matchAll(/\]\(([^)#]+\.md)\)/g)].map((m) => path.join(from, m[1])).filter((file) => file.startsWith(page.details + path.sep)) : []
  return [...details, ...(page.csv ? [page.csv] : [])]
}

// GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens.
const anchorOf = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')

async function checkPages (pagesFile, { committedImages }) {
  const { pages, dir, ran } = await regenerate(pagesFile)
  try {
    assert.equal(ran.code, 0, ran.stderr)
    for (const page of pages) {
      const made = fs.readFileSync(path.join(dir, page.out), 'utf8')
      for (const file of [page.out, ...companions(page, made)]) {
        const madeFile = fs.readFileSync(path.join(dir, file), 'utf8')
        const committed = fs.readFileSync(path.join(ROOT, file), 'utf8')
        assert.equal(committed, madeFile, `${file} is not what \`log-bench report --pages ${pagesFile}\` makes from the committed results: regenerate it`)
        if (!file.endsWith('.md')) continue
        for (const link of imageLinks(madeFile)) {
          const rel = path.join(path.dirname(file), link)
          assert.ok(fs.existsSync(path.join(dir, rel)), `${file} links ${link}, which report did not write`)
          if (committedImages) assert.ok(fs.existsSync(path.join(ROOT, rel)), `${file} links ${link}, which is not committed`)
        }
      }
    }
    if (committedImages) {
      // Nothing stale: every committed file in a page's image or detail directory is one report writes.
      const written = new Set(JSON.parse(fs.readFileSync(path.join(dir, pagesFile.replace(/\.json$/, '.written.json')), 'utf8')).files)
      const walk = (rel) => fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(rel, e.name)) : [path.join(rel, e.name).split(path.sep).join('/')]))
      const dirs = [...new Set(pages.flatMap((p) =>
        [p.images, p.details].filter(Boolean)))].filter((d) => fs.existsSync(path.join(ROOT, d)))
      const orphans = dirs.flatMap(walk).filter((file) => !written.has(file))
      assert.deepEqual(orphans, [], `files no page writes (remove them, or run \`log-bench report --pages ${pagesFile}\`, which removes what it wrote before and no longer writes)`)
      const committedList = fs.readFileSync(path.join(ROOT, pagesFile.replace(/\.json$/, '.written.json')), 'utf8')
      assert.equal(committedList, fs.readFileSync(path.join(dir, pagesFile.replace(/\.json$/, '.written.json')), 'utf8'), 'the committed list of written files is not what report writes: regenerate the pages')
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
  const missing = pages.flatMap((p) => [...p.results, ...(p.reference ? [p.reference] : [])])
    .filter((f) => !fs.existsSync(path.join(ROOT, f)))
  if (missing.length) return t.skip(`results not committed yet: ${missing.join(', ')} (run the scenarios, then \`npx log-bench report --pages ${RESULTS_PAGES}\`)`)
  await checkPages(RESULTS_PAGES, { committedImages: true })
})

test('every committed page is short, opens with its summary and a chart, and is citable', (t) => {
  const pages = readPages(path.join(ROOT, RESULTS_PAGES))
  if (pages.some((p) => !fs.existsSync(path.join(ROOT, p.out)))) return t.skip('results pages not committed yet')
  for (const page of pages) {
    const markdown = fs.readFileSync(path.join(ROOT, page.out), 'utf8')
    // The versions page's Anomalies give each pattern's measured evidence (writes per event, CPU per
    // thread), and its HTTP part now has a control (68.5 KB on 2026-11-27; its cost tables, 23 KB, are the
    // next to move to detail pages); the seed and versions pages (72.5 and 73.7 KB on 2026-12-02) name the
    // owner of pino's file time, with its reproduction and a link to the change's measured effect, and the
    // pages that compare in one loop link to the burst size beside their events; the seed page measured
    // with bunyan:sys grew to 78.7 KB. Then every page's call-cost tables moved to its detail pages (seed
    // 62.4 KB, HTTP 55.5 KB, versions 52.8 KB on 2026-12-02): 70 KB.
    assert.ok(Buffer.byteLength(markdown) <= 70 * 1024, `${page.out} is ${Buffer.byteLength(markdown)} bytes, more than 70 KB: move details to its detail pages`)
    const first = markdown.split('\n').slice(0, 40).join('\n')
    assert.match(first, /^## Summary$/m, `${page.out}: no ## Summary in its first 40 lines`)
    assert.match(first.slice(first.indexOf('## Summary')), /!\[[^\]]*\]\([^)]+\.png\)/, `${page.out}: no headline chart in its first 40 lines`)
    assert.match(markdown, /## Reproduce\n\n[\s\S]*npx log-bench@\d+\.\d+\.\d+ run --scenario [\w.-]+/, `${page.out}: no pinned Reproduce command`)
    assert.match(markdown, /## Reproduce\n[\s\S]*git clone https:\/\/\S+ log-bench && cd log-bench && git checkout [0-9a-f]{40}\nnpm install\nnpx log-bench run --scenario /, `${page.out}: no Reproduce from the commit the runs came from`)
    assert.match(markdown, /\]\([^)]+\.json\) \(every run, as measured\)/, `${page.out}: no link to its JSON`)
    for (const file of [page.out, ...companions(page, markdown)]) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8')
      if (file.endsWith('.md')) {
        for (const link of imageLinks(text)) assert.doesNotMatch(path.basename(link), /-[0-9a-f]{8}\.png$/, `${file}: image name with a hash: ${link}`)
        const anchors = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]))
        const repeated = anchors.filter((a, i) => anchors.indexOf(a) !== i)
        assert.deepEqual(repeated, [], `${file}: headings repeat, so their anchors get -1/-2 suffixes`)
      }
    }
    if (page.csv) assert.ok(fs.existsSync(path.join(ROOT, page.csv)), `${page.csv} is not committed`)
    // Issue 41: a summary that does not count comparisons; an Anomalies section on every page.
    const summary = markdown.slice(markdown.indexOf('## Summary') + 10).split(/\n\n/).find((p) => p.trim() && !p.startsWith('!['))
    assert.doesNotMatch(summary, /compared on .* in \d+ comparisons|in \d+ of the \d+/, `${page.out}: its summary counts comparisons`)
    assert.match(markdown, /^## Anomalies$/m, `${page.out}: no Anomalies section`)
  }
  // The results index carries the scorecard, each figure linking to its page.
  const index = fs.readFileSync(path.join(ROOT, pages[0].out), 'utf8')
  assert.match(index, /^## Scorecard$/m)
  for (const page of pages.filter((p) => /durability|http/.test(p.out))) assert.match(index, new RegExp(`\\]\\(${path.basename(page.out).replace('.', '\\.')}#`), `the scorecard links no figure of ${page.out}`)
})

// Issue 58: every Summary, as report makes it from the committed results JSON, is at most 150
// words (the details are in its tables), and what limits a page stands above it.
test('every committed page\'s Summary, made from its committed JSON, is at most 150 words', async (t) => {
  const { loadResults } = await import('../src/results/read.js')
  const { summarySection, wordCount, SUMMARY_WORDS } = await import('../src/report/summary.js')
  const pages = readPages(path.join(ROOT, RESULTS_PAGES))
  if (pages.some((p) => p.results.some((f) => !fs.existsSync(path.join(ROOT, f))))) return t.skip('results not committed yet')
  assert.equal(SUMMARY_WORDS, 150)
  for (const page of pages) {
    const dataset = loadResults(page.results.map((f) => path.join(ROOT, f)))
    const [, text] = summarySection(dataset, { image: () => '', conditions: '' }).blocks
    const words = wordCount(text.text.plain)
    assert.ok(words <= 150, `${page.out}: its Summary is ${words} words, more than 150:\n${text.text.plain}`)
    const markdown = fs.readFileSync(path.join(ROOT, page.out), 'utf8')
    if (markdown.includes('> **Read this first.**')) assert.ok(markdown.indexOf('> **Read this first.**') < markdown.indexOf('## Summary'), `${page.out}: what limits it comes after its Summary`)
  }
})

// Issue 29: every page's runs from one commit and one machine, and at least 5 finished runs in
// every cell that ran (a cell that is unsupported, or whose first run timed out and whose others
// were therefore skipped, has none: it is reported as such, with its reason; a logger that failed
// in each of 5 runs is that finding, 5 times).
test('every committed page\'s runs come from one commit and one machine, with at least 5 finished runs a cell, and the index says where each page came from', async (t) => {
  const { runsByCell } = await import('../src/results/model.js')
  const pages = readPages(path.join(ROOT, RESULTS_PAGES))
  const files = [...new Set(pages.flatMap((p) => p.results))]
  if (files.some((f) => !fs.existsSync(path.join(ROOT, f)))) return t.skip('results not committed yet')
  const read = (file) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'))
  // Pages measured in different sessions may differ in machine and commit; a page's own files may not.
  for (const page of pages) {
    const docs = page.results.map(read)
    assert.equal(new Set(docs.map((doc) => doc.env.gitCommit)).size, 1, `${page.out}: its runs come from several commits`)
    assert.equal(new Set(docs.map((doc) => `${doc.env.cpuModel} × ${doc.env.cpuCount}, ${doc.env.node}`)).size, 1, `${page.out}: its runs come from several machines`)
  }
  const index = fs.readFileSync(path.join(ROOT, pages[0].out), 'utf8')
  for (const page of pages) {
    const commit = read(page.results[0]).env.gitCommit.slice(0, 7)
    assert.match(index, new RegExp(`^\\| \\[${page.label}\\]\\([^)]+\\) +\\| \\d{4}-\\d\\d-\\d\\d +\\| .+ \\| v\\d+\\.\\d+\\.\\d+ +\\| ${commit} +\\|$`, 'm'), `${pages[0].out} does not say where ${page.out} came from`)
  }
  for (const file of files) {
    const doc = read(file)
    const counts = new Map()
    for (const type of ['run', 'http']) {
      for (const cellRuns of runsByCell(doc.runs.filter((r) => r.type === type && r.status !== 'interrupted'), type)) {
        const ok = cellRuns.filter((r) => r.ok).length
        const ran = cellRuns.some((r) => r.status !== 'unsupported')
        const gaveUp = cellRuns.some((r) => r.status === 'skipped')
        if (!ran || gaveUp) continue
        counts.set(cellRuns.length, (counts.get(cellRuns.length) ?? 0) + 1)
        // A logger that fails in every one of 5 runs is a finding measured 5 times (winston over forward).
        const failedEvery = ok === 0 && cellRuns.length >= 5
        // A paced run that did not reach its rate is that rate's finding (not sustained, as the knee
        // reads it), not a run lost: a cell of 5 runs, some of which fell short, is measured.
        const shortOfRate = (r) => r.rate != null && /^reached [\d,]+ of [\d,]+ events\/s$/.test(r.error ?? '')
        const pacedAndMeasured = cellRuns.length >= 5 && cellRuns.every((r) => r.ok || shortOfRate(r))
        // Counted cells (instructions under valgrind) repeat to under 1%: 3 runs are their measurement.
        const needed = cellRuns[0].measure === 'instructions' ? 3 : 5
        assert.ok(ok >= needed || failedEvery || pacedAndMeasured, `${file}: ${cellRuns[0].lib} ${cellRuns[0].transport} ${cellRuns[0].cpus} worker(s) has ${ok} finished runs of ${cellRuns.length}: ${cellRuns.filter((r) => !r.ok).map((r) => r.error).join('; ')}`)
      }
    }
    // Complete, or stopped between two rounds (Ctrl-C), so that every cell has the same runs.
    assert.ok(doc.complete === true || (doc.interrupted === true && counts.size === 1), `${file} is not complete, and its cells have different numbers of runs`)
  }
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
    // details must be a directory and csv a .csv file; checked before anything is written.
    fs.copyFileSync(path.join(ROOT, 'test/fixtures/pages/seed.json'), path.join(dir, 'seed.json'))
    fs.writeFileSync(path.join(dir, 'taken'), 'x')
    fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [{ out: 'a.md', results: ['seed.json'], details: 'taken' }] }))
    const notDir = await runCli(['report', '--pages', 'pages.json'], { cwd: dir })
    assert.equal(notDir.code, 2)
    assert.match(notDir.stderr, /details taken is a file, not a directory/)
    fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [{ out: 'a.md', results: ['seed.json'], csv: 'a.txt' }] }))
    const notCsv = await runCli(['report', '--pages', 'pages.json'], { cwd: dir })
    assert.equal(notCsv.code, 2)
    assert.match(notCsv.stderr, /pages\[0\]\.csv must be the path of a \.csv file/)
    // profiles: a list of results files of profiled runs only (a timed run there is not the page's).
    const profilesPage = (profiles) => JSON.stringify({ pages: [{ out: 'a.md', results: ['seed.json'], profiles }] })
    fs.writeFileSync(path.join(dir, 'pages.json'), profilesPage('seed.json'))
    const notList = await runCli(['report', '--pages', 'pages.json'], { cwd: dir })
    assert.equal(notList.code, 2)
    assert.match(notList.stderr, /pages\[0\]\.profiles must be a list of results JSON files of profiled runs \(run --profile\)/)
    fs.writeFileSync(path.join(dir, 'pages.json'), profilesPage(['seed.json']))
    const timed = await runCli(['report', '--pages', 'pages.json'], { cwd: dir })
    assert.equal(timed.code, 2)
    assert.equal(timed.stderr.trim().split('\n').length, 1, timed.stderr)
    assert.match(timed.stderr, /a\.md: profiles seed\.json holds runs that were not profiled/)
    assert.deepEqual(fs.readdirSync(dir).sort(), ['pages.json', 'seed.json', 'taken'])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('report --pages removes what it wrote before and no longer writes, and never a file it did not write', async () => {
  const dir = tmpDir('lb-pages-stale-')
  try {
    const copy = (rel) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
      fs.copyFileSync(path.join(ROOT, rel), path.join(dir, rel))
    }
    const pages = readPages(path.join(ROOT, FIXTURE_PAGES))
    copy(FIXTURE_PAGES)
    for (const page of pages) {
      [...page.results, ...page.profiles, ...(page.reference ? [page.reference] : [])].forEach(copy)
    }
    const first = await runCli(['report', '--pages', FIXTURE_PAGES], { cwd: dir })
    assert.equal(first.code, 0, first.stderr)
    const listFile = path.join(dir, FIXTURE_PAGES.replace(/\.json$/, '.written.json'))
    const list = JSON.parse(fs.readFileSync(listFile, 'utf8'))
    const images = pages[0].images
    // As if an earlier report had written a chart that is gone now; a user's own file sits beside it,
    // and the list was edited to name a file outside the pages' directories.
    const stale = `${images}/gone-chart.png`
    const users = `${images}/my-own.png`
    fs.writeFileSync(path.join(dir, stale), 'old')
    fs.writeFileSync(path.join(dir, users), 'mine')
    fs.writeFileSync(path.join(dir, 'notes.md'), 'keep')
    fs.writeFileSync(listFile, JSON.stringify({ files: [...list.files, stale, 'notes.md', '../outside.md'] }))
    const second = await runCli(['report', '--pages', FIXTURE_PAGES], { cwd: dir })
    assert.equal(second.code, 0, second.stderr)
    assert.ok(!fs.existsSync(path.join(dir, stale)), 'the chart no page writes any more is removed')
    assert.match(second.stdout, /removed 1 file an earlier --pages wrote and this one no longer does: .*gone-chart\.png/)
    assert.equal(fs.readFileSync(path.join(dir, users), 'utf8'), 'mine')
    assert.equal(fs.readFileSync(path.join(dir, 'notes.md'), 'utf8'), 'keep')
    assert.deepEqual(JSON.parse(fs.readFileSync(listFile, 'utf8')).files, list.files)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a page that compares libraries in one loop links to where the burst size is measured: docs/bursts.md, or the listed page that measures it (its .html from the HTML twin)', async () => {
  const dir = tmpDir('lb-pages-burst-')
  try {
    fs.mkdirSync(path.join(dir, 'results'))
    fs.copyFileSync(path.join(ROOT, 'test/fixtures/pages/seed.json'), path.join(dir, 'seed.json'))
    const inBursts = JSON.parse(fs.readFileSync(path.join(dir, 'seed.json'), 'utf8'))
    for (const run of inBursts.runs) if (run.type === 'run' && run.rate == null) run.burst = 10
    fs.writeFileSync(path.join(dir, 'bursts.json'), JSON.stringify(inBursts))
    const seedPage = { out: 'results/seed.md', results: ['seed.json'] }
    const burstPage = { out: 'results/burst-size.md', results: ['bursts.json'] }
    const link = (file) => fs.readFileSync(path.join(dir, file), 'utf8').match(/see (\[the burst size\]\([^)]*\)|<a href="[^"]*">the burst size<\/a>)/)?.[1] ?? null

    fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [seedPage] }))
    const alone = await runCli(['report', '--pages', 'pages.json', '--format', 'md,html'], { cwd: dir })
    assert.equal(alone.code, 0, alone.stderr)
    assert.equal(link('results/seed.md'), '[the burst size](../docs/bursts.md)')
    assert.equal(link('results/seed.html'), '<a href="../docs/bursts.md">the burst size</a>')

    fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [seedPage, burstPage] }))
    const both = await runCli(['report', '--pages', 'pages.json', '--format', 'md,html'], { cwd: dir })
    assert.equal(both.code, 0, both.stderr)
    assert.equal(link('results/seed.md'), '[the burst size](burst-size.md#does-the-burst-size-change-the-answer)')
    assert.equal(link('results/seed.html'), '<a href="burst-size.html#does-the-burst-size-change-the-answer">the burst size</a>')
    // The page that measures the burst size shows it in its own section, and links nowhere else for it.
    assert.match(fs.readFileSync(path.join(dir, 'results/burst-size.md'), 'utf8'), /## Does the burst size change the answer\?/)
    assert.equal(link('results/burst-size.md'), null)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a tight loop\'s "too little logged to tell" under a stall links to the verdicts of paced logging under a stall: docs/costs.md, or the listed page that shows them (its .html from the HTML twin)', async () => {
  const dir = tmpDir('lb-pages-overload-')
  try {
    fs.mkdirSync(path.join(dir, 'results'))
    const latency = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/latency/latency.json'), 'utf8'))
    fs.writeFileSync(path.join(dir, 'latency.json'), JSON.stringify(latency))
    // The same stalls paced: calls kept coming while the reader stalled.
    for (const run of latency.runs) if (run.receiverStallMs != null) run.rate = 20000
    fs.writeFileSync(path.join(dir, 'overload.json'), JSON.stringify(latency))
    const latencyPage = { out: 'results/latency.md', results: ['latency.json'], sections: ['latency'] }
    const overloadPage = { out: 'results/overload.md', results: ['overload.json'], sections: ['latency'] }
    const link = (file) => fs.readFileSync(path.join(dir, file), 'utf8').match(/are in (\[paced logging under a stall\]\([^)]*\)|<a href="[^"]*">paced logging under a stall<\/a>)/)?.[1] ?? null

    fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [latencyPage] }))
    const alone = await runCli(['report', '--pages', 'pages.json', '--format', 'md,html'], { cwd: dir })
    assert.equal(alone.code, 0, alone.stderr)
    assert.equal(link('results/latency.md'), '[paced logging under a stall](../docs/costs.md#paced-logging-under-a-stall)')
    assert.equal(link('results/latency.html'), '<a href="../docs/costs.md#paced-logging-under-a-stall">paced logging under a stall</a>')

    fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [latencyPage, overloadPage] }))
    const both = await runCli(['report', '--pages', 'pages.json', '--format', 'md,html'], { cwd: dir })
    assert.equal(both.code, 0, both.stderr)
    assert.equal(link('results/latency.md'), '[paced logging under a stall](overload.md#when-the-destination-cannot-keep-up)')
    assert.equal(link('results/latency.html'), '<a href="overload.html#when-the-destination-cannot-keep-up">paced logging under a stall</a>')
    // The page of paced stalls shows their verdicts itself, and links nowhere else for them.
    const overload = fs.readFileSync(path.join(dir, 'results/overload.md'), 'utf8')
    assert.match(overload, /### When the destination cannot keep up/)
    assert.equal(link('results/overload.md'), null)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
