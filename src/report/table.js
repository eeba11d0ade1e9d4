// Any cell may hold data from a results file or an adapter (a library name, an error, a command):
// it stays one line, and a "|" in it is escaped so that it cannot end the cell.
export function escapeCell (value) {
  return String(value ?? '').replace(/\r\n|[\r\n]/g, ' ').replace(/\|/g, '\\|')
}

// Inline code that holds any text: the fence is one backtick longer than any run of backticks in it.
export function codeSpan (text) {
  const fence = '`'.repeat(Math.max(0, ...(String(text).match(/`+/g) ?? []).map((run) => run.length)) + 1)
  const pad = /^`|`$/.test(text) ? ' ' : ''
  return `${fence}${pad}${text}${pad}${fence}`
}

// A plain text/markdown table: first column left-aligned, the rest right-aligned (numbers), or every
// column left-aligned with { text: true } (sentences).
export function formatTable (header, rows, { markdown = true, text = false } = {}) {
  const all = [header, ...rows].map((row) => row.map(escapeCell))
  const widths = header.map((_, i) => Math.max(3, ...all.map((row) => row[i].length)))
  const left = (i) => text || i === 0
  const line = (row) => '| ' + row.map((cell, i) => (left(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ') + ' |'
  const rule = '|' + widths.map((w, i) => (left(i) ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|'
  return [line(all[0]), markdown ? rule : rule.replace(/:/g, '-'), ...all.slice(1).map(line)].join('\n')
}
