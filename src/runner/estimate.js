import { PLAN_RATES, PLAN_RATES_SOURCES } from './plan-rates.js'
import { minOf } from '../stats.js'

// How long a plan takes, before it starts and while it runs. The rule, per run: SETUP_MS of
// set-up (forking the workers, building the loggers, the receiving end; the committed pages' runs
// start 0.3 to 0.8 s after the previous run's done at 1 worker), then the longer of
// - a paced run's events ÷ rate (each event is logged when it is due), and
// - the tight loop's events × workers ÷ the library's events per second on that transport at one
//   worker, from the committed pages (PLAN_RATES, scripts/plan-rates.js), SIMULATOR_SLOWDOWN times
//   that when instructions are counted;
// an http run lasts its warm-up and duration (twice the duration counted) and HTTP_SETUP_MS.
// While the plan runs, each cell's measured runs replace the rule for its remaining runs, and a
// cell not yet measured takes the rule times what the rule missed by on the measured cells of its
// kind (same run type, transport, rate, workers and events: the other libraries of its comparison
// group), never a plan-wide average: two fast runs at 10,000/s say nothing of runs at 1,000/s.

export const SETUP_MS = 1000
export const HTTP_SETUP_MS = 5000
// Valgrind's simulator runs a worker 20 to 50 times slow (src/run/counted.js): the long end.
export const SIMULATOR_SLOWDOWN = 50
// A library and transport missing from the pages: the slowest figure of the table (errs long).
const UNKNOWN_RATE = minOf(Object.values(PLAN_RATES).flatMap((byTransport) => Object.values(byTransport)))
// A plan estimated past this says so before its first run.
export const PLAN_NOTE_MS = 3 * 60_000

// The events per second of one worker's tight loop: the library's own figure on the transport; noop
// (the harness's floor) as raw; else the transport's slowest library; else the slowest figure known.
export function tightLoopRate (lib, transport) {
  const named = PLAN_RATES[lib === 'noop' ? 'raw' : lib]?.[transport]
  if (named) return named
  const onTransport = Object.entries(PLAN_RATES).filter(([name]) => name !== 'raw').map(([, rates]) => rates[transport]).filter(Boolean)
  return onTransport.length ? minOf(onTransport) : UNKNOWN_RATE
}

// The rule's time for one run of a cell with these settings, in ms.
export function runEstimateMs (settings) {
  if (settings.type === 'http') {
    const counted = settings.measure === 'instructions' ? 2 : 1
    return ((settings.warmupSeconds ?? 0) + counted * (settings.durationSeconds ?? 0)) * 1000 + HTTP_SETUP_MS
  }
  const workers = settings.cpus ?? 1
  const slowdown = settings.measure === 'instructions' ? SIMULATOR_SLOWDOWN : 1
  const tightMs = (settings.events * workers / tightLoopRate(settings.lib, settings.transport)) * 1000 * slowdown
  const pacedMs = settings.rate ? (settings.events / settings.rate) * 1000 : 0
  return SETUP_MS + Math.max(tightMs, pacedMs)
}

// The rule in words, for the line before a long plan.
export const RULE_WORDS = `a paced run lasts --events ÷ --rate, a tight loop --events × workers at each library's events per second in ${PLAN_RATES_SOURCES.join(' and ')}, plus ${SETUP_MS / 1000} s of set-up a run`

const KIND = ['type', 'transport', 'rate', 'cpus', 'events', 'measure', 'warmupSeconds', 'durationSeconds']
const kindOf = (settings) => JSON.stringify(KIND.map((name) => settings[name] ?? null))

// The clock of a plan: runs is the list of runs still to do ({ cell }, in order), each cell
// { key, settings }. started(cell) when a run starts, finished(cell, ms) with its wall time, dropped(cell, n)
// for runs that will not run (skipped after a time limit, or enough rounds). leftMs(now) is the time
// left for the plan: the remaining runs' estimates less what the current run has already taken.
export function createPlanClock (runs, { now = () => Date.now() } = {}) {
  const cells = new Map()
  for (const { cell } of runs) {
    if (!cells.has(cell.key)) {
      cells.set(cell.key, { ruleMs: runEstimateMs(cell.settings), kind: kindOf(cell.settings), left: 0, measured: [] })
    }
    cells.get(cell.key).left++
  }
  let current = null
  // Measured ÷ rule of the measured runs of a kind.
  const missBy = (kind) => {
    const ratios = [...cells.values()].filter((c) => c.kind === kind)
      .flatMap((c) => c.measured.map((ms) => ms / c.ruleMs))
    return ratios.length ? median(ratios) : 1
  }
  const perRunMs = (entry) => (entry.measured.length ? mean(entry.measured) : entry.ruleMs * missBy(entry.kind))
  return {
    // --runs auto: a group stops once decided, so the plan's runs are the most it can take.
    atMost: runs.some(({ cell }) => cell.rounds),
    totalMs: () => [...cells.values()].reduce((sum, entry) => sum + entry.left * perRunMs(entry), 0),
    runs: () => [...cells.values()].reduce((sum, entry) => sum + entry.left, 0),
    started (cell) {
      current = { key: cell.key, since: now() }
    },
    finished (cell, ms) {
      const entry = cells.get(cell.key)
      if (!entry) return
      entry.left = Math.max(0, entry.left - 1)
      entry.measured.push(ms)
      if (current?.key === cell.key) current = null
    },
    dropped (cell, count) {
      const entry = cells.get(cell.key)
      if (entry) entry.left = Math.max(0, entry.left - count)
    },
    leftMs (at = now()) {
      let left = 0
      for (const [key, entry] of cells) {
        const each = perRunMs(entry)
        // The current run counts what it has still to take, at least nothing.
        left += key === current?.key
          ? Math.max(0, each - (at - current.since)) + (entry.left - 1) * each
          : entry.left * each
      }
      return left
    }
  }
}

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length

function median (values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
