import { randomInt } from 'node:crypto'
import { seededRandom } from '../stats.js'
import { cellKey, comparisonGroupKey, defaultSink, failureOf } from '../results/model.js'
import { Interrupted } from '../errors.js'
import { runOnce } from './run-once.js'
import { runCounted } from './counted.js'
import { countingUnsupported } from '../engine/instructions.js'
import { adapterWorkloads, DEFAULT_WORKLOAD, unsupportedWorkloadReason, workloadTransportUnsupported } from '../engine/workloads.js'
import { DEFAULT_VARIANT, libLabel } from '../loggers/index.js'
import { currentRuntime } from '../versions/runtimes.js'

// Expands checked `run` options into cells in the order they run: transport, library (and
// variant), runtime, workload, worker count, size. A cell knows how to execute one of its runs and
// what an empty record looks like.
export function planRunCells ({ libs, transports, workloads = [DEFAULT_WORKLOAD], runtimes = [currentRuntime()], cpus, sizes, events, rate = null, counter = null, runs, timeoutMs, maxOldSpaceSize, receiverOptions = {}, dir }) {
  const cells = []
  for (const transport of transports) {
    for (const lib of libs) {
      const variant = lib.variant ?? DEFAULT_VARIANT
      for (const runtime of runtimes) {
        for (const workload of workloads) {
          for (const workers of cpus) {
            for (const { payload } of sizes) {
              const common = {
                type: 'run',
                lib: lib.name,
                variant,
                workload,
                libVersion: lib.adapter.baseline ? baselineVersion(lib, runtime) : lib.version,
                ...(lib.range != null ? { libRange: lib.range } : {}),
                runtime: runtime.label,
                transport,
                sink: receiverOptions.sinkName?.(transport) ?? defaultSink(transport),
                cpus: workers,
                events,
                size: Buffer.byteLength(payload),
                // Paced logging is another measurement; a tight-loop record has no rate.
                ...(rate ? { rate } : {}),
                // Counted instructions are another measurement (nothing in them is a time), and so
                // is each counter; a timed record has neither.
                ...(counter ? { measure: 'instructions', instructionsMethod: counter.method } : {})
              }
              const execute = counter ? runCounted : runOnce
              cells.push({
                key: cellKey(common),
                label: `${libLabel(lib.name, variant, lib.range != null ? lib.version : null)} ${transport} ${workers} cpu${workers > 1 ? 's' : ''}${common.size !== 13 ? ` ${common.size} B` : ''}${workload !== DEFAULT_WORKLOAD ? ` ${workload}` : ''}${rate ? ` at ${rate}/s` : ''}${counter ? ' (instructions)' : ''}${runtimes.length > 1 || runtime.spec !== 'node' ? ` (${runtime.label})` : ''}`,
                describe: counter ? describeCounted : describeRun,
                common,
                runs,
                unsupported: runtimeUnsupported(runtime, maxOldSpaceSize) ?? (counter ? countingUnsupported(runtime) : null) ?? cellUnsupported(lib, variant, transport, workload),
                empty: emptyRunMeasures,
                execute: (signal, onLive) => execute({ adapterFile: lib.file, libDir: lib.libDir ?? null, libVersion: lib.version, runtime, transport, cpus: workers, events, payload, workload, variant, rate, counter, timeoutMs, maxOldSpaceSize, signal, verify: lib.adapter.verifies !== false, receiverOptions, baseDir: dir ?? undefined, onLive: counter ? null : onLive })
              })
            }
          }
        }
      }
    }
  }
  return cells
}

// A baseline's "version" is that of the runtime its plain code runs on (process.version).
function baselineVersion (lib, runtime) {
  if (runtime.spec === 'node') return lib.version
  return runtime.name === 'node' ? `v${runtime.version}` : runtime.version
}

// Why no worker can run under this runtime (its probe failed), or a Node-only setting it cannot take.
export function runtimeUnsupported (runtime, maxOldSpaceSize = null) {
  if (runtime.unsupported) return `${runtime.label} cannot run a log-bench worker: ${runtime.unsupported}`
  if (maxOldSpaceSize && runtime.name !== 'node') return `--max-old-space-size is a Node (V8) flag; ${runtime.label} does not take it`
  return null
}

// Why a cell cannot run (recorded as unsupported, never run as something else), or null.
export function cellUnsupported (lib, variant, transport, workload) {
  if (!lib.adapter.transports.includes(transport)) return unsupportedReason(lib, transport)
  if (lib.range != null && (transport === 'udp' || transport === 'tcp')) return `${lib.name}@${lib.version} (installed by version) logs to console and file only: the syslog packages beside it (${lib.name}'s syslog transport) are the project's, written for its ${lib.name}`
  const versionReason = lib.version && lib.adapter.unsupportedFor?.({ version: lib.version, transport, workload, variant })
  if (versionReason) return versionReason
  const variantTransports = lib.adapter.variants?.[variant]?.transports
  if (variantTransports && !variantTransports.includes(transport)) return `${libLabel(lib.name, variant)} writes to ${variantTransports.join(', ')} only`
  if (!adapterWorkloads(lib.adapter).includes(workload)) return unsupportedWorkloadReason(lib, workload)
  return workloadTransportUnsupported(lib, workload, transport)
}

export const ORDERS = ['interleaved', 'blocked']
export const DEFAULT_ORDER = 'interleaved'

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
    const key = comparisonGroupKey(cell.common)
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key).push(cell)
  }
  const next = seededRandom(seed)
  const rounds = Math.max(0, ...cells.map((c) => c.runs))
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
// are recorded as skipped, with the reason, when its next turn comes, unless retryTimeouts.
export async function runCells ({ cells, store, signal, progress, retryTimeouts = false, order = { mode: DEFAULT_ORDER, seed: 0 } }) {
  const done = new Map(cells.map((cell) => [cell, store.finishedRuns(cell.key, cellKey)]))
  progress.begin(cells.reduce((n, cell) => n + (cell.unsupported ? (done.get(cell).size ? 0 : cell.runs) : cell.runs - done.get(cell).size), 0))
  const ended = new Set()
  try {
    const planIndex = (cell) => cell.planIndex ?? cells.indexOf(cell)
    for (const cell of cells) {
      if (!cell.unsupported) continue
      ended.add(cell)
      if (done.get(cell).size) continue
      store.add({ ...cell.common, planIndex: planIndex(cell), run: 1, ...cell.empty(), ok: false, status: 'unsupported', error: cell.unsupported })
      progress.skip(cell.label, cell.runs, `unsupported: ${cell.unsupported}`)
    }
    for (const { cell, run } of scheduleRuns(cells, order)) {
      if (ended.has(cell) || done.get(cell).has(run)) continue
      const timedOut = retryTimeouts ? null : store.doc.runs.find((r) => cellKey(r) === cell.key && isTimeout(r))
      if (timedOut) {
        const rest = Array.from({ length: cell.runs - run + 1 }, (_, i) => run + i).filter((n) => !done.get(cell).has(n))
        const reason = skipReason(timedOut)
        for (const n of rest) store.add({ ...cell.common, planIndex: planIndex(cell), run: n, ...cell.empty(), ok: false, status: 'skipped', error: reason, failure: skipFailure(timedOut) })
        progress.skip(cell.label, rest.length, `${rest.length === 1 ? 'run' : 'runs'} ${rest.join(', ')} skipped: ${reason}`)
        ended.add(cell)
        continue
      }
      progress.runStart({ label: cell.label, run, runs: cell.runs })
      const startedAt = Date.now()
      try {
        const result = await cell.execute(signal, (figures) => progress.live(figures))
        if (signal?.aborted) throw new Interrupted(signal.reason)
        const record = { ...cell.common, planIndex: planIndex(cell), run, startedAt, ...result }
        store.add(record)
        progress.runEnd(cell.label, run, record.ok ? cell.describe(record) : `FAILED: ${record.error}${record.countedAfterFailure ? ` (${record.received} of ${record.sent} events had arrived)` : ''}`)
      } catch (err) {
        if (!(err instanceof Interrupted)) throw err
        store.interrupted({ ...cell.common, planIndex: planIndex(cell), run, startedAt, ...cell.empty(), ok: false, status: 'interrupted', error: err.message })
        throw err
      }
    }
    store.complete()
  } finally {
    progress.end()
  }
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

// Why a library cannot do a transport: the adapter's own words where it gives them.
export function unsupportedReason (lib, transport) {
  return lib.adapter.unsupported?.[transport] ?? `${lib.name} has no ${transport} transport (it supports: ${lib.adapter.transports.join(', ') || 'none'})`
}

function describeRun (record) {
  const received = record.received != null ? `, received ${record.received}/${record.expected ?? record.sent}` : ''
  const paced = record.rate && record.loggingMs != null ? ` (paced over ${record.loggingMs.toFixed(0)} ms)` : ''
  return `unblocked ${record.unblockedMs.toFixed(0)} ms${paced}, done ${record.doneMs.toFixed(0)} ms${received}`
}

function describeCounted (record) {
  const received = record.received != null ? `, received ${record.received}/${record.expected ?? record.sent}` : ''
  const syscalls = record.syscallsWritePerEvent != null ? `, ${record.syscallsWritePerEvent.toFixed(3)} write syscalls` : ''
  return `${Math.round(record.instructionsPerEvent).toLocaleString('en-US')} instructions per event (${record.instructionsMethod})${syscalls}${received}`
}

export function emptyRunMeasures () {
  return {
    sent: null, received: null, corrupt: null, duplicates: null, dropRate: null,
    unblockedMs: null, doneMs: null, eventsPerSec: null, mbPerSec: null,
    cpuUserMs: null, cpuSystemMs: null, maxRssBytes: null, totalRssPeakBytes: null, maxHeapBytes: null,
    gcCount: null, gcPauseMs: null, gcMaxPauseMs: null, allocBytesPerEvent: null,
    cpuMainThreadMs: null, cpuOtherThreadsMs: null, nsCpuPerEvent: null, callLatencyNs: null,
    loggingMs: null, eventLoopDelayNs: null,
    overheadMs: null, expected: null, nsPerEvent: null, timeseries: []
  }
}
