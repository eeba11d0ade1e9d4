import { differenceText, FILES_METHOD, MEASURES, methodNote, pairingText, unpairedNote, worstFirst } from './compare.js'
import { codeSpan, escapeCell } from '../draw/table.js'
import { coverageRange, coverageTitle, formatCountedDifference, formatNoiseBand, verdictWord } from '../draw/labels.js'

// compare --markdown: the comparison as a pull-request comment, short enough to read in one screen:
// a line of counts, then one table of every verdict, worst first (slower before not decided before
// faster before same, the largest change first within each), cut at MAX_ROWS rows. Names from the
// results files (cells, file names) go in code spans, so no mark or @mention in them takes effect.
export const MAX_ROWS = 40

const name = (text) => escapeCell(codeSpan(String(text)))

export function comparisonMarkdown (result, { baseLabel = null, newLabel = null, environmentNote = null } = {}) {
  const rows = worstFirst(result.comparisons)
  const counts = new Map()
  for (const r of rows) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1)
  const tally = [...counts].map(([verdict, n]) => (verdict === 'slower' ? `**${n} ${verdict}**` : `${n} ${verdictWord(verdict)}`)).join(', ')
  const against = result.mode === 'files' ? `${name(baseLabel ?? result.baseline)} → ${name(newLabel ?? 'new')}` : `each cell against ${name(result.baseline)}`
  const out = [
    '### log-bench comparison',
    '',
    `${against}: ${tally || 'nothing compared'} (${rows.length} comparison${rows.length === 1 ? '' : 's'}; p < ${result.alpha}, noise ${thresholds(result)})`
  ]
  const notes = [environmentNote, result.settingsNote, ...(result.unpairedDocuments ?? []).map(unpairedNote), result.ignoreVersion ? 'cells paired across library versions: two sessions, not interleaved' : null].filter(Boolean)
  for (const note of notes) out.push('', `> ${escapeCell(note)}`)
  if (rows.length) {
    // Titled by the coverage the intervals reach (one formatter: coverageTitle); a row whose coverage
    // differs from the others says its own.
    const shown = rows.slice(0, MAX_ROWS)
    const inRounds = rows.some((r) => r.pairs != null)
    const coverages = [...new Set(shown.map((r) => coverageTitle(r.coverage)))]
    out.push('', `| cell | measure | ${result.mode === 'files' ? 'base' : 'baseline'} | ${result.mode === 'files' ? 'new' : 'cell'} | ratio [${coverageRange(shown.map((r) => r.coverage))} interval] | p |${inRounds ? ' pairs |' : ''} verdict |`, `|---|---|---:|---:|---:|---:|${inRounds ? '---|' : ''}---|`)
    for (const r of shown) {
      const measure = MEASURES[r.type].find((m) => m.measure === r.measure)
      out.push(`| ${name(r.cell)} | ${escapeCell(measure.title)} | ${measure.format(r.baselineMedian)} | ${measure.format(r.median)} | ${interval(r, measure, coverages.length > 1)}${counted(r)} | ${r.p == null ? 'n/a' : r.p < 0.001 ? '<0.001' : r.p.toFixed(3)} |${inRounds ? ` ${pairingText(r)} |` : ''} ${r.verdict === 'slower' ? '**slower**' : verdictWord(r.verdict)} |`)
    }
    if (rows.length > MAX_ROWS) {
      const left = rows.slice(MAX_ROWS)
      out.push('', `… and ${left.length} more (${[...new Set(left.map((r) => verdictWord(r.verdict)))].join(', ')}): \`log-bench compare\` without --markdown prints them all.`)
    }
  }
  if (result.notCompared.length) out.push('', `Not compared: ${result.notCompared.length} cell${result.notCompared.length === 1 ? '' : 's'} (${name(result.notCompared[0])}${result.notCompared.length > 1 ? ', …' : ''}).`)
  out.push('', `<sub>Medians of the finished runs; ratio = new / base (cell / baseline) with its distribution-free interval. ${result.mode === 'files' ? FILES_METHOD : methodNote(result.alpha)}</sub>`)
  return out.join('\n') + '\n'
}

// The thresholds the verdicts applied: --noise, and a measure's own where it has one (counted
// instructions: ±1% per event, ±3% per request).
function thresholds (result) {
  const applied = [...new Set(result.comparisons.length
    ? result.comparisons.map((r) => r.noise ?? result.noise)
    : [result.noise])].sort((a, b) => a - b)
  return applied.map(formatNoiseBand).join(' or ')
}

// A counted row's difference of medians in instructions per log call (and per request).
function counted (r) {
  if (!['instructionsPerEvent', 'instructionsPerRequest'].includes(r.measure) || r.difference == null) return ''
  return `<br>${formatCountedDifference(r.difference, { type: r.type, logsPerRequest: r.mode === 'middleware' ? null : r.logsPerRequest })}`
}

function interval (r, measure, ownCoverage) {
  const short = ownCoverage ? ` (${coverageTitle(r.coverage)})` : ''
  if (r.ratio != null) return `${r.ratio.toFixed(3)} [${r.ciLow.toFixed(3)}, ${r.ciHigh.toFixed(3)}]${short}`
  return `${differenceText(r, measure)}${short}`
}
