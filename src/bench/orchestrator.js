import { cellKey, defaultSink } from '../results/model.js'
import { Interrupted } from '../errors.js'
import { runOnce } from './run-once.js'

// Expands checked `run` options into cells in the order they run: transport, library, worker
// count, size. A cell knows how to execute one of its runs and what an empty record looks like.
export function planRunCells ({ libs, transports, cpus, sizes, events, runs, timeoutMs, maxOldSpaceSize, receiverOptions = {} }) {
  const cells = []
  for (const transport of transports) {
    for (const lib of libs) {
      for (const workers of cpus) {
        for (const { payload } of sizes) {
          const common = {
            type: 'run',
            lib: lib.name,
            libVersion: lib.version,
            transport,
            sink: receiverOptions.sinkName?.(transport) ?? defaultSink(transport),
            cpus: workers,
            events,
            size: Buffer.byteLength(payload)
          }
          cells.push({
            key: cellKey(common),
            label: `${lib.name} ${transport} ${workers} cpu${workers > 1 ? 's' : ''}${common.size !== 13 ? ` ${common.size} B` : ''}`,
            describe: describeRun,
            common,
            runs,
            unsupported: lib.adapter.transports.includes(transport) ? null : unsupportedReason(lib, transport),
            empty: emptyRunMeasures,
            execute: (signal) => runOnce({ adapterFile: lib.file, transport, cpus: workers, events, payload, timeoutMs, maxOldSpaceSize, signal, verify: lib.adapter.verifies !== false, receiverOptions })
          })
        }
      }
    }
  }
  return cells
}

// Runs every cell `runs` times (skipping runs the store already holds, for --resume). Each finished
// run is saved before the next starts; an interrupt is recorded and rethrown.
export async function runCells ({ cells, store, signal, progress }) {
  const pending = cells.map((cell) => ({ cell, done: store.finishedRuns(cell.key, cellKey) }))
  progress.begin(pending.reduce((n, { cell, done }) => n + (cell.unsupported ? (done.size ? 0 : cell.runs) : cell.runs - done.size), 0))
  try {
    for (const { cell, done } of pending) {
      if (cell.unsupported) {
        if (done.size) continue
        store.add({ ...cell.common, run: 1, ...cell.empty(), ok: false, status: 'unsupported', error: cell.unsupported })
        progress.skip(cell.label, cell.runs, `unsupported: ${cell.unsupported}`)
        continue
      }
      for (let run = 1; run <= cell.runs; run++) {
        if (done.has(run)) continue
        progress.runStart({ label: cell.label, run, runs: cell.runs })
        try {
          const result = await cell.execute(signal)
          if (signal?.aborted) throw new Interrupted(signal.reason)
          const measured = { ...cell.common, run, ...result }
          const record = cell.complete ? cell.complete(measured, store.doc.runs) : measured
          store.add(record)
          progress.runEnd(cell.label, run, record.ok ? cell.describe(record) : `FAILED: ${record.error}${record.countedAfterFailure ? ` (${record.received} of ${record.sent} events had arrived)` : ''}`)
        } catch (err) {
          if (!(err instanceof Interrupted)) throw err
          store.interrupted({ ...cell.common, run, ...cell.empty(), ok: false, status: 'interrupted', error: err.message })
          throw err
        }
      }
    }
    store.complete()
  } finally {
    progress.end()
  }
}

// Why a library cannot do a transport: the adapter's own words where it gives them.
export function unsupportedReason (lib, transport) {
  return lib.adapter.unsupported?.[transport] ?? `${lib.name} has no ${transport} transport (it supports: ${lib.adapter.transports.join(', ') || 'none'})`
}

function describeRun (record) {
  const received = record.received != null ? `, received ${record.received}/${record.sent}` : ''
  return `unblocked ${record.unblockedMs.toFixed(0)} ms, done ${record.doneMs.toFixed(0)} ms${received}`
}

export function emptyRunMeasures () {
  return {
    sent: null, received: null, corrupt: null, duplicates: null, dropRate: null,
    unblockedMs: null, doneMs: null, eventsPerSec: null, mbPerSec: null,
    cpuUserMs: null, cpuSystemMs: null, maxRssBytes: null, totalRssPeakBytes: null, maxHeapBytes: null,
    gcCount: null, gcPauseMs: null, overheadMs: null, timeseries: []
  }
}
