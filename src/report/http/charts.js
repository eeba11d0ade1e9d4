import { axis, barChart, barSeries, zeroAxis } from '../../draw/charts.js'
import { BASELINE, basisOf } from '../../results/http-summary.js'
import { palette } from '../../draw/colours.js'
import { coverageRange, libraryName } from '../../draw/labels.js'
import { maxOf } from '../../stats.js'

// Chart.js configurations for `http` results: what to draw. Rendering is charts.js's job.

const PERCENTILES = [['p2_5', '2.5%'], ['p50', '50%'], ['p97_5', '97.5%'], ['p99', '99%']]

// Every library's colour (versions as shades); the no-logging baseline in neutral dark grey.
const colourOf = (lib, libs) => (lib === BASELINE ? '#555555' : palette(libs).get(lib))
const drawnLibs = (libs, summaries) =>
  libs.filter((lib) => summaries.some((s) => libraryName(s) === lib && s.okRuns > 0))
// A bar's whisker: the 95% interval of its median (from 2 runs on), as the run charts draw it.
const interval = (d) => (d?.n > 1 ? [d.ciLow, d.ciHigh] : null)
const highestOf = (datasets) => maxOf(datasets.flatMap((d) => d.errorBars.map((range) => range?.[1] ?? 0)), 0)
const whiskers = (summaries, field = 'reqPerSec') => `whiskers: the interval of the median (${coverageRange(summaries.map((s) => s[field]?.ciCoverage).filter((c) => c != null))} coverage)`

// What a table's bars show: the figure its verdicts rest on (basisOf in src/results/http-summary.js), requests
// per second under a closed loop, the server's CPU time per request at a fixed rate (--rate), its
// instructions per request when counted; name is the chart file's, title the words for it.
const CHARTED = {
  reqPerSec: { name: 'requests', title: 'requests per second' },
  serverCpuUsPerRequest: { name: 'cpu', title: 'server CPU µs per request' },
  instructionsPerRequest: { name: 'instructions', title: 'server instructions per request' }
}

export function costOf (group) {
  const { field, better } = basisOf(group)
  return { field, ...CHARTED[field], better: `${better} is better` }
}

// One bar per library for each (logs per request × size) cell, of the group's measure (costOf).
export function costChart (group, conditions) {
  const cost = costOf(group)
  const summaries = group.cells.flatMap((c) => c.summary)
  const libs = drawnLibs(group.libs, summaries)
  const datasets = libs.map((lib) => {
    const figures = group.cells.map((c) => c.summary.find((s) => libraryName(s) === lib)?.[cost.field])
    return barSeries(lib, colourOf(lib, libs), figures.map((d) => d?.median ?? null), {
      errorBars: figures.map(interval)
    })
  })
  return barChart({
    width: 1100,
    height: 560,
    title: `${group.title}: ${cost.title}, per library`,
    notes: [[group.loadLabel, whiskers(summaries, cost.field), cost.better].join(' · '), conditions],
    labels: group.cells.map((c) => c.shortLabel),
    datasets,
    scales: {
      x: axis(group.mode === 'middleware' ? 'payload size' : 'logs per request × payload size', { ticks: { maxRotation: 0 } }),
      y: zeroAxis(`${cost.title} (median of the runs)`, { suggestedMax: highestOf(datasets) })
    }
  })
}

// Latency percentiles of one cell, one bar per library at each percentile.
export function latencyChart (group, cell, conditions) {
  const libs = drawnLibs(group.libs, cell.summary)
  const datasets = libs.map((lib) => {
    const s = cell.summary.find((x) => libraryName(x) === lib)
    const byKey = { p2_5: s.latencyP2_5Ms, p50: s.latencyP50Ms, p97_5: s.latencyP97_5Ms, p99: s.latencyP99Ms }
    return barSeries(lib, colourOf(lib, libs), PERCENTILES.map(([key]) => byKey[key]?.median ?? null), {
      errorBars: PERCENTILES.map(([key]) => interval(byKey[key]))
    })
  })
  return barChart({
    title: `${group.title}, ${cell.shortLabel}: latency percentiles, per library`,
    notes: [[group.loadLabel, whiskers(cell.summary, 'latencyP50Ms'), 'lower is better'].join(' · '), conditions],
    labels: PERCENTILES.map(([, label]) => label),
    datasets,
    scales: { x: axis('percentile'), y: zeroAxis('latency (ms, median of the runs)', { suggestedMax: highestOf(datasets) }) }
  })
}
