// Numbers as every page, table, sentence and rule writes them: one set, at the ground of src/ so
// that the judgement (src/results/judge/) and the exporters share it.

// A count as tables write it: 10000 → "10,000".
export function formatCount (v) {
  return formatNumber(v, 0)
}

export function formatNumber (v, digits = 0) {
  return v == null ? '' : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

export function formatMs (v) {
  if (v == null) return ''
  if (Math.abs(v) < 1) return v.toFixed(2)
  if (Math.abs(v) < 10) return v.toFixed(1)
  return Math.round(v).toLocaleString('en-US')
}

export function formatPct (v) {
  if (v == null) return 'unknown'
  return `${(v * 100).toFixed(v > 0 && v < 0.001 ? 3 : 2)}%`
}

// Memory and throughput alike, in units of 1024 (the unit of RSS figures), so named as binary
// units: 337 MiB, not "337 MB" (which would be 353,370,112 bytes read as 10^6).
export function formatBytes (v) {
  if (v == null) return ''
  if (v >= 1024 ** 3) return `${(v / 1024 ** 3).toFixed(1)} GiB`
  if (v >= 10 * 1024 ** 2) return `${Math.round(v / 1024 ** 2).toLocaleString('en-US')} MiB`
  if (v >= 1024 ** 2) return `${(v / 1024 ** 2).toFixed(1)} MiB`
  if (v >= 1024) return `${(v / 1024).toFixed(1)} KiB`
  return `${Math.round(v)} B`
}

export function formatRatio (v) {
  return v == null ? '' : `${v.toFixed(v < 10 ? 2 : 1)}×`
}

export function unique (values) {
  return [...new Set(values)]
}
