import { comparisonGroupKey, runTypeOf } from './model.js'
import { describeRecord } from './run-types/checks.js'

// Whether a document that says its runs ran in rounds (env.order.mode `interleaved`) holds runs that
// did: rounds.js pairs two cells' runs by their recorded numbers, which is right only when run r of
// every cell of a comparison group ran in round r, after every run of round r − 1. When the runs
// started (startedAt, recorded since runs were interleaved) tell: within each comparison group (a
// merged file's shards ran their groups side by side), no run may start after a run of a later
// round. Runs recorded without startedAt cannot be checked and are taken as the document says.
// Returns why the rounds cannot be read (its comparisons are then unpaired), or null.
export function roundsProblem (doc) {
  if (doc.env?.order?.mode !== 'interleaved') return null
  const groups = new Map()
  for (const run of doc.runs) {
    if (!runTypeOf(run) || run.status === 'interrupted' || !Number.isFinite(run.startedAt)) continue
    const key = comparisonGroupKey(run)
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key).push(run)
  }
  for (const runs of groups.values()) {
    const started = [...runs].sort((a, b) => a.startedAt - b.startedAt)
    // The run of the highest round among those that started before the ones at hand (runs that
    // started in the same millisecond are not ordered).
    let highest = null
    for (let i = 0; i < started.length;) {
      const at = started[i].startedAt
      const together = []
      while (i < started.length && started[i].startedAt === at) together.push(started[i++])
      const early = highest && together.find((run) => run.run < highest.run)
      if (early) return `${describeRecord(early)} started after ${describeRecord(highest)}: its runs did not run in rounds, though the document says they were interleaved`
      for (const run of together) if (!highest || run.run > highest.run) highest = run
    }
  }
  return null
}
