import semver from 'semver'

// One colour per library, the same in every chart of every page. Okabe–Ito colours stay
// distinguishable for colour-blind readers; the baselines get neutral grey and black.
const KNOWN = {
  log4js: '#0072B2',
  winston: '#E69F00',
  bunyan: '#009E73',
  pino: '#CC79A7',
  noop: '#999999',
  raw: '#000000',
  none: '#555555'
}
const SPARE = ['#D55E00', '#56B4E9', '#8C564B', '#7F3C8D', '#11A579', '#3969AC', '#E73F74', '#80BA5A']

// The library a series is named after: "pino@9.14.0:sync object" → pino. Its variant, workload and
// version do not change its colour (a version only its shade, see palette).
export function libraryOf (name) {
  return String(name).match(/^[^@:\s]+/)?.[0] ?? String(name)
}

function versionOf (name) {
  return String(name).match(/^[^@:\s]+@([^:\s]+)/)?.[1] ?? null
}

// A library's colour; a library we do not know (an adapter given by path) gets a spare colour
// chosen by its name, so it keeps that colour in every chart of every report.
export function libraryColour (name) {
  const lib = libraryOf(name)
  // A name is data: "constructor" or "valueOf" is a library, not a property every object has.
  if (Object.hasOwn(KNOWN, lib)) return KNOWN[lib]
  let hash = 0
  for (const ch of String(lib)) hash = (hash * 31 + ch.codePointAt(0)) >>> 0
  return SPARE[hash % SPARE.length]
}

// The colours of a chart's series: each its library's colour, and where one chart shows several
// series of a library (versions, variants such as winston:json and winston:ack, workloads), shades
// of that colour: versions from dark (oldest) to light (newest); variants without a version around
// the library's own colour, which the plain library keeps. One series keeps the library's colour.
export function palette (names) {
  const byLib = new Map()
  for (const name of new Set(names)) {
    const lib = libraryOf(name)
    if (!byLib.has(lib)) byLib.set(lib, [])
    byLib.get(lib).push(name)
  }
  const rest = (name) => String(name).replace(/^[^@:\s]+(@[^:\s]+)?/, '')
  const order = (a, b) => {
    const [va, vb] = [versionOf(a), versionOf(b)]
    if (va !== vb) {
      if (va == null || vb == null) return va == null ? -1 : 1
      const byVersion = semver.valid(va) && semver.valid(vb) ? semver.compare(va, vb) : va.localeCompare(vb)
      if (byVersion !== 0) return byVersion
    }
    return rest(a).localeCompare(rest(b))
  }
  const ranked = new Map([...byLib].map(([lib, list]) => [lib, [...list].sort(order)]))
  return new Map(names.map((name) => {
    const list = ranked.get(libraryOf(name))
    if (list.length < 2) return [name, libraryColour(name)]
    const at = list.indexOf(name)
    if (list.some((n) => versionOf(n) != null)) {
      return [name, shade(libraryColour(name), -0.45 + 0.9 * at / (list.length - 1))]
    }
    // Variants without versions: the plain library keeps its colour, the others lighter and darker by turns.
    const step = 0.4 * Math.ceil(at / 2) / Math.ceil((list.length - 1) / 2)
    return [name, at === 0 ? libraryColour(name) : shade(libraryColour(name), at % 2 ? step : -step)]
  }))
}

// A colour darkened (amount < 0, towards black) or lightened (> 0, towards white).
export function shade (hex, amount) {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))
  const mixed = channels.map((c) => Math.round(amount < 0 ? c * (1 + amount) : c + (255 - c) * amount))
  return `#${mixed.map((c) => c.toString(16).padStart(2, '0')).join('')}`.toUpperCase()
}

// #rrggbb with an alpha, for fills behind lines.
export function translucent (hex, alpha) {
  return hex + Math.round(alpha * 255).toString(16).padStart(2, '0')
}
