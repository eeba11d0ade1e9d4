import { axis, barChart, barSeries, chartFile, zeroAxis } from '../../draw/charts.js'
import { palette } from '../../draw/colours.js'
import { workersLabel, formatBytes, formatCount, formatMs, formatPct, runName, transportTitle, unique } from '../../draw/labels.js'
import { figureColumns } from '../../draw/table.js'
import { cellKey, dimensionValue, ofType } from '../../results/model.js'
import { medianOf } from './costs-section.js'

// The report section comparing workloads (what each event carries: see README, "Workloads"): per
// transport, a table of libraries × workloads (done, unblocked, ns per event, drop rate) and one
// chart of ns per event. Shown only when the results hold more than one workload.

const workloadOf = (r) => dimensionValue(r, 'workload')
const libOf = (r) => runName({ lib: r.lib, variant: r.variant })

export const workloadsSection = {
  name: 'workloads',
  types: ['run'],
  render (dataset, ctx) {
    const runs = ofType(dataset.runs, 'run')
    if (unique(runs.map(workloadOf)).length < 2) return { blocks: [], charts: [] }
    const summary = ofType(dataset.summary, 'run')
    const out = [{ heading: 'Workloads' }, 'What each event carries, per library (see docs/workloads.md): median over the runs that finished. ' +
      '_ns per event_ is unblocked time over the events each worker logged: what one call costs the caller. ' +
      'For _disabled_ nothing may arrive: its drop rate is not a loss ("expects 0"), and a run where anything arrived failed.']
    const charts = []
    for (const transport of unique(runs.map((r) => r.transport))) {
      const ofTransport = summary.filter((s) => s.transport === transport)
      const workloads = unique(runs.filter((r) => r.transport === transport).map(workloadOf))
      const libs = unique(ofTransport.map(libOf))
      const cpusList = unique(ofTransport.map((s) => s.cpus)).sort((a, b) => a - b)
      const sizes = unique(ofTransport.map((s) => s.size))
      const title = `${transportTitle(transport)}: workloads`
      out.push({ heading: title, level: 3 })
      // Allocation and single calls' time only where these results recorded them (docs/costs.md).
      const costed = runs.some((r) => r.transport === transport && r.ok && r.allocBytesPerEvent != null)
      const columns = figureColumns(['Library', 'Workload', ...(cpusList.length > 1 ? ['Workers'] : []), ...(sizes.length > 1 ? ['Size'] : []), 'Done ms', 'Unblocked ms', 'ns per event', 'Drop rate', ...(costed ? ['Bytes per event', 'ns per call p99'] : [])])
      const rows = []
      for (const lib of libs) {
        for (const workload of workloads) {
          for (const s of ofTransport.filter((x) => libOf(x) === lib && workloadOf(x) === workload)) {
            const who = [lib, workload, ...(cpusList.length > 1 ? [String(s.cpus)] : []), ...(sizes.length > 1 ? [`${s.size} B`] : [])]
            if (s.okRuns === 0) {
              const failed = runs.find((r) =>
                r.transport === transport && libOf(r) === lib && workloadOf(r) === workload && !r.ok)
              rows.push([...who, s.status === 'unsupported' ? 'unsupported' : `failed: ${failed?.error ?? s.status}`, '—', '—', '—', ...(costed ? ['—', '—'] : [])])
              continue
            }
            const drop = workload === 'disabled' ? 'expects 0' : (s.dropRate ? formatPct(s.dropRate.mean) : 'unknown')
            rows.push([
              ...who,
              formatMs(s.doneMs?.median),
              formatMs(s.unblockedMs?.median),
              formatMs(s.nsPerEvent?.median),
              drop,
              ...(costed ? cellCosts(runs, s) : [])
            ])
          }
        }
      }
      out.push({ columns, rows })
      const unsupported = ofTransport.filter((s) => s.status === 'unsupported')
      if (unsupported.length) out.push({ text: unique(unsupported.flatMap((s) => s.errors.map((e) => `- ${libOf(s)} ${workloadOf(s)}: ${e}`))).join('\n') })
      const chart = { file: chartFile(transport, 'workloads'), ...nsPerEventChart({ title, workloads, libs, summary: ofTransport, cpus: cpusList[0], size: sizes[0], conditions: ctx.conditions }) }
      charts.push(chart)
      out.push(ctx.image(chart.file, `${title}: ns per event per library and workload`))
    }
    return { blocks: out, charts }
  }
}

// Median bytes per event and p99 of single calls over the cell's runs that recorded them; a dash
// for a cell whose runs did not.
function cellCosts (runs, entry) {
  const key = cellKey(entry)
  const cellRuns = runs.filter((r) => r.ok && cellKey(r) === key)
  const bytes = medianOf(cellRuns, (r) => r.allocBytesPerEvent)
  const p99 = medianOf(cellRuns, (r) => r.callLatencyNs?.p99)
  return [bytes == null ? '—' : formatBytes(bytes), p99 == null ? '—' : formatCount(p99)]
}

// One group of bars per workload, one bar per library: ns per event (the caller's cost of a call).
function nsPerEventChart ({ title, workloads, libs, summary, cpus, size, conditions }) {
  const cellOf = (lib, workload) =>
    summary.find((s) => libOf(s) === lib && workloadOf(s) === workload && s.cpus === cpus && s.size === size)
  const colours = palette(libs)
  const datasets = libs.map((lib) =>
    barSeries(lib, colours.get(lib), workloads.map((workload) => cellOf(lib, workload)?.nsPerEvent?.median ?? null)))
  // A library that cannot run a workload is named under its label: no bar is not a fast bar.
  const unsupported = (workload) => libs.filter((lib) => cellOf(lib, workload)?.status === 'unsupported')
  const labels = workloads.map((workload) => (unsupported(workload).length ? [workload, `${unsupported(workload).join(', ')}:`, 'unsupported'] : workload))
  const notes = [`${workersLabel(cpus)} · median over the runs that finished · lower is better · a missing bar: unsupported (named under the workload) or failed (see the table)`, conditions]
  return barChart({
    width: 1100,
    height: 560,
    title: `${title}: ns per log call, per library`,
    notes,
    labels,
    datasets,
    scales: {
      x: axis('workload', { ticks: { maxRotation: 0, autoSkip: false } }),
      y: zeroAxis('ns per event (unblocked time / events per worker)')
    }
  })
}
