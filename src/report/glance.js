import { formatTable } from './table.js'
import { cellKey } from '../results/model.js'
import { cpuLabel, formatMs, formatPct, runName, transportTitle, unique } from './labels.js'

// "At a glance", at the top of a page with run results: per transport and worker count the
// fastest library to unblock and to done (baselines aside), every cell that lost events and where,
// and every cell that failed, was unsupported or was skipped, with the reason. All from the data.

const BASELINES = new Set(['noop', 'raw'])
const count = (n) => n.toLocaleString('en-US')
const workloadOf = (r) => r.workload ?? 'string'
// A table cell holds several entries; a reason may hold a "|".
const cell = (entries) => (entries.length ? entries.join('<br>') : '—').replace(/\|/g, '\\|')

export const glanceSection = {
  name: 'glance',
  types: ['run'],
  placement: 'top',
  render (dataset) {
    const runs = dataset.runs.filter((r) => (r.type ?? 'run') === 'run')
    const summary = dataset.summary.filter((s) => (s.type ?? 'run') === 'run')
    const workloads = unique(runs.map(workloadOf))
    const byWorkload = workloads.length > 1
    const rows = []
    for (const transport of unique(runs.map((r) => r.transport))) {
      for (const cpus of unique(runs.filter((r) => r.transport === transport).map((r) => r.cpus)).sort((a, b) => a - b)) {
        for (const workload of workloads) {
          const cells = summary.filter((s) => s.transport === transport && s.cpus === cpus && workloadOf(s) === workload)
          if (!cells.length) continue
          const cellRuns = (s) => runs.filter((r) => cellKey(r) === cellKey(s))
          const sized = unique(cells.map((s) => s.size)).length > 1
          const name = (s) => `${runName({ lib: s.lib, variant: s.variant })}${sized ? ` (${s.size} B)` : ''}`
          rows.push([
            transportTitle(transport),
            cpuLabel(cpus),
            ...(byWorkload ? [workload] : []),
            cell(fastest(cells, 'unblockedMs', name)),
            cell(fastest(cells, 'doneMs', name)),
            cell(cells.map((s) => losses(name(s), cellRuns(s))).filter(Boolean)),
            cell(cells.map((s) => troubles(name(s), cellRuns(s))).filter(Boolean))
          ])
        }
      }
    }
    const markdown = [
      '## At a glance',
      'Means over the runs that finished, baselines (`noop`, `raw`) aside for "fastest". _Lost_ counts events that never arrived intact, over all finished runs of the cell; "at the receiver\'s socket" is what the kernel dropped at the receiving UDP socket (`receiverSocketDrops`), "before it" the rest (in the library, or a send that failed).' +
        (workloads.includes('disabled') ? ' For the _disabled_ workload nothing may arrive, so nothing is lost there.' : ''),
      formatTable(['Transport', 'Workers', ...(byWorkload ? ['Workload'] : []), 'Fastest to unblock', 'Fastest to done', 'Lost events', 'Failed, unsupported or skipped'], rows, { text: true })
    ]
    return { markdown: markdown.join('\n\n'), charts: [] }
  }
}

function fastest (cells, measure, name) {
  const ranked = cells.filter((s) => !BASELINES.has(s.lib) && s[measure]?.mean != null).sort((a, b) => a[measure].mean - b[measure].mean)
  if (!ranked.length) return []
  const best = ranked[0][measure].mean
  return ranked.filter((s) => s[measure].mean === best).map((s) => `${name(s)} ${formatMs(best)} ms`)
}

function losses (name, runs) {
  // expected: what should arrive (the events sent; 0 for a disabled level), absent in older results.
  const expected = (r) => r.expected ?? r.sent
  const counted = runs.filter((r) => r.ok && r.received != null && expected(r) != null)
  const lost = counted.reduce((total, r) => total + Math.max(0, expected(r) - r.received), 0)
  if (lost === 0) return null
  const sent = counted.reduce((total, r) => total + expected(r), 0)
  const located = counted.filter((r) => r.receiverSocketDrops != null)
  let where = 'where: not known'
  if (located.length === counted.length) {
    const atSocket = Math.min(lost, located.reduce((total, r) => total + r.receiverSocketDrops, 0))
    where = `${count(atSocket)} at the receiver's socket, ${count(lost - atSocket)} before it`
  }
  return `${name}: ${count(lost)} of ${count(sent)} (${formatPct(lost / sent)}; ${where})`
}

function troubles (name, runs) {
  const bad = runs.filter((r) => !r.ok)
  if (!bad.length) return null
  const reasons = unique(bad.map((r) => r.error ?? r.status))
  const which = (reason) => {
    const numbers = bad.filter((r) => (r.error ?? r.status) === reason).map((r) => r.run)
    const status = bad.find((r) => (r.error ?? r.status) === reason).status
    return status === 'unsupported' ? `unsupported: ${reason}` : `${status} (run ${numbers.join(', ')}): ${reason}`
  }
  return `${name}: ${reasons.map(which).join('; ')}`
}
