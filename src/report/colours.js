// One colour per library, the same in every chart. Okabe–Ito colours stay distinguishable for
// colour-blind readers; the baselines get neutral grey and black.
const KNOWN = {
  log4js: '#0072B2',
  winston: '#E69F00',
  bunyan: '#009E73',
  pino: '#CC79A7',
  noop: '#999999',
  raw: '#000000'
}
const SPARE = ['#D55E00', '#56B4E9', '#8C564B', '#7F3C8D', '#11A579', '#3969AC', '#E73F74', '#80BA5A']

// A library we do not know (an adapter given by path) gets a spare colour chosen by its name, so
// it keeps that colour in every chart of every report.
export function libraryColour (lib) {
  // A name is data: "constructor" or "valueOf" is a library, not a property every object has.
  if (Object.hasOwn(KNOWN, lib)) return KNOWN[lib]
  let hash = 0
  for (const ch of String(lib)) hash = (hash * 31 + ch.codePointAt(0)) >>> 0
  return SPARE[hash % SPARE.length]
}

// #rrggbb with an alpha, for fills behind lines.
export function translucent (hex, alpha) {
  return hex + Math.round(alpha * 255).toString(16).padStart(2, '0')
}
