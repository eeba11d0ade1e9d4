import { transportDescriptor } from '../engine/transports.js'
import { describe } from '../stats.js'

export const SCHEMA_VERSION = 1

// Every dimension that changes what is measured, in key order. A record without one of the newer
// fields means what runs before it meant: the seed's string call, the library's default set-up,
// the transport's own receiving end, the tight loop (no `rate`), no runtime recorded (the Node that
// ran log-bench). libVersion is part of the identity (pino 9 and pino 10 are two cells, --lib
// pino@9,pino@10), and so is runtime (the binary the workers ran under: "node 22.23.3", "bun 1.4.5").
const CELL_DIMENSIONS = ['type', 'lib', 'libVersion', 'variant', 'workload', 'runtime', 'transport', 'sink', 'cpus', 'events', 'size', 'rate']
// An http cell is also told apart by its load: these are the fields `http` records for it.
const HTTP_DIMENSIONS = ['mode', 'middleware', 'logsPerRequest', 'connections', 'pipelining', 'durationSeconds', 'warmupSeconds', 'serverCpus', 'loadCpus']

// The receiving end a transport has when no syslog set-up names another (and what a record from
// before the `sink` field was measured with).
export function defaultSink (transport) {
  return transportDescriptor(transport)?.sink ?? transport
}

// Every field of a cell's identity, run and http, for exporters that show the identity whole (CSV).
export const CELL_FIELDS = [...CELL_DIMENSIONS, ...HTTP_DIMENSIONS]

// What a record means where it lacks a field that came later: the `run` type, the library's
// default set-up, the seed's string call.
export const RECORD_DEFAULTS = Object.freeze({ type: 'run', variant: 'default', workload: 'string' })

// A record's value for one identity field, the default filled in where the record predates the field.
// Every reader of a record's type, variant or workload goes through here.
export function dimensionValue (record, field) {
  if (field === 'sink') return record.sink ?? (record.transport == null ? null : defaultSink(record.transport))
  return record[field] ?? RECORD_DEFAULTS[field] ?? null
}

// What kind of failure a failed or skipped record holds, as data (see RunFailure in src/errors.js):
// { kind: 'timeout', limitS, afterRun? } | { kind: 'out-of-memory' } | { kind: 'killed', signal }
// | { kind: 'crashed', exitCode } | { kind: 'error' }; null for any other record. Records written
// before the `failure` field have only the sentence: for them alone the kind is read from the words
// log-bench wrote then.
export function failureOf (record) {
  if (record.failure) return record.failure
  if (record.status !== 'failed' && record.status !== 'skipped') return null
  return failureFromWords(record.status, record.error ?? '')
}

function failureFromWords (status, error) {
  if (status === 'skipped') {
    const after = /^run (\d+) timed out(?: after ([\d.]+) s)?/.exec(error)
    return after ? { kind: 'timeout', limitS: after[2] ? Number(after[2]) : null, afterRun: Number(after[1]) } : { kind: 'error' }
  }
  if (/out of memory|heap limit/i.test(error)) return { kind: 'out-of-memory' }
  if (/timed out/i.test(error)) return { kind: 'timeout', limitS: Number(/^timed out after ([\d.]+) s/.exec(error)?.[1]) || null }
  if (/SIGKILL/.test(error)) return { kind: 'killed', signal: 'SIGKILL' }
  if (/crashed|exit code/i.test(error)) return { kind: 'crashed', exitCode: Number(/exit code (\d+)/.exec(error)?.[1] ?? NaN) || null }
  return { kind: 'error' }
}

// The runs (or summary entries) of one run type.
export function ofType (items, type) {
  return items.filter((item) => dimensionValue(item, 'type') === type)
}

// The one identity of a cell: runs with the same key are repetitions of one measurement. Summaries,
// --resume, shards, merge, compare, report and CSV all group by it. `except` names dimensions to
// leave out, for grouping cells that differ only there (the libraries of one http cell, for example).
// Leaving out `lib` leaves out its version too: the libraries of one cell are compared whatever
// their versions (the raw baseline's "version" is the Node version).
export function cellKey (record, { except = [] } = {}) {
  const type = dimensionValue(record, 'type')
  const fields = type === 'http' ? [...CELL_DIMENSIONS, ...HTTP_DIMENSIONS] : CELL_DIMENSIONS
  const left = except.includes('lib') ? [...except, 'libVersion'] : except
  return JSON.stringify(fields.filter((f) => !left.includes(f)).map((f) => dimensionValue(record, f)))
}

// What tells the cells of one comparison group apart: the library, its variant and (http) its
// request logger. Everything else (transport, workers, workload, size, receiving end, events, load)
// is the group: its cells are compared with each other, run together and kept on one machine.
export const COMPARED_DIMENSIONS = ['lib', 'variant', 'middleware']

export function comparisonGroupKey (record) {
  return cellKey(record, { except: COMPARED_DIMENSIONS })
}

// The results list runs in the order they ran (interleaved: shuffled rounds); exporters show cells in
// the order of the plan. Each run records its cell's position in the whole plan (planIndex, shards
// included); runs without one (older files) keep their place before the others.
export function inPlanOrder (runs) {
  if (!runs.some((r) => r.planIndex != null)) return runs
  return runs.map((run, index) => ({ run, index })).sort((a, b) => ((a.run.planIndex ?? -1) - (b.run.planIndex ?? -1)) || a.index - b.index).map(({ run }) => run)
}

// The runs of one type grouped by cell, in plan order (see inPlanOrder).
export function runsByCell (runs, type) {
  const cells = new Map()
  for (const run of inPlanOrder(runs)) {
    if (dimensionValue(run, 'type') !== type) continue
    const key = cellKey(run)
    if (!cells.has(key)) cells.set(key, [])
    cells.get(key).push(run)
  }
  return [...cells.values()]
}

export function createDocument (env) {
  return { schema: SCHEMA_VERSION, tool: 'log-bench', kind: 'results', complete: false, interrupted: false, env, runs: [], summary: [] }
}

const SUMMARIZED = ['unblockedMs', 'nsPerEvent', 'doneMs', 'eventsPerSec', 'mbPerSec', 'dropRate', 'cpuUserMs', 'cpuSystemMs', 'maxRssBytes', 'maxHeapBytes', 'gcPauseMs', 'overheadMs', 'allocBytesPerEvent', 'gcCount', 'gcMaxPauseMs', 'cpuMainThreadMs', 'cpuOtherThreadsMs', 'loggingMs']

// One entry per cell: the seed's "Average" (mean) plus median, stddev, min, max of every measure
// over the runs that succeeded, and doneMs as a multiple of the raw baseline of the same cell.
export function summarize (runs) {
  const summary = []
  for (const cellRuns of runsByCell(runs, 'run')) {
    const first = cellRuns[0]
    const ok = cellRuns.filter((r) => r.ok)
    const entry = {
      type: 'run',
      lib: first.lib,
      variant: dimensionValue(first, 'variant'),
      workload: dimensionValue(first, 'workload'),
      libVersion: first.libVersion,
      libRange: first.libRange ?? null,
      runtime: first.runtime ?? null,
      transport: first.transport,
      cpus: first.cpus,
      size: first.size,
      events: first.events,
      sink: first.sink ?? null,
      rate: first.rate ?? null,
      runs: cellRuns.length,
      okRuns: ok.length,
      // Not run because an earlier run of the cell hit the time limit (see runCells).
      skippedRuns: cellRuns.filter((r) => r.status === 'skipped').length,
      status: cellStatus(cellRuns),
      errors: [...new Set(cellRuns.filter((r) => !r.ok).map((r) => r.error))]
    }
    for (const key of SUMMARIZED) entry[key] = describe(ok.map((r) => r[key]))
    summary.push(entry)
  }
  for (const entry of summary) {
    const raw = summary.find((s) => s.lib === 'raw' && cellKey(s, { except: ['lib', 'variant'] }) === cellKey(entry, { except: ['lib', 'variant'] }))
    entry.doneVsRaw = raw?.doneMs?.mean && entry.doneMs?.mean != null ? entry.doneMs.mean / raw.doneMs.mean : null
  }
  return summary
}

export function cellStatus (runs) {
  if (runs.every((r) => r.status === 'unsupported')) return 'unsupported'
  if (runs.every((r) => r.ok)) return 'ok'
  if (runs.some((r) => r.ok)) return 'partial'
  return 'failed'
}
