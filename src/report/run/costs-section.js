import { chartFile, lineChart, lineSeries, logAxis, logTicks } from '../../draw/charts.js'
import { palette } from '../../draw/colours.js'
import { detailSlug, groupsOf } from './section.js'
import { median, minOf, maxOf } from '../../stats.js'
import { figureColumns } from '../../draw/table.js'
import { workersLabel, formatBytes, formatCount, formatMs, formatNumber, runName, unique } from '../../draw/labels.js'
import { ofType } from '../../results/model.js'

// "What each call costs": per group of `run` cells (a transport, and whatever else sets cells apart),
// one row per library and worker count with single calls' time, bytes and collections per event and
// CPU on the calling thread and on others, then a percentile chart of call time per worker count.
// Only runs that recorded these figures count (see docs/costs.md): results made before them show
// nothing here, never zeros. On a page with detail pages, each group's table and charts go on that
// group's detail page (the run section's, the same slug), and the page itself says where.

export const recorded = (r) => r.ok && r.callLatencyNs != null && r.allocBytesPerEvent != null

export const costsSection = {
  name: 'costs',
  types: ['run'],
  render (dataset, ctx) {
    const runs = ofType(dataset.runs, 'run')
    if (!runs.some(recorded)) return { blocks: [], charts: [] }
    const summary = ofType(dataset.summary, 'run')
    const method = 'Median over the runs that recorded it, from the first call until the logger\'s close(). ' +
      '_ns per call_: the time single `log()` calls took (a random sample of the calls, the clock\'s own floor taken off; _max_ is the slowest call sampled). ' +
      '_Bytes per event_: V8 heap allocated per event; _GCs_ and _GC pause_: collections and their total pause per 10,000 events; ' +
      '_CPU per event_: on the thread that calls `log()` and on the process\'s other threads (a transport\'s worker thread, libuv\'s pool, V8\'s helpers). ' +
      'Methods: docs/costs.md in the log-bench repository.'
    const onDetails = Boolean(ctx.details)
    const image = onDetails ? ctx.details.ctx.image : ctx.image
    const inline = []
    const charts = []
    const details = []
    for (const group of groupsOf(runs, summary)) {
      const measured = group.runs.filter(recorded)
      if (measured.length === 0) continue
      const paced = measured.some((r) => r.eventLoopDelayNs != null)
      const cpusList = unique(measured.map((r) => r.cpus)).sort((a, b) => a - b)
      const blocks = onDetails
        ? [{ heading: 'What each call costs', level: 3 }, method]
        : [{ heading: `${group.title}: what each call costs`, level: 3 }]
      blocks.push(costsTable(group, measured, { paced, showWorkers: cpusList.length > 1 }))
      for (const cpus of cpusList) {
        const chart = { file: chartFile(group.transport, `${cpus}cpu`, `call-latency${group.fileTag}`), ...latencyChart(group, measured.filter((r) => r.cpus === cpus), cpus, ctx.conditions) }
        charts.push(chart)
        blocks.push(image(chart.file, `${group.title}, ${workersLabel(cpus)}: time of single log() calls by percentile, per library`))
      }
      // The run section's detail page of this group has the same slug: the page assembler joins them.
      if (onDetails) details.push({ slug: detailSlug(group), title: group.title, blocks })
      else inline.push(...blocks)
    }
    if (!onDetails) return { blocks: [{ heading: 'What each call costs' }, method, ...inline], charts }
    const where = `What each call costs (single calls' time, bytes and collections per event, CPU per event, and a chart of call time by percentile) is on each comparison's detail page, under Details below: ${details.length} ${details.length === 1 ? 'comparison' : 'comparisons'} recorded it.`
    return { blocks: [{ heading: 'What each call costs' }, where], charts, details }
  }
}

const per10k = (count, sent) => (count == null || !sent ? null : (count / sent) * 10_000)
// The median of a figure over the runs that recorded it; null when none did.
export const medianOf = (runs, pick) => {
  const values = runs.map(pick).filter((v) => v != null)
  return values.length ? median(values) : null
}

export function costsTable (group, measured, { paced, showWorkers }) {
  const columns = figureColumns(['Library', ...(showWorkers ? ['Workers'] : []), 'Runs', 'ns per call p50', 'p99', 'p99.9', 'max', 'Bytes per event', 'GCs per 10k events', 'GC pause ms per 10k', 'CPU ns/event calling thread', 'CPU ns/event other threads', ...(paced ? ['Event-loop delay p99 ms', 'max ms'] : [])])
  const rows = []
  // The runs by cell once: a search per library would be quadratic in the libraries.
  const byCell = new Map()
  for (const r of measured) {
    const key = `${runName(r)}\n${r.cpus}`
    if (!byCell.has(key)) byCell.set(key, [])
    byCell.get(key).push(r)
  }
  for (const lib of group.libs) {
    for (const cpus of group.cpusList) {
      const cellRuns = byCell.get(`${lib}\n${cpus}`) ?? []
      if (cellRuns.length === 0) continue
      const ns = (key) => formatCount(medianOf(cellRuns, (r) => r.callLatencyNs[key]))
      // p99.9 only from runs that timed enough calls to resolve it (10,000; see supportedPercentile).
      const timed = minOf(cellRuns.map((r) => r.callLatencyNs.timed ?? 0))
      const fine = (key, p) => (supportedPercentile(p, timed) ? ns(key) : `— (${formatCount(timed)} timed)`)
      rows.push([
        lib,
        ...(showWorkers ? [String(cpus)] : []),
        String(cellRuns.length),
        ns('p50'), fine('p99', 99), fine('p999', 99.9), ns('max'),
        formatBytes(medianOf(cellRuns, (r) => r.allocBytesPerEvent)),
        formatNumber(medianOf(cellRuns, (r) => per10k(r.gcCount, r.sent)), 1),
        formatMs(medianOf(cellRuns, (r) => per10k(r.gcPauseMs, r.sent))),
        formatCount(medianOf(cellRuns, (r) => r.nsCpuPerEvent?.mainThread)),
        formatCount(medianOf(cellRuns, (r) => r.nsCpuPerEvent?.otherThreads)),
        ...(paced
          ? [
              formatMs(medianOf(cellRuns, (r) => r.eventLoopDelayNs?.p99 / 1e6)),
              formatMs(medianOf(cellRuns, (r) => r.eventLoopDelayNs?.max / 1e6))
            ]
          : [])
      ])
    }
  }
  return { columns, rows }
}

// Whether n samples resolve the p-th percentile: at least 10 samples beyond it, n ≥ 10 / (1 − p).
export function supportedPercentile (p, n) {
  return p >= 100 || n >= 10 / (1 - p / 100) - 1e-9
}

// HdrHistogram's percentile plot: the percentile on a log axis of 1 / (1 − p), so that 90%, 99%,
// 99.9% … are evenly spaced; the slowest call sampled sits a decade past the last percentile shown,
// where the axis ends: no stretch of percentiles the runs could not resolve.
const position = (p, maxAt) => (p >= 100 ? maxAt : 1 / (1 - p / 100))
const TICKS = new Map([[1, '0%'], [2, '50%'], [10, '90%'], [100, '99%'], [1e3, '99.9%'], [1e4, '99.99%'], [1e5, '99.999%'], [1e6, '99.9999%']])

export function latencyChart (group, runs, cpus, conditions) {
  // The runs by library once: a search per library would be quadratic in the libraries.
  const byLib = new Map()
  for (const r of runs) {
    if (!byLib.has(runName(r))) byLib.set(runName(r), [])
    byLib.get(runName(r)).push(r)
  }
  const libs = group.libs.filter((lib) => byLib.has(lib))
  // No percentile finer than the calls timed allow: p only where a run timed at least 10 / (1 − p)
  // calls (10 beyond it), so 1,560 timed calls show up to p99 and no p99.99; the slowest call (max)
  // is always one that happened.
  const fewest = minOf(runs.map((r) => r.callLatencyNs.timed ?? 0))
  const percentiles = unique(runs.flatMap((r) =>
    r.callLatencyNs.histogram.map(([p]) => p))).filter((p) => supportedPercentile(p, fewest)).sort((a, b) => a - b)
  const colours = palette(libs)
  const lastAt = position(percentiles.filter((p) => p < 100).at(-1) ?? 50)
  const maxAt = Math.round(lastAt) * 10
  const at = (p) => position(p, maxAt)
  const datasets = libs.map((lib) => {
    const libRuns = byLib.get(lib)
    // A percentile a library's runs did not give is a gap, not a line across it; the slowest call
    // stands apart from the percentiles (what lies between was not resolved).
    const data = percentiles.flatMap((p) => {
      const y = Math.max(1, medianOf(libRuns, (r) => r.callLatencyNs.histogram.find(([q]) => q === p)?.[1]))
      const point = { x: at(p), y: Number.isFinite(y) ? y : null }
      return p >= 100 ? [{ x: Math.sqrt(at(p) * lastAt), y: null }, point] : [point]
    })
    // Chart.js's own widths (a series' borderWidth is its points' too: 3 px lines, 1 px point rims).
    return lineSeries(lib, colours.get(lib), data, { spanGaps: false, borderWidth: undefined, pointRadius: 2 })
  })
  const ys = datasets.flatMap((d) => d.data.map((point) => point.y)).filter((y) => y > 0)
  const timed = unique(runs.map((r) => r.callLatencyNs.sampleEvery)).map((n) => (n === 1 ? 'every call timed' : `1 call in ${n} timed`)).join(', ')
  return lineChart({
    height: 560,
    title: `${group.title}, ${workersLabel(cpus)}: time of single log() calls by percentile`,
    notes: [['median of the runs per point', timed, `${group.eventsLabel} events per worker`, 'lower is better'].join(' · '), conditions],
    datasets,
    scales: {
      x: logAxis('percentile of calls', { min: 1, max: maxAt, ticks: { callback: (value) => (value === maxAt ? 'max' : TICKS.get(value) ?? null), autoSkip: false } }),
      y: logAxis('time of one call (ns, log scale)', { ticks: { callback: logTicks(minOf(ys), maxOf(ys)) } })
    }
  })
}
