import { maxOf } from '../../stats.js'
import { axis, barChart, barSeries, lineChart, lineSeries, rssOverTime, timeAxis, zeroAxis } from '../../draw/charts.js'
import { libraryColour, palette, translucent } from '../../draw/colours.js'
import { coverageRange, workersLabel, failureReason, transportTitle } from '../../draw/labels.js'

// Chart.js configurations for `run` results: what to draw. Rendering is charts.js's job.

// A group's summary entries of a library's cell (group.cellSummaries, built in run-section.js): the
// first, as a search would find it, or all of the library's.
export const summaryOf = (group, lib, cpus) => group.cellSummaries.get(lib)?.get(cpus)?.[0]
export const librarySummaries = (group, lib) => [...(group.cellSummaries.get(lib)?.values() ?? [])].flat()

// A bar chart draws at most this many libraries, the first in the tables' order, and says so: more
// bars cannot be told apart, and Chart.js lays bars out in time quadratic in the datasets (10,000
// libraries took minutes). Every library stays in the tables.
export const MAX_CHART_LIBRARIES = 60
const capped = (libs) => libs.slice(0, MAX_CHART_LIBRARIES)
const cappedNote = (drawn) => (drawn.length > MAX_CHART_LIBRARIES ? [`the first ${MAX_CHART_LIBRARIES} of ${drawn.length.toLocaleString('en-US')} libraries drawn (every one is in the tables)`] : [])
// A list of names in a chart's note: the first few, then how many more.
const someOf = (names, few = 10) => (names.length > few ? `${names.slice(0, few).join(', ')} and ${(names.length - few).toLocaleString('en-US')} more` : names.join(', '))

// Grouped bars: for each worker count an "unblocked" and a "done" group, one bar per library.
export function benchmarksChart (group, conditions) {
  const labels = group.cpusList.flatMap((cpus) => [['unblocked', workersLabel(cpus)], ['done', workersLabel(cpus)]])
  const drawn = group.libs.filter((lib) => librarySummaries(group, lib).some((s) => s.okRuns > 0))
  const bars = new Set(drawn)
  const missing = group.libs.filter((lib) => !bars.has(lib))
  const figures = (lib, cpus) => {
    const s = summaryOf(group, lib, cpus)
    return [s?.unblockedMs, s?.doneMs]
  }
  const colours = palette(drawn)
  const perBar = (lib, pick) => group.cpusList.flatMap((cpus) => figures(lib, cpus).map(pick))
  const datasets = capped(drawn).map((lib) => barSeries(lib, colours.get(lib), perBar(lib, (d) => d?.median ?? null), {
    borderColor: colours.get(lib),
    errorBars: perBar(lib, (d) => (d?.n > 1 ? [d.ciLow, d.ciHigh] : null))
  }))
  const highest = maxOf(datasets.flatMap((d) => d.errorBars.map((range) => range?.[1] ?? 0)), 0)
  const notes = [[`median of ${group.runsPerCell} run${group.runsPerCell > 1 ? 's' : ''}, whiskers: its interval (${coverageRange(group.summary.map((s) => s.doneMs?.ciCoverage).filter((c) => c != null))} coverage)`, `${group.eventsLabel} events per worker`, 'lower is better'].join(' · '), conditions]
  notes.push(...cappedNote(drawn))
  if (missing.length) notes.push(`no bars at all: ${someOf(missing)} (failed or unsupported, see the tables)`)
  else if (datasets.some((d) => d.data.includes(null))) notes.push('a missing bar: that cell failed (see the tables)')
  return barChart({
    width: 1100,
    height: 560,
    title: `${group.title}: time until unblocked and until done, per library`,
    notes,
    labels,
    datasets,
    scales: { x: axis('measure and worker count', { ticks: { maxRotation: 0 } }), y: zeroAxis('time (ms)', { suggestedMax: highest }) }
  })
}

export function dropRateChart (group, conditions) {
  const drawn = group.libs.filter((lib) => librarySummaries(group, lib).some((s) => s.dropRate != null))
  const shown = new Set(drawn)
  const unknown = group.libs.filter((lib) => !shown.has(lib) && librarySummaries(group, lib).some((s) => s.okRuns > 0))
  const notes = [[`mean of ${group.runsPerCell} run${group.runsPerCell > 1 ? 's' : ''}`, `${group.eventsLabel} events per worker`, 'lower is better'].join(' · '), conditions]
  notes.push(...cappedNote(drawn))
  if (unknown.length) notes.push(`drop rate unknown (nothing to count), so not drawn: ${someOf(unknown)}`)
  const colours = palette(capped(drawn))
  return barChart({
    title: `${group.title}: share of events lost, per library`,
    notes,
    labels: group.cpusList.map((n) => workersLabel(n)),
    datasets: capped(drawn).map((lib) => barSeries(lib, colours.get(lib), group.cpusList.map((cpus) => {
      const rate = summaryOf(group, lib, cpus)?.dropRate?.mean
      return rate == null ? null : rate * 100
    }))),
    scales: { x: axis('worker count'), y: zeroAxis('events lost (% of sent)') }
  })
}

// The run a time-series chart shows: the one with the median done time, or, when every run
// failed, the failed run that lasted longest (how memory grew before an out-of-memory is the story).
export function representativeRun (runs) {
  const ok = runs.filter((r) => r.ok && r.doneMs != null).sort((a, b) => a.doneMs - b.doneMs)
  if (ok.length > 2) return { run: ok[Math.floor((ok.length - 1) / 2)], why: 'the run with the median done time' }
  if (ok.length === 2) return { run: ok[0], why: 'the faster of the two that finished' }
  if (ok.length === 1) return { run: ok[0], why: runs.length > 1 ? 'the only one that finished' : null }
  const failed = runs.filter((r) => r.status === 'failed').sort((a, b) => (b.timeseries?.length ?? 0) - (a.timeseries?.length ?? 0))
  return failed.length ? { run: failed[0], why: failureReason(failed[0]) } : null
}

export function timeseriesChart ({ group, lib, cpus, runs, chosen, conditions }) {
  const { run, why } = chosen
  const colour = libraryColour(lib)
  const series = run.timeseries
  const cpuPoints = series.map((p) => ({ x: p.tMs / 1000, y: p.cpuPct }))
  const cpuTop = maxOf(series.map((p) => p.cpuPct).filter(Number.isFinite), 100) * 1.05
  // The markers' and the RSS line's legend boxes keep Chart.js's faint grey fill (no backgroundColor),
  // only the CPU's is filled with its colour, as its area is.
  const marker = (label, ms, dash, markerColour) =>
    lineSeries(`${label} (${ms >= 10 ? Math.round(ms).toLocaleString('en-US') : ms.toFixed(1)} ms)`, markerColour,
      [{ x: ms / 1000, y: 0 }, { x: ms / 1000, y: cpuTop }], { yAxisID: 'cpu', backgroundColor: undefined, borderDash: dash, borderWidth: 1.5 })
  const pointRadius = series.length > 40 ? 0 : 2
  const datasets = [
    lineSeries('CPU %', colour, cpuPoints, { yAxisID: 'cpu', backgroundColor: translucent(colour, 0.15), fill: true, pointRadius }),
    lineSeries('RSS (MiB)', colour, rssOverTime(run), { yAxisID: 'rss', backgroundColor: undefined, borderDash: [7, 4], pointRadius })
  ]
  // Markers in grey, dotted and dash-dotted, so that no library colour or RSS dash is mistaken for them.
  if (run.unblockedMs != null) datasets.push(marker('unblocked', run.unblockedMs, [2, 3], '#808080'))
  if (run.doneMs != null) datasets.push(marker('done', run.doneMs, [10, 3, 2, 3], '#808080'))
  const which = `run ${run.run} of ${runs.length}${why ? ` (${why})` : ''}`
  return lineChart({
    height: 500,
    title: `${lib} ${run.libVersion ?? ''}, ${transportTitle(group.transport)}, ${workersLabel(cpus)}: CPU and memory over time`.replace(/ {2}/g, ' '),
    notes: [`${which} · ${group.eventsLabel} events per worker · all workers together, sampled every 100 ms`, conditions],
    datasets,
    scales: {
      x: timeAxis(),
      cpu: zeroAxis('CPU (% of one core, all workers)', { type: 'linear', position: 'left', suggestedMax: cpuTop }),
      rss: zeroAxis('RSS (MiB, all workers)', { type: 'linear', position: 'right', grid: { drawOnChartArea: false } })
    }
  })
}
