import { axisTitle, titles } from './charts.js'
import { BASELINE } from '../results/http-summary.js'
import { libraryColour } from './colours.js'

// Chart.js configurations for `http` results: what to draw. Rendering is charts.js's job.

const PERCENTILES = [['p2_5', '2.5%'], ['p50', '50%'], ['p97_5', '97.5%'], ['p99', '99%']]

// The no-logging baseline in neutral dark grey, apart from every library's colour.
const colourOf = (lib) => (lib === BASELINE ? '#555555' : libraryColour(lib))
const drawnLibs = (libs, summaries) => libs.filter((lib) => summaries.some((s) => s.lib === lib && s.okRuns > 0))

// Requests per second per library, one group of bars per (logs per request × size) cell.
export function requestsChart (group, conditions) {
  const libs = drawnLibs(group.libs, group.cells.flatMap((c) => c.summary))
  return {
    width: 1100,
    height: 560,
    config: {
      type: 'bar',
      data: {
        labels: group.cells.map((c) => c.shortLabel),
        datasets: libs.map((lib) => ({
          label: lib,
          backgroundColor: colourOf(lib),
          data: group.cells.map((c) => c.summary.find((s) => s.lib === lib)?.reqPerSec?.median ?? null)
        }))
      },
      options: {
        plugins: titles(`${group.title}: requests per second, per library`, [[group.loadLabel, 'higher is better'].join(' · '), conditions]),
        scales: {
          x: { title: axisTitle(group.mode === 'middleware' ? 'payload size' : 'logs per request × payload size'), ticks: { maxRotation: 0 } },
          y: { beginAtZero: true, title: axisTitle('requests per second (median of the runs)') }
        }
      }
    }
  }
}

// Latency percentiles of one cell, one bar per library at each percentile.
export function latencyChart (group, cell, conditions) {
  const libs = drawnLibs(group.libs, cell.summary)
  return {
    width: 1000,
    height: 520,
    config: {
      type: 'bar',
      data: {
        labels: PERCENTILES.map(([, label]) => label),
        datasets: libs.map((lib) => {
          const s = cell.summary.find((x) => x.lib === lib)
          const byKey = { p2_5: s.latencyP2_5Ms, p50: s.latencyP50Ms, p97_5: s.latencyP97_5Ms, p99: s.latencyP99Ms }
          return { label: lib, backgroundColor: colourOf(lib), data: PERCENTILES.map(([key]) => byKey[key]?.median ?? null) }
        })
      },
      options: {
        plugins: titles(`${group.title}, ${cell.shortLabel}: latency percentiles, per library`, [[group.loadLabel, 'lower is better'].join(' · '), conditions]),
        scales: {
          x: { title: axisTitle('percentile') },
          y: { beginAtZero: true, title: axisTitle('latency (ms, median of the runs)') }
        }
      }
    }
  }
}
