import { randomInt } from 'node:crypto'
import { maxOf, seededRandom } from '../stats.js'
import { cellKey, comparisonGroupKey, failureOf, recordedSettings, runTypeOf } from '../results/model.js'
import { Interrupted } from '../errors.js'
import { DEFAULT_ORDER } from './orders.js'
import { roundsJudge } from './enough-rounds.js'
import { createPlanClock } from './estimate.js'

// The cell loop that `run` and `http` share: the order of the runs, resume, time-limit skips and
// interrupts. A cell (planned by src/run/plan.js or src/http/matrix.js) is plain data:
// { key, label, settings, runs, unsupported, runDirBase }. Its run type, looked up by the settings'
// type in the runTypes given (src/api/run-types.js), executes one of its runs
// (execute(settings, { signal, onLive })) and describes a finished one (describe(record)); its
// records carry the settings' record fields (recordedSettings) and, before anything is measured,
// the type's empty measures.

export { DEFAULT_ORDER }

// A new seed for the order of an invocation; recorded in the results (env.order) and given back
// with --seed to repeat the order.
export function newSeed () {
  return randomInt(2 ** 31)
}

// The order of the runs: a list of { cell, run }.
// - interleaved (default): rounds, run r of every cell in round r, so that a slow minute of a shared
//   machine falls on every library alike. Inside a round the comparison groups (cells that differ
//   only by library: see comparisonGroupKey) come in shuffled order, each group's cells together in
//   shuffled order, from the seed, so the same seed gives the same order.
// - blocked: every run of a cell back to back, cells in plan order.
export function scheduleRuns (cells, { mode = DEFAULT_ORDER, seed = 0 } = {}) {
  if (mode === 'blocked') return cells.flatMap((cell) => Array.from({ length: cell.runs }, (_, i) => ({ cell, run: i + 1 })))
  const groups = new Map()
  for (const cell of cells) {
    const key = comparisonGroupKey(cell.settings)
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key).push(cell)
  }
  const next = seededRandom(seed)
  const rounds = maxOf(cells.map((c) => c.runs), 0)
  const order = []
  for (let run = 1; run <= rounds; run++) {
    for (const group of shuffle([...groups.values()], next)) {
      for (const cell of shuffle(group, next)) if (run <= cell.runs) order.push({ cell, run })
    }
  }
  return order
}

function shuffle (items, next) {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

// Runs every cell `runs` times in the given order (skipping runs the store already holds, for
// --resume). Each finished run is saved, with the time it started (startedAt, epoch ms), before the
// next starts, so the results list the runs in the order they ran; an interrupt is recorded and
// rethrown. A run that hit the time limit would most likely hit it again: the cell's remaining runs
// are recorded as skipped, with the reason, when its next turn comes, unless retryTimeouts. A cell
// planned with --runs auto (cell.rounds) stops, with the rest of its group, once a look finds the
// group's comparisons decided (roundsJudge): its remaining runs are not run, and not recorded.
export async function runCells ({
  cells,
  runTypes,
  store,
  signal,
  progress,
  retryTimeouts = false,
  order = { mode: DEFAULT_ORDER, seed: 0 }
}) {
  const typeOf = (cell) => runTypes[cell.settings.type] ?? failNoType(cell)
  // Every record of a cell starts with its settings' record fields; one that measured nothing then
  // has the type's empty measures.
  const unmeasured = (cell) => ({ ...recordedSettings(cell.settings), planIndex: planIndex(cell) })
  const empty = (cell) => runTypeOf(cell.settings).empty()
  const planIndex = (cell) => cell.planIndex ?? cells.indexOf(cell)
  const done = new Map(cells.map((cell) => [cell, store.finishedRuns(cell.key, cellKey)]))
  // The runs to do: an unsupported cell's are recorded, never run, and progress numbers the others.
  const schedule = scheduleRuns(cells, order)
  const clock = createPlanClock(schedule.filter(({ cell, run }) => !cell.unsupported && !done.get(cell).has(run)))
  progress.begin(clock.runs(), { clock })
  const ended = new Set()
  const enough = roundsJudge(cells, store)
  try {
    const unsupported = cells.filter((cell) => cell.unsupported)
    for (const cell of unsupported) ended.add(cell)
    const recorded = unsupported.filter((cell) => !done.get(cell).size)
    store.addAll(recorded.map((cell) => ({ ...unmeasured(cell), run: 1, ...empty(cell), ok: false, status: 'unsupported', error: cell.unsupported })))
    for (const cell of recorded) progress.skip(cell.label, cell.runs, `unsupported: ${cell.unsupported}`, { planned: false })
    for (const { cell, run } of schedule) {
      if (ended.has(cell) || done.get(cell).has(run)) continue
      const stopped = enough(cell, run)
      if (stopped) {
        const rest = Array.from({ length: cell.runs - run + 1 }, (_, i) => run + i)
          .filter((n) => !done.get(cell).has(n)).length
        clock.dropped(cell, rest)
        progress.skip(cell.label, rest, stopped)
        ended.add(cell)
        continue
      }
      const timedOut = retryTimeouts ? null : store.doc.runs.find((r) => cellKey(r) === cell.key && isTimeout(r))
      if (timedOut) {
        const rest = Array.from({ length: cell.runs - run + 1 }, (_, i) => run + i)
          .filter((n) => !done.get(cell).has(n))
        const reason = skipReason(timedOut)
        store.addAll(rest.map((n) => ({ ...unmeasured(cell), run: n, ...empty(cell), ok: false, status: 'skipped', error: reason, failure: skipFailure(timedOut) })))
        clock.dropped(cell, rest.length)
        progress.skip(cell.label, rest.length, `${rest.length === 1 ? 'run' : 'runs'} ${rest.join(', ')} skipped: ${reason}`)
        ended.add(cell)
        continue
      }
      clock.started(cell)
      progress.runStart({ label: cell.label, run, runs: cell.runs, timeoutMs: cell.settings.timeoutMs ?? null })
      const startedAt = Date.now()
      try {
        const result = await typeOf(cell).execute(
          cell.settings,
          { signal, onLive: (figures) => progress.live(figures) }
        )
        if (signal?.aborted) throw new Interrupted(signal.reason)
        const record = { ...unmeasured(cell), run, startedAt, ...result }
        store.add(record)
        clock.finished(cell, Date.now() - startedAt)
        progress.runEnd(cell.label, run, record.ok ? typeOf(cell).describe(record) : `FAILED: ${record.error}${record.countedAfterFailure && record.received != null ? ` (${record.received} of ${record.sent} events had arrived)` : ''}`, { record })
      } catch (err) {
        if (!(err instanceof Interrupted)) throw err
        store.interrupted({ ...unmeasured(cell), run, startedAt, ...empty(cell), ok: false, status: 'interrupted', error: err.message })
        throw err
      }
    }
    store.complete()
  } finally {
    progress.end()
  }
}

function failNoType (cell) {
  throw new Error(`no run type "${cell.settings.type}" to execute ${cell.label}`)
}

// A run past its time limit (the watcher's failure, in run and http alike).
export function isTimeout (record) {
  return record.status === 'failed' && failureOf(record)?.kind === 'timeout'
}

export const RETRY_TIMEOUTS_OPTION = '--retry-timeouts'

// A cell's remaining runs after one timed out: the reason in words, and as data.
export function skipReason (timedOut) {
  const { limitS } = failureOf(timedOut)
  return `run ${timedOut.run} timed out after ${limitS == null ? 'its time limit' : `${limitS} s`}; ${RETRY_TIMEOUTS_OPTION} runs them anyway`
}

export function skipFailure (timedOut) {
  return { kind: 'timeout', limitS: failureOf(timedOut).limitS, afterRun: timedOut.run }
}
