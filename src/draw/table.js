import { escapeHtml } from './html-text.js'

// The report's one table model and its renderers (markdown, terminal, CSV; HTML in html.js). Sections and the
// terminal build values; only the renderers below know a format's marks.
//
// A table: { columns: [{ title, align: 'left' | 'right' }], rows: [[cell, …], …], notes?: [text, …] }
// A cell, or any text (a note, a paragraph):
//   - a string or a number: plain text (numbers arrive formatted by labels.js as strings mostly);
//   - { value, emphasis: 'strong' | 'em' | 'code' }: markdown **value**, _value_, `value`; the terminal
//     shows it plainly, or bold / italic when it draws for a TTY;
//   - { lines: [cell, …] }: several entries in one cell: markdown joins them with <br>, the terminal
//     puts each on a line of its own, CSV with a newline inside the quoted field;
//   - [cell, …]: spans of one line ("**12.3** (2 of 3 runs)");
//   - { markdown, plain }: text markdown writes otherwise (an escaped mark: "\\*" and "*");
//   - { value, href }: a link to another page of the project (a relative href, built by log-bench,
//     never from a results file): markdown [value](href), HTML <a> to the page's .html twin, plain value;
//   - null or undefined: empty.
// A page is a list of blocks (see markdownBlocks): a table, { text } (a paragraph), { heading, level },
// or a string of markdown written for the page alone (prose about charts, links); the terminal draws
// every block but those strings.

import { visibleControls } from '../escape.js'
import { displayUnits, displayWidth, MIN_WIDTH, padToWidth, terminalColumns } from './width.js'
import { maxOf } from '../stats.js'

export { visibleControls }

export const strong = (value) => ({ value, emphasis: 'strong' })
export const em = (value) => ({ value, emphasis: 'em' })
export const code = (value) => ({ value, emphasis: 'code' })
// Text from a results file in a heading or paragraph: markdown escapes what could end a table cell.
export const escaped = (text) => ({ markdown: escapeCell(markdownEscape(text)), plain: visibleControls(text) })
// Several entries in one cell; none: a dash.
export const entries = (list) => (list.length ? { lines: list } : '—')

export const left = (title) => ({ title, align: 'left' })
export const right = (title) => ({ title, align: 'right' })

// The usual shapes: the first column names the row and the rest are figures (right-aligned), or
// every column holds words (left-aligned).
export const figureColumns = (titles) => titles.map((title, i) => (i === 0 ? left(title) : right(title)))
export const textColumns = (titles) => titles.map(left)

// Any cell may hold data from a results file or an adapter (a library name, an error, a command):
// it stays one line, and a "|" in it is escaped so that it cannot end the cell.
export function escapeCell (value) {
  return String(value ?? '').replace(/\r\n|[\r\n]/g, ' ').replace(/\|/g, '\\|')
}

// Plain text as markdown text: HTML is inert (&, <, > as entities: no tag, no autolink), link and
// image syntax is inert (a "]" that a "(", "[" or ":" follows is escaped: no [text](javascript:…),
// no ![alt](url), no [ref]: definition; a backslash is escaped so that it cannot undo that), and
// controls are visible. The one escape for text from a results file, a scenario or an adapter on a page.
const MARKDOWN_ESCAPES = { '\\': '\\\\', '&': '&amp;', '<': '&lt;', '>': '&gt;', ']': '\\]' }
export function markdownEscape (text) {
  return visibleControls(text).replace(/[\\&<>]|\](?=[([:])/g, (ch) => MARKDOWN_ESCAPES[ch])
}

// Inline code that holds any text: the fence is one backtick longer than any run of backticks in it.
export function codeSpan (value) {
  const text = visibleControls(value)
  const fence = '`'.repeat(maxOf((String(text).match(/`+/g) ?? []).map((run) => run.length), 0) + 1)
  const pad = /^`|`$/.test(text) ? ' ' : ''
  return `${fence}${pad}${text}${pad}${fence}`
}

const MARKDOWN_MARKS = { strong: (t) => `**${t}**`, em: (t) => `_${t}_`, code: codeSpan }
const ANSI = { strong: (t) => `\x1b[1m${t}\x1b[22m`, em: (t) => `\x1b[3m${t}\x1b[23m`, code: (t) => t }

// A cell or text as one string in a style: { mark(kind, text) or null, joiner (between lines),
// markdown (whether { markdown, plain } takes its markdown) }.
// Text is escaped here, once per format: markdown's escape (markdownEscape) or visible controls.
// Inside a code span the text is literal (markdown shows no entity there): only controls are made visible.
function inline (cell, style) {
  const escape = style.escape ?? String
  if (cell == null) return ''
  if (typeof cell === 'string') return escape(cell)
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : ''
  if (typeof cell !== 'object') return escape(String(cell))
  if (Array.isArray(cell)) return cell.map((span) => inline(span, style)).join('')
  if (cell.lines) return cell.lines.map((line) => inline(line, style)).join(style.joiner)
  if (cell.markdown != null) return style.markdown ? cell.markdown : escape(visibleControls(cell.plain))
  if (cell.href != null) {
    const text = inline(cell.value, style)
    return style.link ? style.link(text, cell.href) : text
  }
  const value = inline(cell.value, cell.emphasis === 'code' && style.markdown ? { ...style, escape: visibleControls } : style)
  return cell.emphasis && style.mark ? style.mark(cell.emphasis, value) : value
}

// A link's target: relative only (no scheme), its parentheses and spaces encoded so that it cannot end
// the link; anything else is shown as its text alone.
const safeHref = (href) => (/^[a-z][a-z0-9+.-]*:/i.test(href) || /^\/\//.test(href) ? null : encodeURI(href).replace(/[()]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`))
const MARKDOWN = { mark: (kind, text) => MARKDOWN_MARKS[kind](text), joiner: '<br>', markdown: true, escape: markdownEscape, link: (text, href) => (safeHref(href) ? `[${text}](${safeHref(href)})` : text) }
export const markdownText = (cell) => inline(cell, MARKDOWN)
export const plainText = (cell, { color = false, joiner = '\n' } = {}) => inline(cell, { mark: color ? (kind, text) => ANSI[kind](text) : null, joiner, markdown: false, escape: visibleControls })
// HTML (html.js): every text escaped, marks as elements, the entries of a cell on lines of their own.
const HTML_TAGS = { strong: 'strong', em: 'em', code: 'code' }
// A link to another page leads to its HTML twin (report --pages writes one beside every page).
const HTML = { mark: (kind, text) => `<${HTML_TAGS[kind]}>${text}</${HTML_TAGS[kind]}>`, joiner: '<br>', markdown: false, escape: escapeHtml, link: (text, href) => (safeHref(href) ? `<a href="${escapeHtml(safeHref(href).replace(/\.md(?=$|#)/, '.html'))}">${text}</a>` : text) }
export const htmlText = (cell) => inline(cell, HTML)

// The lines of a cell as the terminal shows them: one per entry of { lines }; plain: the entry without
// ANSI marks (what a line is wrapped from).
function cellLines (cell, color) {
  const entries = cell != null && typeof cell === 'object' && !Array.isArray(cell) && cell.lines ? cell.lines : [cell]
  return entries.map((entry) => {
    const plain = escapeCell(plainText(entry))
    return { text: escapeCell(plainText(entry, { color })), width: displayWidth(plain), plain }
  })
}

// Markdown: every cell on one line, padded so that the source reads as a table too; a right-aligned
// column's rule ends in ":".
export function markdownTable ({ columns, rows, notes = [] }) {
  const all = [
    columns.map((c) => escapeCell(markdownText(c.title))),
    ...rows.map((row) => columns.map((_, i) => escapeCell(markdownText(row[i]))))
  ]
  const widths = columns.map((_, i) => maxOf(all.map((row) => displayWidth(row[i])), 3))
  const line = (row) => '| ' + row.map((cell, i) => padToWidth(cell, widths[i], columns[i].align)).join(' | ') + ' |'
  const rule = '|' + widths.map((w, i) => (columns[i].align === 'right' ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|'
  return [[line(all[0]), rule, ...all.slice(1).map(line)].join('\n'), ...notes.map(markdownText)].join('\n\n')
}

// The terminal: the same grid without markdowns marks; a cell of several entries takes several
// lines. color: ANSI bold and italic for emphasis (only when stdout is a TTY). width: no line wider
// (see terminalWidth): a table too wide is split into tables of fewer columns, each repeating the
// first `keys` columns (1 unless the table says: what names a row), and a part still too wide has its
// widest columns wrapped between words.
export function terminalTable ({ columns, rows, notes = [], keys = 1 }, { color = false, width = Infinity } = {}) {
  const header = columns.map((c) => cellLines(c.title, false))
  const body = rows.map((row) => columns.map((_, i) => cellLines(row[i], color)))
  const natural = columns.map((_, i) => maxOf([header, ...body].flatMap((row) => row[i].map((l) => l.width)), 3))
  const shared = Array.from({ length: Math.min(keys, columns.length - 1) }, (_, i) => i)
  const parts = []
  for (let i = shared.length; i < columns.length; i++) {
    const last = parts.at(-1)
    if (last && gridWidth([...shared, ...last].map((k) => natural[k]).concat(natural[i])) <= width) last.push(i)
    else parts.push([i])
  }
  const grids = (parts.length ? parts : [[]]).map((part) =>
    grid([...shared, ...part], { columns, header, body, natural, width }))
  return [grids.join('\n\n'), ...notes.map((note) => wrap(plainText(note, { color, joiner: ' ' }), width))].join('\n\n')
}

// A line of a grid: "| " + cells joined by " | " + " |".
const gridWidth = (widths) => widths.reduce((sum, w) => sum + w, 0) + 3 * widths.length + 1

// The grid of some columns (their indexes), its widest columns narrowed until it fits `width`: the
// widths are capped at the largest figure that fits (no column below 3 characters), and a cell's
// line longer than its column is wrapped.
function grid (indexes, { columns, header, body, natural, width }) {
  const widths = indexes.map((i) => natural[i])
  if (gridWidth(widths) > width) {
    const room = Math.max(3 * widths.length, width - gridWidth(widths.map(() => 0)))
    let cap = maxOf(widths)
    while (cap > 3 && widths.reduce((sum, w) => sum + Math.min(w, cap), 0) > room) cap--
    widths.forEach((w, k) => { widths[k] = Math.min(w, cap) })
  }
  const fitted = (cell, w) => cell.flatMap((entry) => (entry.width <= w ? [entry] : wrap(entry.plain, w).split('\n').map((text) => ({ text, width: displayWidth(text) }))))
  const lines = (row) => {
    const cells = indexes.map((i, k) => fitted(row[i], widths[k]))
    const height = maxOf(cells.map((cell) => cell.length))
    return Array.from({ length: height }, (_, line) => '| ' + cells.map((cell, k) => {
      const entry = cell[line] ?? { text: '', width: 0 }
      return padToWidth(entry.text, widths[k], columns[indexes[k]].align, entry.width)
    }).join(' | ') + ' |')
  }
  const rule = '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|'
  return [...lines(header), rule, ...body.flatMap(lines)].join('\n')
}

// CSV (RFC 4180): a header of the titles, a line per row, plain text; notes are not data. Text that
// a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return: an
// adapter's name or error is data from anywhere) is given a leading ' so that it stays text, as
// OWASP's "CSV Injection" advises; numbers are written as numbers.
export function csvTable ({ columns, rows }) {
  const field = (cell) => {
    let text = plainText(cell)
    if (typeof cell !== 'number' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
  }
  return [columns.map((c) => field(c.title)), ...rows.map((row) => columns.map((_, i) => field(row[i])))].map((line) => line.join(',')).join('\n') + '\n'
}

export const isTable = (block) => block != null && typeof block === 'object' && Array.isArray(block.columns)

// A section's blocks as markdown, each a paragraph of the page.
export function markdownBlocks (blocks) {
  return blocks.filter((block) => block != null && block !== '').map((block) => {
    if (typeof block === 'string') return block
    if (isTable(block)) return markdownTable(block)
    if (block.heading != null) return `${'#'.repeat(block.level ?? 2)} ${markdownText(block.heading)}`
    return markdownText(block.text)
  }).join('\n\n')
}

// A paragraph for a terminal: lines of at most `width` columns (displayWidth: ANSI marks take none),
// broken between words; a word longer than that is cut into pieces of that width, or, with
// cutWords false (a chart's label), stands alone on its line.
export const DEFAULT_WIDTH = 100
export function wrap (text, width = DEFAULT_WIDTH, { cutWords = true } = {}) {
  return text.split('\n').map((line) => {
    const lines = []
    let current = ''
    for (const word of line.split(' ').flatMap((w) => (cutWords ? pieces(w, width) : [w]))) {
      if (current && displayWidth(current) + 1 + displayWidth(word) > width) {
        lines.push(current)
        current = word
      } else {
        current = current ? `${current} ${word}` : word
      }
    }
    return [...lines, current].join('\n')
  }).join('\n')
}

// A word in pieces of at most `width` columns, an ANSI mark or a grapheme cluster never cut (a
// cluster wider than `width` stands alone).
function pieces (word, width) {
  if (displayWidth(word) <= width) return [word]
  const out = ['']
  let shown = 0
  for (const unit of displayUnits(word)) {
    if (unit.width > 0 && shown > 0 && shown + unit.width > width) {
      out.push('')
      shown = 0
    }
    out[out.length - 1] += unit.text
    shown += unit.width
  }
  return out
}

// The width the terminal's tables and paragraphs fit: $COLUMNS where it is set (a shell's, or
// `COLUMNS=100 log-bench run`), else the terminal's own width, else (a pipe, a file) 100; never
// below 40.
export function terminalWidth (stream = process.stdout, env = process.env) {
  return Math.max(MIN_WIDTH, terminalColumns(stream, env) ?? DEFAULT_WIDTH)
}

// The same blocks for a terminal: markdown written for the page alone (strings) is left out;
// headings are underlined (= for a section, - below it); paragraphs are wrapped; nothing is wider
// than `width`.
export function terminalBlocks (blocks, { color = false, width = DEFAULT_WIDTH } = {}) {
  return blocks.filter((block) => block != null && typeof block !== 'string').map((block) => {
    if (isTable(block)) return terminalTable(block, { color, width })
    if (block.heading != null) {
      const title = plainText(block.heading, { joiner: ' ' })
      const shown = color ? `\x1b[1m${title}\x1b[22m` : title
      return `${wrap(shown, width)}\n${((block.level ?? 2) <= 2 ? '=' : '-').repeat(Math.min(displayWidth(title), width))}`
    }
    return wrap(plainText(block.text, { color, joiner: ' ' }), width)
  }).join('\n\n')
}
