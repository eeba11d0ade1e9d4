// A plain text/markdown table: first column left-aligned, the rest right-aligned.
export function formatTable (header, rows, { markdown = true } = {}) {
  const all = [header, ...rows].map((row) => row.map((cell) => String(cell ?? '')))
  const widths = header.map((_, i) => Math.max(3, ...all.map((row) => row[i].length)))
  const line = (row) => '| ' + row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ') + ' |'
  const rule = '|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|'
  return [line(all[0]), markdown ? rule : rule.replace(/:/g, '-'), ...all.slice(1).map(line)].join('\n')
}
