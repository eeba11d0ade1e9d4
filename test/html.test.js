import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT, runCli, tmpDir } from './helpers.js'
import { loadResults } from '../src/results/read.js'
import { pageBlocks } from '../src/report/markdown.js'
import { htmlFile, renderHtmlPage } from '../src/report/html.js'
import { inlineMarkdown, markdownToHtml, safeHref } from '../src/draw/html-text.js'
import { chartFigure } from '../src/report/svg-chart.js'
import { headlineChart } from '../src/report/summary.js'
import { libraryColour } from '../src/draw/colours.js'
import { isTable } from '../src/draw/table.js'

// report --format html: one self-contained page with the markdown page's tables and its charts as
// inline SVG. Checked here as text (escaping, the policy, the same tables and charts as the model)
// and in a real browser (headless chromium): it renders, loads nothing, hover and toggles work.

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'report', 'results.json')
const HTTP_RESULTS = path.join(ROOT, 'results', 'http-cost.json')

// What the page must hold: the model's tables and charts.
function modelOf (file) {
  const { blocks, charts } = pageBlocks(loadResults([file]), { image: (chart) => ({ chart }) })
  return { tables: blocks.filter(isTable), charts }
}

describe('the HTML page as text', () => {
  it('names from a results file are escaped everywhere: no markup, no script but the page\'s own', () => {
    const doc = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'))
    const hostile = '<img src=x onerror=alert(1)>"\'&'
    for (const entry of [...doc.runs, ...doc.summary]) if (entry.lib === 'pino') entry.lib = hostile
    const file = path.join(tmpDir(), 'hostile.json')
    fs.writeFileSync(file, JSON.stringify(doc))
    const html = renderHtmlPage(loadResults([file]), { title: '<b>title</b>' })
    assert.doesNotMatch(html, /<img/)
    assert.doesNotMatch(html, /<b>title/)
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;&quot;&#39;&amp;/)
    assert.match(html, /<title>&lt;b&gt;title&lt;\/b&gt;<\/title>/)
    assert.equal(html.match(/<script/g).length, 1)
  })

  it('every id on the page is unique, headings named like a chart included', () => {
    const dataset = loadResults([FIXTURE])
    const html = renderHtmlPage(dataset, { title: 'Chart 1', nav: '## tip\n\n## chart-2 title' })
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1])
    assert.ok(ids.includes('chart-1') && ids.includes('chart-1-1') && ids.includes('tip-1'))
    assert.equal(new Set(ids).size, ids.length)
  })

  it('the Content-Security-Policy forbids every network load and allows only the page\'s own style and script, by hash', () => {
    const html = renderHtmlPage(loadResults([FIXTURE]))
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)[1]
    const directives = Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]))
    assert.deepEqual(directives['default-src'], ["'none'"])
    assert.deepEqual(directives['img-src'], ['data:'])
    const hash = (text) => `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`
    assert.deepEqual(directives['style-src'], [hash(/<style>([\s\S]*?)<\/style>/.exec(html)[1])])
    assert.deepEqual(directives['script-src'], [hash(/<script>([\s\S]*?)<\/script>/.exec(html)[1])])
    // Nothing that a browser would fetch: no src, no stylesheet link, only an empty data: icon.
    assert.doesNotMatch(html, /\ssrc=/)
    assert.deepEqual(html.match(/<link [^>]*>/g), ['<link rel="icon" href="data:,">'])
  })

  it('holds the markdown page\'s tables and one SVG per chart', () => {
    const { tables, charts } = modelOf(FIXTURE)
    const html = renderHtmlPage(loadResults([FIXTURE]))
    assert.equal(html.match(/<table>/g).length, tables.length)
    assert.equal(html.match(/<figure class="chart"/g).length, charts.length)
    assert.ok(charts.length >= 5)
    // Every table's every row, with the header's titles.
    const rows = tables.reduce((sum, t) => sum + t.rows.length, 0)
    assert.equal(html.match(/<tr>/g).length, rows + tables.length)
  })

  it('links of the prose keep to relative paths and http(s); javascript: and data: are not links', () => {
    assert.equal(safeHref('javascript:alert(1)'), null)
    assert.equal(safeHref(' JavaScript:alert(1)'), null)
    assert.equal(safeHref('data:text/html,x'), null)
    assert.equal(safeHref('java\nscript:x'), null)
    assert.equal(safeHref('../docs/reports.md#charts'), '../docs/reports.md#charts')
    assert.equal(safeHref('https://github.com/x'), 'https://github.com/x')
    assert.equal(inlineMarkdown('[x](javascript:alert(1)) and [y](http.md)'), 'x and <a href="http.md">y</a>')
    assert.equal(inlineMarkdown('see [y](http.md#a)', { link: (h) => h.replace('.md', '.html') }), 'see <a href="http.html#a">y</a>')
  })

  it('the markdown the sections write for the page: emphasis, code, lists, quotes; snake_case and <tags> stay text', () => {
    assert.equal(inlineMarkdown('_vs none_ is **the** `change` of p2_5 in log4js_object'), '<em>vs none</em> is <strong>the</strong> <code>change</code> of p2_5 in log4js_object')
    assert.equal(inlineMarkdown('<sub>from `a<b>.json`</sub> <script>'), '<sub>from <code>a&lt;b&gt;.json</code></sub> &lt;script&gt;')
    assert.equal(inlineMarkdown('\\* a star, ![chart](http://x/y.png)'), '* a star, <em>chart</em>')
    const html = markdownToHtml('## How\n- _a_\n- `b`\n\n> **No control.**\n> text', { heading: (text, level) => `<h${level}>${text}</h${level}>` })
    assert.equal(html, '<h2>How</h2>\n<ul><li><em>a</em></li><li><code>b</code></li></ul>\n<blockquote><p><strong>No control.</strong>\ntext</p></blockquote>')
  })

  it('a bar chart: one bar per value (none for null), a whisker per interval, the value in each bar\'s title', () => {
    const svg = chartFigure({
      width: 800,
      height: 500,
      config: {
        type: 'bar',
        data: {
          labels: [['done', '1 CPU'], 'b'],
          datasets: [
            { label: 'pino', backgroundColor: '#CC79A7', data: [1234.5, null], errorBars: [[1000, 1500], null] },
            { label: 'raw', backgroundColor: '#000000', data: [10, 20] }
          ]
        },
        options: { plugins: { title: { text: 'T' } }, scales: { y: { beginAtZero: true, title: { display: true, text: 'time (ms)' } } } }
      }
    }, { id: 'c1' })
    assert.equal(svg.match(/<rect [^>]*class="bar[ "]/g).length, 3)
    // One class attribute per element (a second one would be dropped by the parser).
    assert.doesNotMatch(svg, /<[^>]* class="[^"]*"[^>]* class="/)
    assert.equal(svg.match(/class="whisker"/g).length, 1)
    assert.match(svg, /<title>pino\ndone 1 CPU\ntime \(ms\): 1,235\ninterval: 1,000 – 1,500<\/title>/)
    // Near-black (raw) follows the text colour in dark mode.
    assert.match(svg, /<rect [^>]*fill="#000000" class="bar ink-fill">/)
    assert.equal(svg.match(/<button type="button" class="series-toggle"/g).length, 2)
  })

  it('the headline chart keeps each library\'s colour per bar and in the legend; a lossy bar is pale, outlined and marked', () => {
    const measure = { title: 'time until done', axis: 'ms', better: 'lower' }
    const groups = [
      { label: 'file, 1 worker', cells: [{ name: 'pino', median: 100 }, { name: 'winston', median: 300, lost: 0.05 }] },
      { label: 'udp, 1 worker', cells: [{ name: 'pino', median: 120 }, { name: 'winston', median: 200 }] }
    ]
    const svg = chartFigure(headlineChart({ measure, groups }, 'conditions'), { id: 'h' })
    const [pino, winston] = ['pino', 'winston'].map((lib) => libraryColour(lib).toLowerCase())
    const fills = [...svg.matchAll(/<rect [^>]*fill="(#[0-9a-f]{6})"[^>]*class="bar/gi)].map((m) => m[1].toLowerCase())
    assert.deepEqual(fills, [pino, pino, winston, winston])
    assert.doesNotMatch(svg, /#888888/)
    const swatches = [...svg.matchAll(/<svg class="swatch"[^>]*><rect [^>]*fill="(#[0-9a-f]{6})"/gi)].map((m) => m[1].toLowerCase())
    assert.deepEqual(swatches, [pino, winston])
    assert.match(svg, new RegExp(`<rect [^>]*fill="${winston}" fill-opacity="0.25" stroke="${winston}" stroke-width="2" class="bar">`, 'i'))
    assert.equal(svg.match(/<text class="bar-note"[^>]*>lossy 5\.00%<\/text>/g).length, 1)
    assert.doesNotMatch(svg, /<[^>]* class="[^"]*"[^>]* class="/)
  })

  it('a line chart on logarithmic axes labels ticks through the configuration\'s callback', () => {
    const ticks = new Map([[1, '0%'], [10, '90%'], [100, '99%']])
    const svg = chartFigure({
      config: {
        type: 'line',
        data: { datasets: [{ label: 'pino', borderColor: '#CC79A7', pointRadius: 2, data: [{ x: 1, y: 100 }, { x: 10, y: 1000 }, { x: 100, y: 50000 }] }] },
        options: { scales: { x: { type: 'logarithmic', min: 1, max: 100, ticks: { callback: (v) => ticks.get(v) ?? null } }, y: { type: 'logarithmic' } } }
      }
    }, { id: 'c2' })
    assert.deepEqual([...svg.matchAll(/<text class="tick"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]), ['0%', '90%', '99%', '100', '1,000', '10,000', '100,000'])
    assert.equal(svg.match(/<circle [^>]*class="point"/g).length, 3)
    assert.doesNotMatch(svg, /<[^>]* class="[^"]*"[^>]* class="/)
    assert.match(svg, /<title>pino\nx: 99%\ny: 50,000<\/title>/)
  })

  it('report --format html writes the page beside --out; md and html onto one file is refused', async () => {
    assert.equal(htmlFile('/a/results/README.md'), '/a/results/README.html')
    assert.equal(htmlFile('/a/x.html'), '/a/x.html')
    const dir = tmpDir()
    const both = await runCli(['report', FIXTURE, '--format', 'md,html', '--out', path.join(dir, 'x.html'), '--images', path.join(dir, 'images')])
    assert.equal(both.code, 2)
    assert.match(both.stderr, /--format md and html would both write .*x\.html/)
    assert.doesNotMatch(both.stderr, /\n\s+at /)
    assert.deepEqual(fs.readdirSync(dir), [])
    const ok = await runCli(['report', FIXTURE, '--format', 'md,html', '--out', path.join(dir, 'page.md'), '--images', path.join(dir, 'images')])
    assert.equal(ok.code, 0, ok.stderr)
    assert.ok(fs.existsSync(path.join(dir, 'page.md')) && fs.existsSync(path.join(dir, 'page.html')))
  })

  it('report --pages --format html writes an .html beside each .md, linked to each other; other formats are refused', async () => {
    const dir = tmpDir()
    fs.mkdirSync(path.join(dir, 'results'))
    fs.copyFileSync(FIXTURE, path.join(dir, 'results', 'a.json'))
    fs.copyFileSync(FIXTURE, path.join(dir, 'results', 'b.json'))
    fs.writeFileSync(path.join(dir, 'results', 'pages.json'), JSON.stringify({ pages: [{ out: 'results/a.md', results: ['results/a.json'], label: 'A' }, { out: 'results/b.md', results: ['results/b.json'], label: 'B' }] }))
    const csv = await runCli(['report', '--pages', 'results/pages.json', '--format', 'csv'], { cwd: dir })
    assert.equal(csv.code, 2)
    assert.match(csv.stderr, /--format csv is not one \(use --format md, html or md,html\)/)
    const result = await runCli(['report', '--pages', 'results/pages.json', '--format', 'html'], { cwd: dir })
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(fs.readdirSync(path.join(dir, 'results')).sort(), ['a.html', 'a.json', 'b.html', 'b.json', 'pages.json', 'pages.written.json'])
    assert.match(fs.readFileSync(path.join(dir, 'results', 'a.html'), 'utf8'), /Pages: <strong>A<\/strong> · <a href="b\.html">B<\/a>/)
    assert.equal(fs.existsSync(path.join(dir, 'images')), false)
  })
})

// Headless chromium, driven by puppeteer-core (which downloads no browser): Debian's package.
const CANDIDATES = [process.env.LOG_BENCH_CHROMIUM, '/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(Boolean)
const chromium = CANDIDATES.find((file) => fs.existsSync(file)) ?? null
const puppeteer = await import('puppeteer-core').then((module) => module.default, () => null)
const chromiumSkip = process.env.LOG_BENCH_REQUIRE_CHROMIUM === '1'
  ? false
  : !chromium
      ? 'chromium is not installed (apt-get install chromium); CI sets LOG_BENCH_REQUIRE_CHROMIUM=1 to make this a failure'
      : !puppeteer
          ? 'puppeteer-core is not installed (a devDependency: npm install); CI sets LOG_BENCH_REQUIRE_CHROMIUM=1 to make this a failure'
          : false

describe('the HTML page in headless chromium', { skip: chromiumSkip }, () => {
  let browser = null
  const dir = tmpDir()

  before(async () => {
    assert.ok(chromium, `chromium not found (looked for ${CANDIDATES.join(', ')}) although LOG_BENCH_REQUIRE_CHROMIUM=1`)
    assert.ok(puppeteer, 'puppeteer-core is not installed (npm install) although LOG_BENCH_REQUIRE_CHROMIUM=1')
    browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] })
  })

  // The browser ends whatever happened: closed, or killed when closing does not answer.
  after(async () => {
    if (!browser) return
    const child = browser.process()
    await Promise.race([browser.close(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]).catch(() => {})
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })

  // Opens a page made by the CLI, recording every request but the page's own (aborted) and every
  // console message, page error and CSP violation.
  async function open (file) {
    const page = await browser.newPage()
    const url = pathToFileURL(file).href
    const requests = []
    const problems = []
    page.on('console', (message) => { if (['error', 'warn', 'warning'].includes(message.type())) problems.push(`console ${message.type()}: ${message.text()}`) })
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`))
    await page.setRequestInterception(true)
    page.on('request', (request) => {
      if (request.url() === url) return request.continue()
      if (!request.url().startsWith('data:')) requests.push(request.url())
      return request.abort()
    })
    await page.goto(url, { waitUntil: 'load' })
    return { page, requests, problems }
  }

  for (const [name, results] of [['the report fixture (failed, unsupported, lossy cells; time series)', FIXTURE], ['results/http-cost.json', HTTP_RESULTS]]) {
    it(`${name}: renders its tables and charts, loads nothing, shows values on hover and hides a toggled library`, async (t) => {
      const out = path.join(dir, `${path.basename(results, '.json')}.html`)
      const made = await runCli(['report', results, '--format', 'html', '--out', out])
      assert.equal(made.code, 0, made.stderr)
      const { tables, charts } = modelOf(results)
      const { page, requests, problems } = await open(out)
      t.after(() => page.close())

      assert.deepEqual(requests, [])
      // Tables, each drawn with its rows.
      const rowCounts = await page.$$eval('main table', (all) => all.map((table) => table.tBodies[0].rows.length))
      assert.deepEqual(rowCounts, tables.map((table) => table.rows.length))
      // Charts: one SVG each, laid out, with bars or lines and points.
      const drawn = await page.$$eval('figure.chart', (figures) => figures.map((figure) => {
        const svg = figure.querySelector('svg.plot')
        const box = svg.getBoundingClientRect()
        return { width: box.width, height: box.height, marks: svg.querySelectorAll('.bar, .line, .point').length, titles: svg.querySelectorAll('title').length, tips: svg.querySelectorAll('[data-tip]').length }
      }))
      assert.equal(drawn.length, charts.length)
      for (const chart of drawn) {
        assert.ok(chart.width > 300 && chart.height > 150, `a chart is laid out: ${JSON.stringify(chart)}`)
        assert.ok(chart.marks > 0, 'a chart has bars or lines')
        assert.equal(chart.titles, 0, 'every <title> became a tooltip')
        assert.ok(chart.tips > 0)
      }

      // The headline chart is painted by library: as many distinct bar colours as legend entries, no grey fallback.
      const painted = await page.$eval('figure.chart', (figure) => ({
        bars: [...new Set([...figure.querySelectorAll('svg.plot .bar')].map((bar) => bar.ownerDocument.defaultView.getComputedStyle(bar).fill))],
        legend: [...new Set([...figure.querySelectorAll('.swatch rect')].map((rect) => rect.ownerDocument.defaultView.getComputedStyle(rect).fill))]
      }))
      assert.ok(painted.legend.length > 1, `the first chart's legend has colours: ${JSON.stringify(painted)}`)
      assert.equal(painted.bars.length, painted.legend.length, `bars take their library's colour: ${JSON.stringify(painted)}`)
      assert.ok(!painted.bars.includes('rgb(136, 136, 136)'), 'no bar falls back to grey')

      // Hover: the tooltip shows the bar's (or point's) value.
      const mark = await page.$('figure.chart .bar, figure.chart .point')
      await mark.scrollIntoView()
      await mark.hover()
      const tip = await page.$eval('#tip', (element) => ({ hidden: element.hidden, text: element.textContent, visible: element.getBoundingClientRect().width > 0 }))
      const expected = await mark.evaluate((element) => element.getAttribute('data-tip'))
      assert.equal(tip.hidden, false)
      assert.ok(tip.visible)
      assert.equal(tip.text, expected)
      assert.match(tip.text, /: [\d,.]+/)

      // Toggle the first library of the first chart off and on again.
      const figure = await page.$('figure.chart')
      const button = await figure.$('.series-toggle')
      const visibleMarks = () => figure.$$eval('.series[data-series="0"] .bar, .series[data-series="0"] .line', (marks) => marks.filter((m) => m.getBoundingClientRect().width > 0 || m.getBoundingClientRect().height > 0).length)
      const before = await visibleMarks()
      assert.ok(before > 0)
      await button.click()
      assert.equal(await button.evaluate((b) => b.getAttribute('aria-pressed')), 'false')
      assert.equal(await visibleMarks(), 0)
      await button.click()
      assert.equal(await visibleMarks(), before)

      // Sorting: a figures column ascending (a click), then descending (Enter on the focused header).
      // The first table whose first right-aligned column holds 3 figures or more, not all the same
      // (the summary's findings may hold words; a latency column may read "1 ms" in every row).
      const sortable = await page.evaluateHandle(() => [...document.querySelectorAll('main table')].find((table) => {
        const i = [...table.tHead.rows[0].cells].findIndex((th) => th.classList.contains('r'))
        const figures = [...table.tBodies[0].rows].map((row) => row.cells[i]?.textContent.trim() ?? '').filter((text) => /^[+\u2212-]?\d/.test(text))
        return i >= 0 && figures.length >= 3 && new Set(figures).size > 1
      }))
      assert.ok(sortable.asElement(), 'a table of differing figures with 3 rows or more')
      const column = await sortable.evaluate((table) => [...table.tHead.rows[0].cells].findIndex((th) => th.classList.contains('r')))
      const numbers = () => sortable.evaluate((table, i) => [...table.tBodies[0].rows].map((row) => Number(row.cells[i].textContent.trim().replace(/\u2212/g, '-').replace(/,/g, '').match(/^[+-]?\d+(\.\d+)?/)?.[0])).filter(Number.isFinite), column)
      const header = await sortable.evaluateHandle((table, i) => table.tHead.rows[0].cells[i], column)
      await header.click()
      const up = await numbers()
      assert.ok(up.length >= 3 && up[0] < up.at(-1), `sorted figures: ${up}`)
      assert.deepEqual(up, [...up].sort((a, b) => a - b))
      await header.focus()
      await page.keyboard.press('Enter')
      const down = await numbers()
      assert.deepEqual(down, [...up].sort((a, b) => b - a))

      // Dark: near-black series (raw) take the text colour, so that they stay visible.
      const inked = await page.$('.bar.ink-fill')
      if (results === FIXTURE) assert.ok(inked, 'the fixture draws raw')
      if (inked) {
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }])
        const [fill, text] = await inked.evaluate((bar) =>
          [window.getComputedStyle(bar).fill, window.getComputedStyle(document.body).color])
        assert.equal(fill, text)
        assert.notEqual(fill, 'rgb(0, 0, 0)')
      }
      assert.deepEqual(problems, [])
      assert.deepEqual(requests, [])
    })
  }

  // Observed: the seed page's comparison table cut at "× the fastest (verd" in a 1,300-pixel window,
  // its multiples kept on one line as a right-aligned figure, and every header on one line.
  it('results/seed-article.json at 1,300 pixels: every table fits the page, none scrolls sideways', async (t) => {
    const out = path.join(dir, 'seed-article.html')
    const made = await runCli(['report', path.join(ROOT, 'results', 'seed-article.json'), '--format', 'html', '--out', out])
    assert.equal(made.code, 0, made.stderr)
    const { page } = await open(out)
    t.after(() => page.close())
    await page.setViewport({ width: 1300, height: 900 })
    const tables = await page.$$eval('.table-wrap', (wraps) => wraps.map((wrap) => ({
      head: [...wrap.querySelectorAll('th')].map((th) => th.textContent).join(' | '),
      scrollWidth: wrap.scrollWidth,
      clientWidth: wrap.clientWidth
    })))
    assert.ok(tables.some((table) => table.head.includes('× the fastest (verdict)')), 'the page has its comparison table')
    assert.deepEqual(tables.filter((table) => table.scrollWidth > table.clientWidth + 1), [])
  })

  it('a profiled run\'s flame graph and a differential one: laid out as inline SVG, a frame per function, its figures on hover, nothing loaded', async (t) => {
    const results = path.join(dir, 'profiled.json')
    // pino set beside raw, its comparison's reference: its differential graph too.
    const made = await runCli(['run', '--lib', 'raw,pino', '--transport', 'file', '--events', '5000', '--runs', '1', '--profile', '--out', results, '--quiet'])
    assert.equal(made.code, 0, made.stderr)
    const out = path.join(dir, 'profiled.html')
    const html = await runCli(['report', results, '--format', 'html', '--out', out])
    assert.equal(html.code, 0, html.stderr)
    const { page, requests, problems } = await open(out)
    t.after(() => page.close())
    const flames = await page.$$eval('figure.flame-graph svg.plot.flame', (all) => all.map((svg) => {
      const box = svg.getBoundingClientRect()
      const frames = [...svg.querySelectorAll('rect')].filter((rect) => rect.getBoundingClientRect().width > 0)
      return { width: box.width, height: box.height, frames: frames.length, tips: svg.querySelectorAll('[data-tip]').length, titles: svg.querySelectorAll('title').length }
    }))
    assert.ok(flames.length > 0, 'the page draws a flame graph')
    assert.equal(await page.$$eval('figure.flame-diff svg.plot.flame.flame-diff', (all) => all.length), 1, 'and pino\'s differential one against raw')
    for (const flame of flames) {
      assert.ok(flame.width > 300 && flame.height > 20, `laid out: ${JSON.stringify(flame)}`)
      assert.ok(flame.frames > 1, `frames drawn: ${JSON.stringify(flame)}`)
      assert.equal(flame.titles, 0, 'every <title> became a tooltip')
    }
    const frame = await page.$('figure.flame-graph svg.plot.flame [data-tip]')
    await frame.scrollIntoView()
    await frame.hover()
    const tip = await page.$eval('#tip', (element) => ({ hidden: element.hidden, text: element.textContent }))
    assert.equal(tip.hidden, false)
    assert.equal(tip.text, await frame.evaluate((element) => element.getAttribute('data-tip')))
    assert.deepEqual(problems, [])
    assert.deepEqual(requests, [])
  })
})
