import { visibleControls } from '../escape.js'

// Text for the HTML page: escaping, and the markdown the sections write for the page alone (the
// strings among their blocks: paragraphs with _em_, **strong**, `code` and links, "- " lists,
// "> " quotes, headings) turned into HTML. Only that subset: anything else is shown as the text
// it is, escaped, so that no name from a results file can become markup.

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

// Text and attribute values alike (quotes included), controls made visible (\x1b, \u202e) as in
// the other formats: the one escape of every text on the page, wherever it came from.
export function escapeHtml (text) {
  return visibleControls(text).replace(/[&<>"']/g, (ch) => ENTITIES[ch])
}

const DECODED = Object.fromEntries(Object.entries(ENTITIES).map(([ch, entity]) => [entity, ch]))
export function unescapeHtml (html) {
  return String(html).replace(/&(amp|lt|gt|quot|#39);/g, (entity) => DECODED[entity])
}

// A link's target is followed only when it stays a link: a relative path, an anchor, http(s) or
// mailto. javascript:, data: and every other scheme are refused (the link text stays, unlinked).
export function safeHref (url) {
  const text = String(url).trim()
  if (/[\u0000-\u001f\u007f]/.test(text)) return null
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)
  if (scheme && !['http', 'https', 'mailto'].includes(scheme[1].toLowerCase())) return null
  return text
}

// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as "-"; a repeated one
// gets -1, -2, … (slugs: a Set of the page's anchors so far).
export function headingId (text, slugs) {
  const base = String(text).toLowerCase().trim().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-') || 'section'
  let id = base
  for (let n = 1; slugs.has(id); n++) id = `${base}-${n}`
  slugs.add(id)
  return id
}

const TAGS = new Map([['<sub>', '<sub>'], ['</sub>', '</sub>'], ['<br>', '<br>'], ['<br/>', '<br>'], ['<br />', '<br>']])
const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/
const isSpace = (ch) => ch === undefined || /\s/.test(ch)
const isWordChar = (ch) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch)

// Inline markdown to HTML. link(href) may rewrite a link's target (a page's .md sibling to .html).
export function inlineMarkdown (text, { link = (href) => href } = {}) {
  const source = String(text)
  let out = ''
  let i = 0
  while (i < source.length) {
    const ch = source[i]
    if (ch === '\\' && PUNCTUATION.test(source[i + 1] ?? '')) {
      out += escapeHtml(source[i + 1])
      i += 2
      continue
    }
    if (ch === '`') {
      const fence = /^`+/.exec(source.slice(i))[0]
      const end = source.indexOf(fence, i + fence.length)
      if (end > 0 && source[end + fence.length] !== '`') {
        let inner = source.slice(i + fence.length, end)
        if (/^ .*[^ ].* $/s.test(inner)) inner = inner.slice(1, -1)
        out += `<code>${escapeHtml(inner)}</code>`
        i = end + fence.length
        continue
      }
      out += escapeHtml(fence)
      i += fence.length
      continue
    }
    if (ch === '<') {
      const tag = [...TAGS.keys()].find((t) => source.startsWith(t, i))
      if (tag) {
        out += TAGS.get(tag)
        i += tag.length
        continue
      }
    }
    if (ch === '[' || (ch === '!' && source[i + 1] === '[')) {
      const image = ch === '!'
      const found = linkAt(source, image ? i + 1 : i)
      if (found) {
        const href = image ? null : safeHref(found.href)
        const inner = inlineMarkdown(found.text, { link })
        // An image from outside would be a network load: its alt text stands in for it.
        if (image) out += `<em>${inner}</em>`
        else out += href == null ? inner : `<a href="${escapeHtml(link(href))}">${inner}</a>`
        i = found.end
        continue
      }
    }
    if (ch === '*' || ch === '_') {
      const run = source.startsWith(ch + ch, i) ? ch + ch : ch
      const close = run.length === 2 || ch === '*' || !isWordChar(source[i - 1]) ? closingDelimiter(source, i, run) : -1
      if (close > 0 && !isSpace(source[i + run.length])) {
        const tag = run.length === 2 ? 'strong' : 'em'
        out += `<${tag}>${inlineMarkdown(source.slice(i + run.length, close), { link })}</${tag}>`
        i = close + run.length
        continue
      }
      out += escapeHtml(run)
      i += run.length
      continue
    }
    out += escapeHtml(ch)
    i++
  }
  return out
}

// [text](href) starting at `start` (the "["), or null.
function linkAt (source, start) {
  let depth = 0
  let close = -1
  for (let k = start; k < source.length; k++) {
    if (source[k] === '\\') { k++; continue }
    if (source[k] === '[') depth++
    if (source[k] === ']' && --depth === 0) { close = k; break }
  }
  if (close < 0 || source[close + 1] !== '(') return null
  let end = -1
  for (let k = close + 2, parens = 0; k < source.length && end < 0; k++) {
    if (source[k] === '(') parens++
    else if (source[k] === ')' && parens-- === 0) end = k
  }
  if (end < 0) return null
  const href = source.slice(close + 2, end).trim()
  if (/\s/.test(href)) return null
  return { text: source.slice(start + 1, close), href, end: end + 1 }
}

// Where the emphasis opened at `open` with `run` closes: a run not after a space, and for "_" not
// before a letter or digit (snake_case stays as it is, as on GitHub); -1 if it does not.
function closingDelimiter (source, open, run) {
  for (let k = source.indexOf(run, open + run.length); k > 0; k = source.indexOf(run, k + 1)) {
    if (source[k - 1] === '\\' || isSpace(source[k - 1])) continue
    if (run === '_' && isWordChar(source[k + 1])) continue
    if (run.length === 1 && source[k + 1] === run) { k++; continue }
    return k
  }
  return -1
}

// A markdown string of the page (one or more paragraphs) as HTML blocks. heading(text, level)
// makes a heading's HTML (the page numbers its anchors); options go to inlineMarkdown.
export function markdownToHtml (text, { heading, ...options }) {
  const html = []
  for (const paragraph of String(text).split(/\n\s*\n/)) {
    const lines = paragraph.split('\n')
    let k = 0
    while (k < lines.length) {
      const line = lines[k]
      const title = /^(#{1,6})\s+(.*)$/.exec(line)
      if (title) {
        html.push(heading(title[2].replace(/\s+#+\s*$/, ''), title[1].length))
        k++
      } else if (/^[-*]\s/.test(line)) {
        const items = []
        for (; k < lines.length && /^[-*]\s/.test(lines[k]); k++) items.push(`<li>${inlineMarkdown(lines[k].slice(2), options)}</li>`)
        html.push(`<ul>${items.join('')}</ul>`)
      } else if (/^>/.test(line)) {
        const quoted = []
        for (; k < lines.length && /^>/.test(lines[k]); k++) quoted.push(lines[k].replace(/^>\s?/, ''))
        html.push(`<blockquote>${markdownToHtml(quoted.join('\n'), { heading, ...options })}</blockquote>`)
      } else {
        const text = []
        for (; k < lines.length && !/^(#{1,6}\s|[-*]\s|>)/.test(lines[k]); k++) text.push(lines[k])
        html.push(`<p>${inlineMarkdown(text.join('\n'), options)}</p>`)
      }
    }
  }
  return html.join('\n')
}
