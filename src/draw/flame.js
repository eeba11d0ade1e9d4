import { escapeHtml } from './html-text.js'
import { visibleControls } from '../escape.js'
import { nestedTree } from '../results/profile-summary.js'
import { maxOf } from '../stats.js'

// A run's call tree (its record's profileTree, src/results/profile-summary.js) as an icicle graph in inline SVG
// for the HTML page: the root on top, each function below its caller, as wide as its total time
// (itself and what it called); a gap under a frame is its own time and the callees too small to
// draw. One colour per package (a hue from the package's name; the profiler's own frames grey), its
// name inside where it fits, and every frame's figures in its <title>, which the page's script shows
// on hover. Every name is escaped (control characters made visible first); nothing is loaded.

const ROW = 18
const CHAR_PX = 6.6
const MIN_LABEL_PX = 28

// against (optional): a differential flame graph, the cell's tree drawn as above but each frame
// coloured by how much more (red) or less (blue) time per event it took than the same frame (the same
// function, file and line reached by the same calls) in the reference's tree, white where the same;
// { tree, events, referenceEvents, name }: the reference's flat tree and the events each run logged.
// Frames only the reference has are not drawn (they are in the reference's own graph).
export function flameGraphSvg (flatTree, { width = 1000, id = 'flame', against = null } = {}) {
  const tree = nestedTree(flatTree)
  const total = tree.totalUs || 1
  const differences = against ? differencesOf(tree, against) : null
  const rows = []
  let depth = 0
  const place = (node, x, level) => {
    depth = Math.max(depth, level + 1)
    const w = (node.totalUs / total) * width
    rows.push(frameSvg(node, x, level * ROW, w, total, differences?.get(node)))
    let childX = x
    for (const child of node.children) {
      place(child, childX, level + 1)
      childX += (child.totalUs / total) * width
    }
  }
  place(tree, 0, 0)
  const label = against ? 'differential flame graph' : 'flame graph'
  return `<svg class="plot flame${against ? ' flame-diff' : ''}" id="${escapeHtml(id)}" viewBox="0 0 ${width} ${depth * ROW}" role="img" aria-label="${label}" xmlns="http://www.w3.org/2000/svg">${rows.join('')}</svg>`
}

// Per node of the cell's tree: { own, reference, name, colour }, µs per event in the node (itself and
// what it called) on each side, the reference's 0 where it has no such frame.
function differencesOf (tree, { tree: referenceFlat, events, referenceEvents, name }) {
  const keyOf = (node) => `${node.name}\u0000${node.file}\u0000${node.line}`
  const reference = new Map()
  const index = (node, path) => {
    const here = `${path}\u0001${keyOf(node)}`
    reference.set(here, (reference.get(here) ?? 0) + node.totalUs)
    for (const child of node.children) index(child, here)
  }
  index(nestedTree(referenceFlat), '')
  const out = new Map()
  const visit = (node, path) => {
    const here = `${path}\u0001${keyOf(node)}`
    const referenceUs = reference.get(here) ?? 0
    const own = node.totalUs / Math.max(1, events)
    out.set(node, { own, reference: referenceUs / Math.max(1, referenceEvents), name })
    for (const child of node.children) visit(child, here)
  }
  visit(tree, '')
  // The root's difference is the whole's; the scale is the largest difference below it.
  const below = [...out].filter(([node]) => node !== tree).map(([, d]) => Math.abs(d.own - d.reference))
  const largest = maxOf(below, 1e-9)
  for (const d of out.values()) d.colour = differenceColour((d.own - d.reference) / largest)
  return out
}

// -1 (the most less) … 0 (the same) … 1 (the most more): blue, white, red.
function differenceColour (scaled) {
  const v = Math.max(-1, Math.min(1, scaled))
  const lightness = Math.round(97 - Math.abs(v) * 40)
  return `hsl(${v >= 0 ? 0 : 215}, ${v === 0 ? 0 : 80}%, ${lightness}%)`
}

const micros = (us) => (us >= 10 ? us.toFixed(1) : us.toFixed(2))

function frameSvg (node, x, y, w, total, difference = null) {
  const place = node.file ? ` ${node.file}${node.line == null ? '' : `:${node.line}`}` : ''
  const figures = `${(node.totalUs / 1000).toFixed(1)} ms in all (${((node.totalUs / total) * 100).toFixed(1)}%), ${(node.selfUs / 1000).toFixed(1)} ms itself`
  const change = difference && `${micros(difference.own)} µs per event here, ${micros(difference.reference)} in ${difference.name} (${difference.own >= difference.reference ? '+' : '−'}${micros(Math.abs(difference.own - difference.reference))})`
  const tip = [visibleControls(node.name + place), visibleControls(node.package), figures, ...(change ? [visibleControls(change)] : [])].join('\n')
  const fits = Math.floor((w - 4) / CHAR_PX)
  const label = w >= MIN_LABEL_PX && fits > 1
    ? `<text x="${(x + 3).toFixed(1)}" y="${y + ROW - 5}" font-size="11">${text(node.name.length > fits ? `${node.name.slice(0, fits - 1)}…` : node.name)}</text>`
    : ''
  return `<g class="frame"><rect x="${x.toFixed(1)}" y="${y}" width="${Math.max(0.5, w - 0.5).toFixed(1)}" height="${ROW - 1}" fill="${difference ? difference.colour : colourOf(node.package)}"><title>${escapeHtml(tip)}</title></rect>${label}</g>`
}

const text = (value) => escapeHtml(visibleControls(value))

// The key to a flame graph's colours: each package drawn, its swatch and its own time's share of the
// whole, largest first (what a reader would otherwise learn a colour at a time by hovering).
export function flameLegend (flatTree) {
  const total = flatTree.nodes[0]?.totalUs || 1
  const own = new Map()
  for (const node of flatTree.nodes.slice(1)) own.set(node.package, (own.get(node.package) ?? 0) + node.selfUs)
  const items = [...own].sort((a, b) => b[1] - a[1]).map(([name, us]) =>
    '<span class="flame-key"><svg class="swatch" viewBox="0 0 14 14" width="14" height="14" aria-hidden="true">' +
    `<rect x="1" y="1" width="12" height="12" fill="${colourOf(name)}"/></svg>${text(name)} ${((us / total) * 100).toFixed(1)}%</span>`)
  return `<div class="legend flame-legend" role="list" aria-label="package colours, with each package's own share of the time">${items.join('')}</div>`
}

// The same package gets the same colour on every page.
function colourOf (name) {
  if (/^\(.*\)$/.test(name)) return 'hsl(220, 8%, 72%)'
  let hash = 0
  for (const char of name) hash = (hash * 31 + char.codePointAt(0)) >>> 0
  return `hsl(${hash % 360}, 62%, 70%)`
}
