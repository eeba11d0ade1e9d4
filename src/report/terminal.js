import { DETAILS_LEGEND, detailsTable, groupsOf, libTable, summaryTable } from './run-section.js'
import { runName, unique } from './labels.js'
import { costsTable, recorded } from './costs-section.js'
import { inPlanOrder, ofType } from '../results/model.js'

// The terminal's exporter of `run` results: the same groups and tables as the markdown report
// (src/report/run-section.js), without its charts and prose, and the failed runs with their reasons.
export function renderTerminal (doc) {
  const runs = ofType(inPlanOrder(doc.runs), 'run')
  const summary = ofType(doc.summary, 'run')
  const out = []
  for (const group of groupsOf(runs, summary)) {
    out.push(`\n## ${group.title}\n\n${group.eventsLabel} events per worker; times in milliseconds`)
    for (const lib of group.libs) {
      const libRuns = group.runs.filter((r) => runName(r) === lib)
      const version = libRuns.find((r) => r.libVersion && r.libRange == null)?.libVersion
      out.push(`\n### ${lib}${version ? ` ${version}` : ''}\n`)
      out.push(libRuns.every((r) => r.status === 'unsupported') ? `unsupported: ${libRuns[0].error}` : libTable(group, libRuns).text)
    }
    out.push(`\n### ${group.title} summary (mean)\n`, summaryTable(group))
    const details = detailsTable(group)
    out.push(`\n### ${group.title} details\n`, `${DETAILS_LEGEND}.\n`, details.text, ...details.notes.map((note) => `\n${note.replace(/\\\*/g, '*')}`))
    const measured = group.runs.filter(recorded)
    if (measured.length) {
      out.push(`\n### ${group.title}: what each call costs (median; see docs/costs.md)\n`,
        costsTable(group, measured, { paced: measured.some((r) => r.eventLoopDelayNs != null), showWorkers: unique(measured.map((r) => r.cpus)).length > 1 }))
    }
  }
  const failed = runs.filter((r) => r.status === 'failed')
  if (failed.length) out.push('\nFailed runs:', ...failed.map((r) => `- ${r.lib} ${r.transport} ${r.cpus} cpu run ${r.run} failed: ${r.error}`))
  return out.join('\n') + '\n'
}
