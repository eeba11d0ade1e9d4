import { renderSection, shownSections } from './markdown.js'
import { terminalBlocks, terminalWidth } from '../draw/table.js'
import { inPlanOrder, workersLabel } from '../results/model.js'
import { closingAnswer, renderAnswer } from './answer.js'
import { findAnomalies } from '../results/judge/anomalies.js'
import { pageLimits } from './limits.js'
import { conditionsText } from './conditions.js'

// The `terminal` export: the results page's sections drawn for a terminal (what `run` and `http`
// print when they finish, and `report --format terminal`). The same blocks as the page (see
// table.js), without its charts and the prose written for the page alone; then every failed run
// with its whole reason, which the tables shorten. No line wider than `width` (terminalWidth).
// file: the results file a document came from (run and http name theirs), for the lines that name it.
export function renderTerminal (dataset, { color = false, width, file = 'the results file' } = {}) {
  const data = { ...dataset, runs: inPlanOrder(dataset.runs) }
  const ctx = { image: () => '', conditions: '', reference: null }
  // What limits what the results can say (a busy machine, an unfinished file, a receiver that dropped
  // the plainest sender's events) first, as on the page; a document as `run` wrote it is one file.
  const envs = dataset.envs ??
    [{ file, env: dataset.env ?? {}, complete: dataset.complete !== false, interrupted: dataset.interrupted === true }]
  const limits = pageLimits({ ...data, envs })
  const blocks = limits.length
    ? [{ text: `Read this first. What limits what these results can say:\n${limits.map((l) => `- ${l.label}: ${plainMarkdown(l.text)}`).join('\n')}` }]
    : []
  blocks.push(...shownSections(data).flatMap((section) => renderSection(section, data, ctx).blocks))
  // The conditions the figures were measured in, as the page gives them beside its headline.
  blocks.push({ text: plainMarkdown(conditionsText({ ...data, envs })) })
  const failed = data.runs.filter((r) => r.status === 'failed')
  if (failed.length) {
    blocks.push({ heading: 'Failed runs', level: 3 }, { text: failed.map((r) => `- ${r.lib} ${r.transport} ${workersLabel(r.cpus)} run ${r.run} failed: ${r.error}`).join('\n') })
    // A failure whose cause is known (an anomaly rule of the pages, src/results/judge/anomalies.js) says it
    // here, beside the failure, rather than only on the page `report` writes.
    const causes = findAnomalies(data).filter((a) => a.pattern === 'failed' && a.explanation)
    // The causes are written for the page (code in backticks): a terminal shows them without the marks.
    if (causes.length) blocks.push({ text: causes.map((a) => `Known cause, ${a.where}: ${plainMarkdown(a.explanation.text)}.`).join('\n\n') })
  }
  return `\n${terminalBlocks(blocks, { color, width })}\n`
}

export const terminalExport = {
  name: 'terminal',
  targets: () => [],
  files: () => [],
  print (dataset, { stream = process.stdout } = {}) {
    const width = terminalWidth(stream)
    stream.write(renderTerminal(dataset, { color: Boolean(stream.isTTY), width }))
    stream.write(`\n${renderAnswer(closingAnswer(dataset), { width })}`)
  }
}

// The page's markdown words for a terminal: code spans (any fence, codeSpan in table.js) without
// their marks and their text as it is, escapes (escapeMarkdown) outside them undone.
function plainMarkdown (text) {
  return String(text).replace(/(`+)([\s\S]*?)\1|\\([\\`*_[\]|#])|&lt;|&gt;/g, (match, fence, code, escaped) =>
    fence ? code.replace(/^ ([\s\S]*) $/, '$1') : escaped ?? (match === '&lt;' ? '<' : '>'))
}
