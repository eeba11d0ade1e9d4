import { escapeHtml } from './html-text.js'
import { visibleControls } from '../escape.js'
import { nestedTree } from '../results/profile-summary.js'

// A run's call tree (its record's profileTree, src/results/profile-summary.js) as an icicle graph in inline SVG
// for the HTML page: the root on top, each function below its caller, as wide as its total time
// (itself and what it called); a gap under a frame is its own time and the callees too small to
// draw. One colour per package (a hue from the package's name; the profiler's own frames grey), its
// name inside where it fits, and every frame's figures in its <title>, which the page's script shows
// on hover. Every name is escaped (control characters made visible first); nothing is loaded.

const ROW = 18
const CHAR_PX = 6.6
const MIN_LABEL_PX = 28

export function flameGraphSvg (flatTree, { width = 1000, id = 'flame' } = {}) {
  const tree = nestedTree(flatTree)
  const total = tree.totalUs || 1
  const rows = []
  let depth = 0
  const place = (node, x, level) => {
    depth = Math.max(depth, level + 1)
    const w = (node.totalUs / total) * width
    rows.push(frameSvg(node, x, level * ROW, w, total))
    let childX = x
    for (const child of node.children) {
      place(child, childX, level + 1)
      childX += (child.totalUs / total) * width
    }
  }
  place(tree, 0, 0)
  return `<svg class="plot flame" id="${escapeHtml(id)}" viewBox="0 0 ${width} ${depth * ROW}" role="img" aria-label="flame graph" xmlns="http://www.w3.org/2000/svg">${rows.join('')}</svg>`
}

function frameSvg (node, x, y, w, total) {
  const place = node.file ? ` ${node.file.split('/').slice(-2).join('/')}${node.line == null ? '' : `:${node.line}`}` : ''
  const figures = `${(node.totalUs / 1000).toFixed(1)} ms in all (${((node.totalUs / total) * 100).toFixed(1)}%), ${(node.selfUs / 1000).toFixed(1)} ms itself`
  const tip = [visibleControls(node.name + place), visibleControls(node.package), figures].join('\n')
  const fits = Math.floor((w - 4) / CHAR_PX)
  const label = w >= MIN_LABEL_PX && fits > 1
    ? `<text x="${(x + 3).toFixed(1)}" y="${y + ROW - 5}" font-size="11">${text(node.name.length > fits ? `${node.name.slice(0, fits - 1)}…` : node.name)}</text>`
    : ''
  return `<g class="frame"><rect x="${x.toFixed(1)}" y="${y}" width="${Math.max(0.5, w - 0.5).toFixed(1)}" height="${ROW - 1}" fill="${colourOf(node.package)}"><title>${escapeHtml(tip)}</title></rect>${label}</g>`
}

const text = (value) => escapeHtml(visibleControls(value))

// The same package gets the same colour on every page.
function colourOf (name) {
  if (/^\(.*\)$/.test(name)) return 'hsl(220, 8%, 72%)'
  let hash = 0
  for (const char of name) hash = (hash * 31 + char.codePointAt(0)) >>> 0
  return `hsl(${hash % 360}, 62%, 70%)`
}
