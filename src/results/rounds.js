import { clean, compareRuns } from '../stats.js'

// Rounds: under --order interleaved, run r of every cell of a comparison group ran in round r, one
// cell after the other (src/runner/orchestrator.js), so the runs of one round share the machine's
// drift of that minute. A comparison of two cells of one group pairs their runs round by round
// (compareRuns' `pairs`); runs of two documents, or of one run in blocked order, are not rounds.

// Which round a run ran in, given the documents its runs came from ({ env } for one document as
// written, or a dataset of several files with `envs`): a key equal for the runs of one round of one
// document, or null where the document did not run in rounds (--order blocked, or written before the
// order was recorded). Runs read from files carry their `file` (src/results/read.js).
export function roundsOf (source) {
  const envs = source?.envs ?? [{ file: null, env: source?.env }]
  const interleaved = new Set(envs.filter((e) => e.env?.order?.mode === 'interleaved').map((e) => e.file ?? null))
  return (run) => (interleaved.has(run.file ?? null) ? `${run.file ?? ''}#${run.run}` : null)
}

// compareRuns (the one comparison, src/stats.js) of two cells' finished runs, read by `value`: paired
// on the rounds where both finished when both ran in rounds (roundOf, above), unpaired otherwise.
export function compareCellRuns (baselineRuns, runs, value, { roundOf = null, ...options } = {}) {
  const measured = measuredPairs(baselineRuns, runs, value, roundOf)
  return compareRuns(measured.baseline, measured.values, { ...options, pairs: measured.pairs })
}

// The figures of two cells' finished runs as compareRuns takes them: each side's values, and the
// pairs of the rounds where both finished (null where either cell did not run in rounds). A round in
// which either side failed drops out of the pairs.
function measuredPairs (baselineRuns, runs, value, roundOf = null) {
  const figures = (list) => list.filter((r) => r.ok).map((r) => ({ round: roundOf?.(r) ?? null, value: value(r) })).filter((f) => clean([f.value]).length === 1)
  const base = figures(baselineRuns)
  const cell = figures(runs)
  const values = (list) => list.map((f) => f.value)
  const inRounds = (all) => all.length > 0 && all.every((r) => roundOf?.(r) != null)
  if (!inRounds(baselineRuns) || !inRounds(runs)) return { baseline: values(base), values: values(cell), pairs: null }
  const byRound = new Map(base.map((f) => [f.round, f.value]))
  const pairs = cell.filter((f) => byRound.has(f.round)).map((f) => [byRound.get(f.round), f.value])
  return { baseline: values(base), values: values(cell), pairs }
}
