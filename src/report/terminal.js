import { renderSection, shownSections } from './markdown.js'
import { terminalBlocks } from './table.js'
import { inPlanOrder } from '../results/model.js'

// The `terminal` export: the results page's sections drawn for a terminal (what `run` and `http`
// print when they finish, and `report --format terminal`). The same blocks as the page (see
// table.js), without its charts and the prose written for the page alone; then every failed run
// with its whole reason, which the tables shorten.
export function renderTerminal (dataset, { color = false } = {}) {
  const data = { ...dataset, runs: inPlanOrder(dataset.runs) }
  const ctx = { image: () => '', conditions: '', reference: null }
  const blocks = shownSections(data).flatMap((section) => renderSection(section, data, ctx).blocks)
  const failed = data.runs.filter((r) => r.status === 'failed')
  if (failed.length) {
    blocks.push({ heading: 'Failed runs', level: 3 }, { text: failed.map((r) => `- ${r.lib} ${r.transport} ${r.cpus} cpu run ${r.run} failed: ${r.error}`).join('\n') })
  }
  return `\n${terminalBlocks(blocks, { color })}\n`
}

export const terminalExport = {
  name: 'terminal',
  describe: 'the tables on stdout, without charts (writes no file)',
  targets: () => [],
  files: () => [],
  print (dataset, { stream = process.stdout } = {}) {
    stream.write(renderTerminal(dataset, { color: Boolean(stream.isTTY) }))
  }
}
