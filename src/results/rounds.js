import { clean, compareRuns } from '../stats.js'
import { designedOptions, designsOf } from './sequential.js'

// Rounds: under --order interleaved, run r of every cell of a comparison group ran in round r, one
// cell after the other (src/runner/orchestrator.js), so the runs of one round share the machine's
// drift of that minute. A comparison of two cells of one group pairs their runs round by round
// (compareRuns' `pairs`); runs of two documents, or of one run in blocked order, are not rounds.

// Which round a run ran in, given the documents its runs came from ({ env } for one document as
// written, or a dataset of several files with `envs`): a key equal for the runs of one round of one
// document, or null where the document did not run in rounds (--order blocked, or written before the
// order was recorded). Runs read from files carry their `file` (src/results/read.js).
// Its `designOf` (designsOf in sequential.js) gives the --runs auto design a run's group ran under.
export function roundsOf (source) {
  const envs = source?.envs ?? [{ file: null, env: source?.env }]
  const interleaved = new Set(envs.filter((e) => e.env?.order?.mode === 'interleaved').map((e) => e.file ?? null))
  const roundOf = (run) => (interleaved.has(run.file ?? null) ? `${run.file ?? ''}#${run.run}` : null)
  roundOf.designOf = designsOf(source)
  return roundOf
}

// compareRuns (the one comparison, src/stats.js) of two cells' finished runs, read by `value`: paired
// on the rounds where both finished when both ran in rounds (roundOf, above), unpaired otherwise.
// Two cells of a group that ran under --runs auto are judged as its design says (at the α of a look,
// `alpha` split across its looks, and paired: designedOptions); their rows then carry that α and
// the looks.
export function compareCellRuns (baselineRuns, runs, value, { roundOf = null, alpha, ...options } = {}) {
  const measured = measuredPairs(baselineRuns, runs, value, roundOf)
  const design = sharedDesign(roundOf, baselineRuns, runs)
  if (!design) return compareRuns(measured.baseline, measured.values, { ...options, alpha, pairs: measured.pairs })
  const designed = designedOptions(design, alpha)
  return {
    ...compareRuns(measured.baseline, measured.values, { ...options, ...designed, pairs: measured.pairs }),
    alpha: designed.alpha,
    looks: design.looks
  }
}

// The design both cells ran under, or null (two documents, fixed runs, or two designs).
function sharedDesign (roundOf, baselineRuns, runs) {
  const designOf = roundOf?.designOf
  if (!designOf || !baselineRuns.length || !runs.length) return null
  const design = designOf(baselineRuns[0])
  return design && designOf(runs[0]) === design ? design : null
}

// The figures of two cells' finished runs as compareRuns takes them: each side's values, and the
// pairs of the rounds where both finished (null where either cell did not run in rounds). A round in
// which either side failed drops out of the pairs.
function measuredPairs (baselineRuns, runs, value, roundOf = null) {
  const figures = (list) => list.filter((r) => r.ok)
    .map((r) => ({ round: roundOf?.(r) ?? null, value: value(r) }))
    .filter((f) => clean([f.value]).length === 1)
  const base = figures(baselineRuns)
  const cell = figures(runs)
  const values = (list) => list.map((f) => f.value)
  const inRounds = (all) => all.length > 0 && all.every((r) => roundOf?.(r) != null)
  if (!inRounds(baselineRuns) || !inRounds(runs)) return { baseline: values(base), values: values(cell), pairs: null }
  const byRound = new Map(base.map((f) => [f.round, f.value]))
  const pairs = cell.filter((f) => byRound.has(f.round)).map((f) => [byRound.get(f.round), f.value])
  return { baseline: values(base), values: values(cell), pairs }
}
