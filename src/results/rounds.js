import { clean, compareRuns } from '../stats.js'
import { designedOptions, designsOf } from './sequential.js'

// Rounds: under --order interleaved, run r of every cell of a comparison group ran in round r, one
// cell after the other (src/runner/orchestrator.js), so the runs of one round share the machine's
// drift of that minute. A comparison of two cells of one group pairs their runs round by round
// (compareRuns' `pairs`); runs of two documents, of two shards of a merged one, or of one run in
// blocked order, are not rounds.

// Which round a run ran in, given the documents its runs came from ({ env } for one document as
// written, or a dataset of several files with `envs`): a key equal for the runs of one round of one
// document, or null where the document did not run in rounds (--order blocked, or written before the
// order was recorded, or a document whose runs contradict its order: `roundsProblem`, read.js). Runs
// read from files carry their `file` and the number they were recorded with (src/results/read.js).
// Its `designOf` (designsOf in sequential.js) gives the --runs auto design a run's group ran under.
export function roundsOf (source) {
  const envs = source?.envs ?? [{ file: null, env: source?.env }]
  const interleaved = new Set(envs.filter((e) => e.env?.order?.mode === 'interleaved' && !e.roundsProblem).map((e) => e.file ?? null))
  // A merged file's shards ran their rounds apart (one after another, or on two machines): run r of
  // shard 1 and run r of shard 2 are not one round, so the shard is part of the key.
  const roundOf = (run) => (interleaved.has(run.file ?? null) ? `${run.file ?? ''}#${run.shard ?? ''}#${run.run}` : null)
  roundOf.designOf = designsOf(source)
  return roundOf
}

// compareRuns (the one comparison, src/stats.js) of two cells' finished runs, read by `value`: paired
// on the rounds where both finished when both ran in rounds (roundOf, above), unpaired otherwise.
// Two cells of a group that ran under --runs auto are judged as its design says (at the α of a look,
// `alpha` split across its looks, and paired: designedOptions); their rows then carry that α and
// the looks.
export function compareCellRuns (baselineRuns, runs, value, { roundOf = null, alpha, ...options } = {}) {
  const measured = alternatedPairs(baselineRuns, runs, value, roundOf) ??
    measuredPairs(baselineRuns, runs, value, roundOf)
  const design = sharedDesign(roundOf, baselineRuns, runs)
  // Runs of http --alternate say so (`alternated`): their pairs are the runs' own, or ratios to them.
  const alternated = measured.alternated ? { alternated: true } : {}
  if (!design) {
    const compared = compareRuns(measured.baseline, measured.values, { ...options, alpha, pairs: measured.pairs })
    return { ...compared, ...alternated }
  }
  const designed = designedOptions(design, alpha)
  return {
    ...compareRuns(measured.baseline, measured.values, { ...options, ...designed, pairs: measured.pairs }),
    alpha: designed.alpha,
    looks: design.looks,
    ...alternated
  }
}

// The design both cells ran under, or null (two documents, fixed runs, or two designs).
function sharedDesign (roundOf, baselineRuns, runs) {
  const designOf = roundOf?.designOf
  if (!designOf || !baselineRuns.length || !runs.length) return null
  const design = designOf(baselineRuns[0])
  return design && designOf(runs[0]) === design ? design : null
}

// Runs of `http --alternate` (every finished run of both cells has its `baseline`: the app without
// logging, served in the same run in the slices between the library's) are compared within the run,
// where a change of the machine's speed falls on both servers alike:
// - a library against none: each of its runs is a pair, [its baseline's figure, its own];
// - two libraries: each one's figure as a multiple of its own run's baseline, paired by round.
// null where the runs did not alternate (measuredPairs then pairs them by round, or not at all).
function alternatedPairs (baselineRuns, runs, value, roundOf) {
  const finished = (list) => list.filter((r) => r.ok)
  const all = [...finished(baselineRuns), ...finished(runs)]
  if (!all.length || !all.every((r) => r.baseline != null && typeof r.baseline === 'object')) return null
  const isNone = (list) => finished(list).length > 0 && finished(list).every((r) => r.lib === r.baseline.lib)
  const within = (list, libFirst) => {
    const pairs = finished(list).map((r) => [value(r.baseline), value(r)]).filter((p) => clean(p).length === 2)
    const [base, cell] = [pairs.map((p) => p[0]), pairs.map((p) => p[1])]
    return libFirst
      ? { baseline: cell, values: base, pairs: pairs.map(([b, v]) => [v, b]), alternated: true }
      : { baseline: base, values: cell, pairs, alternated: true }
  }
  if (isNone(baselineRuns) && !isNone(runs)) return within(runs, false)
  if (isNone(runs) && !isNone(baselineRuns)) return within(baselineRuns, true)
  const relative = (r) => value(r) / value(r.baseline)
  return { ...measuredPairs(baselineRuns, runs, relative, roundOf), alternated: true }
}

// The figures of two cells' finished runs as compareRuns takes them: each side's values, and the
// pairs of the rounds where both finished (null where either cell did not run in rounds, or the two
// cells' runs come from more than one document: a cell pooled from several files). A round in which
// either side failed, or has no record, drops out of the pairs.
function measuredPairs (baselineRuns, runs, value, roundOf = null) {
  const figures = (list) => list.filter((r) => r.ok)
    .map((r) => ({ round: roundOf?.(r) ?? null, value: value(r) }))
    .filter((f) => clean([f.value]).length === 1)
  const base = figures(baselineRuns)
  const cell = figures(runs)
  const values = (list) => list.map((f) => f.value)
  const inRounds = (all) => all.length > 0 && all.every((r) => roundOf?.(r) != null)
  const oneDocument = new Set([...baselineRuns, ...runs].map((r) => r.file ?? null)).size === 1
  if (!oneDocument || !inRounds(baselineRuns) || !inRounds(runs)) {
    return { baseline: values(base), values: values(cell), pairs: null }
  }
  const byRound = new Map(base.map((f) => [f.round, f.value]))
  const pairs = cell.filter((f) => byRound.has(f.round)).map((f) => [byRound.get(f.round), f.value])
  // Two cells that shared no round (each in its own shard of a merged file) are compared unpaired.
  if (base.length && cell.length && !pairs.length) return { baseline: values(base), values: values(cell), pairs: null }
  return { baseline: values(base), values: values(cell), pairs }
}
