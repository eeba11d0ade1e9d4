import { CONFIDENCE } from '../stats.js'
import { differenceText, MEASURES, worstFirst } from './compare.js'
import { codeSpan, escapeCell } from './table.js'

// compare --markdown: the comparison as a pull-request comment, short enough to read in one screen:
// a line of counts, then one table of every verdict, worst first (slower before unclear before
// faster before same, the largest change first within each), cut at MAX_ROWS rows. Names from the
// results files (cells, file names) go in code spans, so no mark or @mention in them takes effect.
export const MAX_ROWS = 40

const name = (text) => escapeCell(codeSpan(String(text)))

export function comparisonMarkdown (result, { baseLabel = null, newLabel = null, environmentNote = null } = {}) {
  const rows = worstFirst(result.comparisons)
  const counts = new Map()
  for (const r of rows) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1)
  const tally = [...counts].map(([verdict, n]) => (verdict === 'slower' ? `**${n} ${verdict}**` : `${n} ${verdict}`)).join(', ')
  const against = result.mode === 'files' ? `${name(baseLabel ?? result.baseline)} → ${name(newLabel ?? 'new')}` : `each cell against ${name(result.baseline)}`
  const out = [
    '### log-bench comparison',
    '',
    `${against}: ${tally || 'nothing compared'} (${rows.length} comparison${rows.length === 1 ? '' : 's'}; p < ${result.alpha}, noise ±${+(result.noise * 100).toFixed(2)}%)`
  ]
  const notes = [environmentNote, result.ignoreVersion ? 'cells paired across library versions: two sessions, not interleaved' : null].filter(Boolean)
  for (const note of notes) out.push('', `> ${escapeCell(note)}`)
  if (rows.length) {
    out.push('', `| cell | measure | ${result.mode === 'files' ? 'base' : 'baseline'} | ${result.mode === 'files' ? 'new' : 'cell'} | ratio [${CONFIDENCE * 100}% CI] | p | verdict |`, '|---|---|---:|---:|---:|---:|---|')
    for (const r of rows.slice(0, MAX_ROWS)) {
      const measure = MEASURES[r.type].find((m) => m.measure === r.measure)
      out.push(`| ${name(r.cell)} | ${escapeCell(measure.title)} | ${measure.format(r.baselineMedian)} | ${measure.format(r.median)} | ${interval(r, measure)} | ${r.p == null ? 'n/a' : r.p < 0.001 ? '<0.001' : r.p.toFixed(3)} | ${r.verdict === 'slower' ? '**slower**' : r.verdict} |`)
    }
    if (rows.length > MAX_ROWS) {
      const left = rows.slice(MAX_ROWS)
      out.push('', `… and ${left.length} more (${[...new Set(left.map((r) => r.verdict))].join(', ')}): \`log-bench compare\` without --markdown prints them all.`)
    }
  }
  if (result.notCompared.length) out.push('', `Not compared: ${result.notCompared.length} cell${result.notCompared.length === 1 ? '' : 's'} (${name(result.notCompared[0])}${result.notCompared.length > 1 ? ', …' : ''}).`)
  out.push('', '<sub>Medians of the finished runs; ratio = new / base (cell / baseline) with its distribution-free interval, p from the two-sided Mann–Whitney U test.</sub>')
  return out.join('\n') + '\n'
}

function interval (r, measure) {
  const short = r.coverage != null && r.coverage < CONFIDENCE - 1e-9 ? ` (${(r.coverage * 100).toFixed(0)}%)` : ''
  if (r.ratio != null) return `${r.ratio.toFixed(3)} [${r.ciLow.toFixed(3)}, ${r.ciHigh.toFixed(3)}]${short}`
  return `${differenceText(r, measure)}${short}`
}
