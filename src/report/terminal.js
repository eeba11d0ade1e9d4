import { fmt, formatTable } from './table.js'
import { runName } from './labels.js'

const cpuLabel = (n) => `${n} CPU${n > 1 ? 's' : ''}`

// The seed's layout: per transport, a table per library with Test 1..N and an Average row, unblocked
// and done (and drop rate where the receiver counts) per worker count; then a summary per transport.
export function renderTerminal (doc) {
  const runs = doc.runs.filter((r) => (r.type ?? 'run') === 'run')
  const out = []
  for (const transport of unique(runs.map((r) => r.transport))) {
    out.push(`\n${transport} (${runs.find((r) => r.transport === transport).events.toLocaleString('en-US')} events per worker; times in ms)`)
    const ofTransport = runs.filter((r) => r.transport === transport)
    for (const size of unique(ofTransport.map((r) => r.size))) {
      const ofSize = ofTransport.filter((r) => r.size === size)
      for (const name of unique(ofSize.map(runName))) {
        out.push(`\n${name}${size !== 13 ? ` (${size}-byte payload)` : ''}`)
        out.push(libTable(ofSize.filter((r) => runName(r) === name), doc.summary.filter((s) => runName(s) === name && s.transport === transport && s.size === size)))
      }
      out.push(`\n${transport} summary (mean done ms; × raw; drop rate)`)
      out.push(summaryTable(doc.summary.filter((s) => s.transport === transport && s.size === size)))
    }
  }
  return out.join('\n') + '\n'
}

function libTable (runs, summary) {
  const cpusList = unique(runs.map((r) => r.cpus))
  const counted = runs.some((r) => r.dropRate != null)
  const header = ['']
  for (const cpus of cpusList) header.push(`${cpuLabel(cpus)} unblocked`, `${cpuLabel(cpus)} done`, ...(counted ? [`${cpuLabel(cpus)} drop`] : []))
  const maxRun = Math.max(...runs.map((r) => r.run))
  const rows = []
  for (let run = 1; run <= maxRun; run++) {
    const row = [`Test ${run}`]
    for (const cpus of cpusList) {
      const r = runs.find((x) => x.cpus === cpus && x.run === run)
      if (!r) row.push('', '', ...(counted ? [''] : []))
      else if (!r.ok) row.push(r.status, shortError(r.error), ...(counted ? [''] : []))
      else row.push(fmt.ms(r.unblockedMs), fmt.ms(r.doneMs), ...(counted ? [fmt.pct(r.dropRate)] : []))
    }
    rows.push(row)
  }
  const avg = ['**Average**']
  for (const cpus of cpusList) {
    const s = summary.find((x) => x.cpus === cpus)
    avg.push(fmt.ms(s?.unblockedMs?.mean), fmt.ms(s?.doneMs?.mean), ...(counted ? [fmt.pct(s?.dropRate?.mean)] : []))
  }
  rows.push(avg)
  return formatTable(header, rows)
}

function summaryTable (summary) {
  const cpusList = unique(summary.map((s) => s.cpus))
  const header = ['', ...cpusList.map(cpuLabel)]
  const rows = unique(summary.map(runName)).map((name) => [name, ...cpusList.map((cpus) => {
    const s = summary.find((x) => runName(x) === name && x.cpus === cpus)
    if (!s) return ''
    if (!s.doneMs) return s.errors.length ? `${s.status}: ${shortError(s.errors[0])}` : s.status
    const parts = [fmt.ms(s.doneMs.mean)]
    if (s.doneVsRaw != null && s.lib !== 'raw') parts.push(fmt.ratio(s.doneVsRaw))
    if (s.dropRate) parts.push(`drop ${fmt.pct(s.dropRate.mean)}`)
    if (s.workload !== 'string' && s.nsPerEvent) parts.push(`${fmt.ms(s.nsPerEvent.mean)} ns/event`)
    const skipped = s.skippedRuns ?? 0
    if (s.okRuns + skipped < s.runs) parts.push(`${s.runs - s.okRuns - skipped}/${s.runs} failed`)
    if (skipped) parts.push(`${skipped}/${s.runs} skipped`)
    return parts.join('; ')
  })])
  return formatTable(header, rows)
}

function shortError (error) {
  return (error ?? '').length > 40 ? error.slice(0, 39) + '…' : error ?? ''
}

function unique (values) {
  return [...new Set(values)]
}
