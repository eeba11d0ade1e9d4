import { dimensionValue } from '../model.js'
import { endingTitle } from '../../engine/endings.js'
import { bimodal } from './anomalies.js'
import { formatRatio } from '../../format.js'
import { basisOf } from '../http-summary.js'

// The one rule every page follows before it ranks libraries on a figure: the verdicts themselves
// come from compare (src/results/rounds.js); this says where no verdict may be given at all.
// - a run ended by a signal (SIGTERM, SIGKILL) or by log-bench's kill timer (a process that never
//   ended by itself under `return`): its time is when the kill landed, not the library's speed;
// - a cell whose runs fall in two groups (anomalies.js's bimodal): its median describes neither;
// - a failed control (http.js): the page's words, from http-glance.js's controlOf.

const KILLED = new Set(['sigterm', 'sigkill'])

const names = (cells) => cells.map((c) => c.name).join(', ').replace(/, ([^,]+)$/, ' and $1')

// Why the times of these cells ({ name, runs }) may not rank them, or null.
export function notRanked (cells) {
  const ending = dimensionValue(cells[0]?.runs?.[0] ?? {}, 'ending')
  if (KILLED.has(ending)) return `not ranked: ${endingTitle(ending)} ends the process, so a time there is when the signal landed, not the library's speed`
  const timed = cells.filter((c) => c.runs.some((r) => r.keptAlive))
  if (timed.length) return `not ranked: log-bench's 5 s kill timer ended ${names(timed)}'s runs (the process never ended by itself), so their times are the timer's`
  return null
}

// Why no fastest may be named among these cells: one of them has runs in two groups.
export function notDecidedBimodal (cells, value) {
  const split = cells.filter((c) => bimodal(c.runs.filter((r) => r.ok).map(value)))
  return split.length ? `not decided: ${names(split)}'s runs fall in two groups (see Anomalies), so no median describes ${split.length > 1 ? 'them' : 'it'}` : null
}

// A failed control (http-glance.js's controlOf): every cell's verdict in words.
export function notDecidedControl (control) {
  if (control.passed) return null
  if (!control.measured) return 'not decided: no control (0 logs per request) was measured with this table'
  // Per verdict, the libraries that read it (a control of several sizes names each library once).
  const byVerdict = new Map()
  for (const cell of control.cells) {
    const comparison = basisOf(cell).comparison
    const verdict = control.tooFewRuns.includes(cell) ? 'too few runs to tell' : comparison?.verdict ?? 'no verdict'
    if (verdict === 'same') continue
    if (!byVerdict.has(verdict)) byVerdict.set(verdict, new Set())
    byVerdict.get(verdict).add(cell.lib)
  }
  const read = [...byVerdict].map(([verdict, libs]) => `${verdict} for ${[...libs].join(', ').replace(/, ([^,]+)$/, ' and $1')}`)
  return `not decided: the control (0 logs per request, where every library must read same) reads ${read.join('; ')}`
}

// The words of a withheld verdict short enough for a table cell: no parenthesis, no "so …".
export function shortReason (reason) {
  return reason.replace(/ \([^()]*\)/g, '').split(/, so /)[0]
}

// A ratio of times (other / base) in words that cannot be misread: "20× faster", "1.12× slower".
export function timeRatioWords (ratio) {
  if (ratio == null || !(ratio > 0)) return ''
  return ratio < 1 ? `${formatRatio(1 / ratio)} faster` : `${formatRatio(ratio)} slower`
}
