import { UsageError } from '../errors.js'

// Chart.js (the PNG charts) and svg-chart.js (the HTML page's) round an axis's ends out to a whole
// step: a figure near a double's limit (a doneMs of 1.7e308, finite and schema-valid) rounds to
// Infinity, and Chart.js's tick loop then never ends. No run measures anything near it (1e300 ms
// is 3e289 years), so such a figure is a broken or crafted file: refused with one line, before
// either renderer sees it.
export const MAX_DRAWN = 1e300

// Throws a UsageError naming the chart when a value it would plot is beyond ±MAX_DRAWN.
export function refuseUndrawable ({ file, config }) {
  const beyond = firstBeyond(config?.data)
  if (beyond !== undefined) throw new UsageError(`cannot draw the chart ${file ?? config?.options?.plugins?.title?.text ?? ''}: it would plot ${beyond}, beyond the ±1e300 a chart's axis can span (no run measures that much): check the results file's figures`)
}

function firstBeyond (value) {
  if (typeof value === 'number') return Math.abs(value) > MAX_DRAWN ? value : undefined
  if (value === null || typeof value !== 'object') return undefined
  for (const item of Object.values(value)) {
    const found = firstBeyond(item)
    if (found !== undefined) return found
  }
  return undefined
}
