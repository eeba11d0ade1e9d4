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
// versions of a library, shades of that colour from dark (oldest) to light (newest).
export function palette (names) {
  const versions = new Map()
  for (const name of names) {
    const version = versionOf(name)
    if (version == null) continue
    const lib = libraryOf(name)
    if (!versions.has(lib)) versions.set(lib, new Set())
    versions.get(lib).add(version)
  }
  const order = (a, b) => (semver.valid(a) && semver.valid(b) ? semver.compare(a, b) : a.localeCompare(b))
  const ranked = new Map([...versions].map(([lib, set]) => [lib, [...set].sort(order)]))
  return new Map(names.map((name) => {
    const list = ranked.get(libraryOf(name)) ?? []
    const version = versionOf(name)
    if (list.length < 2 || version == null) return [name, libraryColour(name)]
    return [name, shade(libraryColour(name), -0.45 + 0.9 * list.indexOf(version) / (list.length - 1))]
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
