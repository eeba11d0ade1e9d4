import { axisTitle, titles } from './charts.js'
import { BASELINE } from '../results/http-summary.js'
import { palette } from './colours.js'
import { coverageRange, libraryName } from './labels.js'

// Chart.js configurations for `http` results: what to draw. Rendering is charts.js's job.

const PERCENTILES = [['p2_5', '2.5%'], ['p50', '50%'], ['p97_5', '97.5%'], ['p99', '99%']]

// Every library's colour (versions as shades); the no-logging baseline in neutral dark grey.
const colourOf = (lib, libs) => (lib === BASELINE ? '#555555' : palette(libs).get(lib))
const drawnLibs = (libs, summaries) => libs.filter((lib) => summaries.some((s) => libraryName(s) === lib && s.okRuns > 0))
// A bar's whisker: the 95% interval of its median (from 2 runs on), as the run charts draw it.
const interval = (d) => (d?.n > 1 ? [d.ciLow, d.ciHigh] : null)
const highestOf = (datasets) => Math.max(0, ...datasets.flatMap((d) => d.errorBars.map((range) => range?.[1] ?? 0)))
const whiskers = (summaries) => `whiskers: the interval of the median (${coverageRange(summaries.map((s) => s.reqPerSec?.ciCoverage).filter((c) => c != null))} coverage)`

// Requests per second per library, one group of bars per (logs per request × size) cell.
export function requestsChart (group, conditions) {
  const libs = drawnLibs(group.libs, group.cells.flatMap((c) => c.summary))
  const datasets = libs.map((lib) => {
    const figures = group.cells.map((c) => c.summary.find((s) => libraryName(s) === lib)?.reqPerSec)
    return { label: lib, backgroundColor: colourOf(lib, libs), data: figures.map((d) => d?.median ?? null), errorBars: figures.map(interval) }
  })
  return {
    width: 1100,
    height: 560,
    config: {
      type: 'bar',
      data: {
        labels: group.cells.map((c) => c.shortLabel),
        datasets
      },
      options: {
        plugins: titles(`${group.title}: requests per second, per library`, [[group.loadLabel, whiskers(group.cells.flatMap((c) => c.summary)), 'higher is better'].join(' · '), conditions]),
        scales: {
          x: { title: axisTitle(group.mode === 'middleware' ? 'payload size' : 'logs per request × payload size'), ticks: { maxRotation: 0 } },
          y: { beginAtZero: true, suggestedMax: highestOf(datasets), title: axisTitle('requests per second (median of the runs)') }
        }
      }
    }
  }
}

// Latency percentiles of one cell, one bar per library at each percentile.
export function latencyChart (group, cell, conditions) {
  const libs = drawnLibs(group.libs, cell.summary)
  const datasets = libs.map((lib) => {
    const s = cell.summary.find((x) => libraryName(x) === lib)
    const byKey = { p2_5: s.latencyP2_5Ms, p50: s.latencyP50Ms, p97_5: s.latencyP97_5Ms, p99: s.latencyP99Ms }
    return { label: lib, backgroundColor: colourOf(lib, libs), data: PERCENTILES.map(([key]) => byKey[key]?.median ?? null), errorBars: PERCENTILES.map(([key]) => interval(byKey[key])) }
  })
  return {
    width: 1000,
    height: 520,
    config: {
      type: 'bar',
      data: {
        labels: PERCENTILES.map(([, label]) => label),
        datasets
      },
      options: {
        plugins: titles(`${group.title}, ${cell.shortLabel}: latency percentiles, per library`, [[group.loadLabel, whiskers(cell.summary), 'lower is better'].join(' · '), conditions]),
        scales: {
          x: { title: axisTitle('percentile') },
          y: { beginAtZero: true, suggestedMax: highestOf(datasets), title: axisTitle('latency (ms, median of the runs)') }
        }
      }
    }
  }
}
