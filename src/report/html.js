import { createHash } from 'node:crypto'
import { pageBlocks } from './markdown.js'
import { chartFigure } from './svg-chart.js'
import { escapeHtml, headingId, inlineMarkdown, markdownToHtml, unescapeHtml } from '../draw/html-text.js'
import { htmlText, isTable, plainText } from '../draw/table.js'
import { flameGraphSvg, flameLegend } from '../draw/flame.js'

// The `html` export: the results page as one self-contained HTML file. The same blocks as the
// markdown page (pageBlocks: the same sections, tables and prose), its charts drawn inline as SVG
// from the same Chart.js configurations, one style sheet and one small script inline. Nothing is
// loaded from anywhere: a Content-Security-Policy allows no network load at all, and only this
// style sheet and this script (by their hashes). Every name from a results file is escaped.

// Hover: an element's <title> (the value of a bar or point) shown as a tooltip at once (the
// browser's own waits and cannot be styled). Legend buttons show and hide a series (a library) of
// their chart. A table's header sorts its rows (numbers as numbers, a second click reverses; Enter
// or Space on a focused header too).
const SCRIPT = `(() => {
  const tip = document.getElementById('tip')
  for (const title of document.querySelectorAll('svg.plot title')) {
    title.parentNode.setAttribute('data-tip', title.textContent)
    title.remove()
  }
  let current = null
  const place = (x, y) => {
    const box = tip.getBoundingClientRect()
    const left = x + 14 + box.width > innerWidth - 4 ? x - 14 - box.width : x + 14
    const top = y + 14 + box.height > innerHeight - 4 ? y - 14 - box.height : y + 14
    tip.style.left = Math.max(4, left) + 'px'
    tip.style.top = Math.max(4, top) + 'px'
  }
  const hover = (event) => {
    const element = event.target.closest ? event.target.closest('[data-tip]') : null
    if (element !== current) {
      current = element
      tip.hidden = !element
      if (element) tip.textContent = element.getAttribute('data-tip')
    }
    if (element) place(event.clientX, event.clientY)
  }
  document.addEventListener('pointerover', hover)
  document.addEventListener('pointermove', hover)
  document.addEventListener('pointerleave', () => { current = null; tip.hidden = true })
  const number = (cell) => {
    const match = /^[+-]?\\d+(\\.\\d+)?/.exec(cell.textContent.trim().replace(/\\u2212/g, '-').replace(/,/g, ''))
    return match ? Number(match[0]) : null
  }
  const sort = (th) => {
    const table = th.closest('table')
    const column = [...th.parentNode.children].indexOf(th)
    const ascending = th.getAttribute('aria-sort') !== 'ascending'
    for (const other of th.parentNode.children) other.removeAttribute('aria-sort')
    th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending')
    const body = table.tBodies[0]
    const rows = [...body.rows].map((row, index) => ({ row, index, cell: row.cells[column] }))
    const numeric = rows.some((r) => r.cell && number(r.cell) != null)
    const key = (r) => (!r.cell ? null : numeric ? number(r.cell) : r.cell.textContent.trim())
    rows.sort((a, b) => {
      const [x, y] = [key(a), key(b)]
      if (x == null || y == null) return x == null && y == null ? a.index - b.index : x == null ? 1 : -1
      const order = numeric ? x - y : x.localeCompare(y)
      return (ascending ? order : -order) || a.index - b.index
    })
    for (const r of rows) body.appendChild(r.row)
  }
  document.addEventListener('click', (event) => {
    const toggle = event.target.closest('.series-toggle')
    if (toggle) {
      const shown = toggle.getAttribute('aria-pressed') !== 'true'
      toggle.setAttribute('aria-pressed', String(shown))
      for (const series of toggle.closest('figure').querySelectorAll('.series[data-series="' + toggle.dataset.series + '"]')) series.classList.toggle('off', !shown)
      return
    }
    const header = event.target.closest('th.sortable')
    if (header) sort(header)
  })
  document.addEventListener('keydown', (event) => {
    const header = event.target.closest && event.target.closest('th.sortable')
    if (header && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault()
      sort(header)
    }
  })
})()
`

const STYLE = `:root { color-scheme: light dark; --bg: #ffffff; --fg: #1d2025; --muted: #59606b; --line: #d5d9df; --grid: #e6e9ed; --head: #f2f4f7; --zebra: #f9fafb; --link: #0a5fc2; --code: #eff1f4; --warn: #c98a00 }
@media (prefers-color-scheme: dark) { :root { --bg: #16181c; --fg: #e3e6ea; --muted: #a2a9b4; --line: #3b4048; --grid: #2a2e35; --head: #20242a; --zebra: #1b1e23; --link: #74b4ff; --code: #252a31; --warn: #e0a526 } }
* { box-sizing: border-box }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.55 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", "Liberation Sans", Arial, sans-serif }
main { max-width: 78rem; margin: 0 auto; padding: 1.5rem 1.25rem 4rem }
h1 { font-size: 1.85rem; line-height: 1.25; margin: .4rem 0 1rem }
h2 { font-size: 1.4rem; line-height: 1.3; margin: 2.6rem 0 .8rem; padding-bottom: .3rem; border-bottom: 1px solid var(--line) }
h3 { font-size: 1.12rem; margin: 1.9rem 0 .6rem }
h4, h5, h6 { font-size: 1rem; margin: 1.4rem 0 .5rem }
a { color: var(--link) }
code { font: .87em/1.4 ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, monospace; background: var(--code); padding: .08em .3em; border-radius: 3px }
blockquote { margin: 1rem 0; padding: .4rem 1rem; border-left: 4px solid var(--warn); background: var(--head) }
blockquote p { margin: .4rem 0 }
sub { font-size: .8rem; color: var(--muted) }
nav.toc { margin: 1rem 0 1.5rem; padding: .6rem 1rem; background: var(--head); border-radius: 6px; font-size: .92rem }
nav.toc ol { margin: .3rem 0 0; padding-left: 1.4rem; columns: 2 18rem }
.table-wrap { overflow-x: auto; margin: .8rem 0 1rem }
table { border-collapse: collapse; font-size: .88rem; font-variant-numeric: tabular-nums }
th, td { border: 1px solid var(--line); padding: .28rem .6rem; vertical-align: top; text-align: left }
th { background: var(--head); font-weight: 600 }
td.r, th.r { text-align: right }
td.r { white-space: nowrap }
tbody tr:nth-child(even) { background: var(--zebra) }
tbody tr:hover { background: var(--grid) }
th.sortable { cursor: pointer; user-select: none }
th.sortable::after { content: " \\2195"; color: var(--muted); font-size: .8em }
th[aria-sort="ascending"]::after { content: " \\25B2" }
th[aria-sort="descending"]::after { content: " \\25BC" }
p.note { font-size: .86rem; color: var(--muted); margin: .4rem 0 }
figure.chart { margin: 1.4rem 0; padding: .9rem 1rem .6rem; border: 1px solid var(--line); border-radius: 8px; break-inside: avoid }
figcaption .chart-title { display: block; font-weight: 700; font-size: 1.04rem }
figcaption .chart-sub { display: block; color: var(--muted); font-size: .84rem }
.legend { display: flex; flex-wrap: wrap; gap: .4rem; margin: .6rem 0 .2rem }
.flame-key { display: inline-flex; align-items: center; gap: .3rem; font-size: .85rem; padding: .1rem .5rem .1rem 0 }
.series-toggle { font: inherit; font-size: .85rem; display: inline-flex; align-items: center; gap: .4rem; padding: .12rem .6rem; border: 1px solid var(--line); border-radius: 999px; background: var(--bg); color: var(--fg); cursor: pointer }
.series-toggle:hover { border-color: var(--muted) }
.series-toggle[aria-pressed="false"] { opacity: .45; text-decoration: line-through }
svg.plot { display: block; width: 100%; height: auto; overflow: visible }
svg.plot text { fill: var(--fg); font-family: inherit }
svg.plot .tick { font-size: 12px }
svg.plot .axis-title { font-size: 13px; font-weight: 700 }
svg.plot .grid { stroke: var(--grid); stroke-width: 1 }
svg.plot .axis { stroke: var(--muted); stroke-width: 1 }
svg.plot .whisker { stroke: var(--fg); stroke-width: 1.5; fill: none }
svg.plot .bar-note { font-size: 11px; font-style: italic }
svg .ink-fill { fill: var(--fg) }
svg .ink-stroke { stroke: var(--fg) }
svg.plot .series.off { display: none }
svg.flame text { fill: #1d2025; font-size: 11px; pointer-events: none }
svg.flame .frame rect:hover { stroke: var(--fg); stroke-width: 1 }
svg.plot .target { fill: transparent; pointer-events: all }
svg.plot .bar:hover, svg.plot .point:hover { stroke: var(--fg); stroke-width: 1.5 }
#tip { position: fixed; z-index: 10; pointer-events: none; max-width: 26rem; white-space: pre-line; background: var(--fg); color: var(--bg); font-size: .82rem; line-height: 1.4; padding: .35rem .6rem; border-radius: 4px; box-shadow: 0 2px 10px rgba(0, 0, 0, .25) }
#tip[hidden] { display: none }
@media print { #tip, nav.toc { display: none } body { font-size: 12px } }
`

const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
const POLICY = `default-src 'none'; img-src data:; style-src ${hash(STYLE)}; script-src ${hash(SCRIPT)}; base-uri 'none'; form-action 'none'`

// The page as HTML. options: those of pageBlocks (title, nav, reference, sections) and link(href),
// which may rewrite a link of the page's prose (another page's .md to its .html).
export function renderHtmlPage (dataset, { link = (href) => href, ...options } = {}) {
  const { blocks, charts } = pageBlocks(dataset, { ...options, image: (file, alt) => ({ chart: file, alt }) })
  const specs = new Map(charts.map((spec) => [spec.file, spec]))
  // Anchors of headings never take an id of the page's own (the tooltip, the charts and their parts).
  const flames = blocks.filter((block) => block?.flame != null).length
  const slugs = new Set(['tip', ...charts.flatMap((_, i) => [`chart-${i + 1}`, `chart-${i + 1}-title`, `chart-${i + 1}-clip`]), ...Array.from({ length: flames }, (_, i) => [`flame-${i + 1}`, `flame-${i + 1}-diff`]).flat()])
  const contents = []
  const heading = (html, text, level) => {
    const id = headingId(text, slugs)
    if (level === 2) contents.push({ id, html })
    return `<h${level} id="${id}">${html}</h${level}>`
  }
  const markdownHeading = (text, level) => {
    const html = inlineMarkdown(text, { link })
    return heading(html, unescapeHtml(html.replace(/<[^>]*>/g, '')), level)
  }
  let chartCount = 0
  let flameCount = 0
  const body = blocks.filter((block) => block != null && block !== '').map((block) => {
    if (typeof block === 'string') return markdownToHtml(block, { heading: markdownHeading, link })
    if (isTable(block)) return tableHtml(block)
    if (block.chart != null) {
      const spec = specs.get(block.chart)
      return spec ? chartFigure(spec, { id: `chart-${++chartCount}` }) : `<p><em>${escapeHtml(block.alt)}</em></p>`
    }
    if (block.flame != null) return flameFigure(block.flame, `flame-${++flameCount}`)
    if (block.heading != null) return heading(htmlText(block.heading), plainText(block.heading, { joiner: ' ' }), Math.min(6, Math.max(1, block.level ?? 2)))
    return `<p>${htmlText(block.text).replace(/\n/g, '<br>')}</p>`
  })
  const title = plainText(options.title ?? 'log-bench results', { joiner: ' ' })
  // The contents go after the page's opening (title, links to the other pages, the introduction).
  const firstSection = body.findIndex((html) => html.startsWith('<h2'))
  if (contents.length > 2 && firstSection > 0) {
    body.splice(firstSection, 0, `<nav class="toc" aria-label="contents"><strong>Contents</strong><ol>${contents.map((c) => `<li><a href="#${c.id}">${c.html}</a></li>`).join('')}</ol></nav>`)
  }
  // A profiled page's flame graphs lie deep in it: its top links to the first.
  if (flames && firstSection > 0) {
    body.splice(firstSection, 0, `<p class="flame-link"><a href="#flame-1">Flame graph${flames > 1 ? 's' : ''} of the profiled runs</a>: where their time went, by package.</p>`)
  }
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${POLICY}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="generator" content="log-bench report">',
    `<title>${escapeHtml(title)}</title>`,
    // No favicon request: the icon is an empty data: URL.
    '<link rel="icon" href="data:,">',
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    ...body,
    '</main>',
    '<div id="tip" role="tooltip" hidden></div>',
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    ''
  ].join('\n')
}

// A profiled run's call tree (src/report/run/profiles-section.js) as an inline SVG flame graph.
// With `against`, a differential one after it: the same tree coloured by the difference per event
// from the reference cell's.
function flameFigure ({ tree, title, against = null }, id) {
  const figure = `<figure class="chart flame-graph"><figcaption><span class="chart-title">${escapeHtml(title)}</span>` +
    '<span class="chart-sub">Colours by package (the key: each package\'s own share of the time). Hover a frame for its file, package and time.</span></figcaption>' +
    `${flameLegend(tree)}${flameGraphSvg(tree, { id })}</figure>`
  if (!against) return figure
  return figure + `\n<figure class="chart flame-graph flame-diff"><figcaption><span class="chart-title">${escapeHtml(against.title)}</span>` +
    `<span class="chart-sub">Each frame as wide as its time in this run; its colour: red where it takes more µs per event than the same frame (same function reached by the same calls) in ${escapeHtml(against.name)}, blue where less, white where the same, the deepest red the largest difference. Frames only ${escapeHtml(against.name)} has are in its own graph. Hover a frame for both figures.</span></figcaption>` +
    `${flameGraphSvg(tree, { id: `${id}-diff`, against })}</figure>`
}

function tableHtml ({ columns, rows, notes = [] }) {
  // A column of words (column.words) is left-aligned and wraps, whatever its alignment in markdown.
  const right = (column) => column.align === 'right' && !column.words
  const align = (column) => (right(column) ? ' class="r"' : '')
  const head = columns.map((c) => `<th scope="col" class="sortable${right(c) ? ' r' : ''}" tabindex="0">${escapeHtml(c.title)}</th>`).join('')
  const body = rows.map((row) => `<tr>${columns.map((c, i) => `<td${align(c)}>${htmlText(row[i])}</td>`).join('')}</tr>`).join('\n')
  return `<div class="table-wrap"><table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table></div>` +
    notes.map((note) => `\n<p class="note">${htmlText(note)}</p>`).join('')
}

// The file the page goes to: --out itself when it names an .html file, else --out with .html for
// its extension (results/README.md → results/README.html, beside the markdown page).
export function htmlFile (out) {
  return /\.html?$/i.test(out) ? out : `${out.replace(/\.[^./\\]*$/, '')}.html`
}

export const htmlExport = {
  name: 'html',
  targets: ({ out }) => [htmlFile(out)],
  files (dataset, { out, page = {} }) {
    return [{ file: htmlFile(out), data: renderHtmlPage(dataset, page) }]
  }
}
