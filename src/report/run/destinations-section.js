import { formatBytes, formatMs, formatPct, formatRatio, runName, transportTitle, unique } from '../../draw/labels.js'
import { escaped, left, right, strong } from '../../draw/table.js'
import { ofType } from '../../results/model.js'
import { DEFAULT_ENDING } from '../../engine/endings.js'
import { COLLECTOR_TRANSPORTS } from '../../engine/transports.js'
import { maxOf, minOf } from '../../stats.js'

// What shipping logs through a collector costs (docs/destinations.md): shown when the results hold
// otlp or forward runs. Per library, every transport it ran on side by side: median done, done as a
// multiple of the same library's file (or console) cell, what was lost (counted at the receiver),
// bytes allocated per event and CPU on threads other than the caller's.

const libOf = (r) => runName({ lib: r.lib, variant: r.variant })
const baseOf = (r) => r.lib

export const destinationsSection = {
  name: 'destinations',
  types: ['run'],
  render (dataset) {
    const runs = ofType(dataset.runs, 'run')
    if (!runs.some((r) => COLLECTOR_TRANSPORTS.includes(r.transport))) return { blocks: [], charts: [] }
    const summary = ofType(dataset.summary, 'run')
    const transports = unique(summary.map((s) => s.transport))
    const order = (s) => transports.indexOf(s.transport)
    const out = [{ heading: 'Destinations' }, 'What shipping logs through a collector costs: every library on every destination it ran on, medians over the runs that finished. ' +
      '_× file_ is its done against its own default cell on a file (the same library without variant); _Lost_ is the mean drop rate counted at the receiver; ' +
      '_CPU other threads_ is CPU time the process spent outside the calling thread (pino\'s transport worker, libuv), from first call to close.']
    const columns = [left('Library'), left('Destination'), ...['Done ms', '× file', 'Unblocked ms', 'Lost', 'Bytes per event', 'CPU other threads ms'].map(right)]
    const rows = []
    const reasons = []
    for (const lib of unique(summary.map(baseOf))) {
      const cells = summary.filter((s) => baseOf(s) === lib)
        .sort((a, b) => order(a) - order(b) || libOf(a).localeCompare(libOf(b)))
      if (!cells.some((s) => COLLECTOR_TRANSPORTS.includes(s.transport))) continue
      const file = summary.find((s) => s.lib === lib && s.transport === 'file' && libOf(s) === lib && s.okRuns > 0)
      for (const s of cells) {
        // A run that did not await close() (--ending) is another row of the same destination: say which.
        const who = [escaped(libOf(s)), `${transportTitle(s.transport)}${s.ending && s.ending !== DEFAULT_ENDING ? `, ending ${s.ending}` : ''}`]
        if (s.okRuns === 0) {
          const failed = runs.find((r) => r.transport === s.transport && libOf(r) === libOf(s) && !r.ok)
          rows.push([...who, s.status === 'unsupported' ? 'unsupported' : 'failed', '—', '—', '—', '—', '—'])
          if (failed) reasons.push(`${libOf(s)} on ${transportTitle(s.transport)}: ${failed.error}`)
          continue
        }
        const done = s.doneMs?.median
        const vsFile = file && done != null ? formatRatio(done / file.doneMs.median) : '—'
        rows.push([...who, formatMs(done), vsFile, formatMs(s.unblockedMs?.median), s.dropRate ? formatPct(s.dropRate.mean) : 'unknown',
          s.allocBytesPerEvent?.median == null ? '—' : formatBytes(s.allocBytesPerEvent.median), formatMs(s.cpuOtherThreadsMs?.median)])
      }
    }
    for (const line of COLLECTOR_TRANSPORTS.map((transport) => collectorSummary(summary, transport)).filter(Boolean)) {
      out.push({ text: line })
    }
    out.push({ columns, rows })
    if (reasons.length) out.push({ text: unique(reasons).map((reason) => `- ${reason}`).join('\n') })
    return { blocks: out, charts: [] }
  }
}

// One line per collector transport, from the cells: who delivered every event (and done against
// its own file cell, as a range), who lost events (the range of drop rates), who failed.
function collectorSummary (summary, transport) {
  const cells = summary.filter((s) => s.transport === transport && s.status !== 'unsupported')
  if (!cells.length) return null
  const finished = cells.filter((s) => s.okRuns > 0 && s.dropRate)
  const whole = finished.filter((s) => s.dropRate.max === 0)
  const lossy = finished.filter((s) => s.dropRate.max > 0)
  const failed = cells.filter((s) => s.okRuns === 0)
  const names = (list) => list.map(libOf).join(', ')
  const range = (values, format) => {
    const known = values.filter((v) => v != null && Number.isFinite(v))
    if (!known.length) return null
    const low = minOf(known)
    const high = maxOf(known)
    return low === high ? format(low) : `${format(low)}–${format(high)}`
  }
  const vsFile = (s) => {
    const file = summary.find((f) => f.lib === s.lib && f.transport === 'file' && libOf(f) === s.lib && f.okRuns > 0)
    return file && s.doneMs?.median != null ? s.doneMs.median / file.doneMs.median : null
  }
  const parts = []
  if (whole.length) {
    const ratio = range(whole.map(vsFile), formatRatio)
    parts.push(`${names(whole)} delivered every event${ratio ? ` (done ${ratio} their file)` : ''}`)
  }
  if (lossy.length) parts.push(`${names(lossy)} lost ${range(lossy.map((s) => s.dropRate.mean), formatPct)} of their events`)
  if (failed.length) parts.push(`${names(failed)} failed (below)`)
  return ['- ', strong(transportTitle(transport)), `: ${parts.join('; ')}.`]
}
