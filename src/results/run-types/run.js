import { dimensionValue } from '../record.js'
import { schemaProblem } from './checks.js'
import { emptyMeasures } from '../schema.js'

// The noise threshold of counted instructions: A/A runs of pino spread by well under 1% under
// valgrind, where wall time's threshold must be several per cent.
export const INSTRUCTIONS_NOISE = 0.01

// The `run` type (log-bench run): workers logging N events each through one library and transport.

// What identifies a cell, in key order. A record without one of the newer fields means what runs
// before it meant: the seed's string call, the library's default set-up, the transport's own
// receiving end, the tight loop (no `rate`), no runtime recorded (the Node that ran log-bench).
// libVersion is part of the identity (pino 9 and pino 10 are two cells, --lib pino@9,pino@10), and
// so is runtime (the binary the workers ran under: "node 22.23.3", "bun 1.4.5"). measure: counted
// instructions (--measure instructions) are another measurement than times, and each counter
// (instructionsMethod: valgrind, perf) counts its own way: a cell never mixes them.
const DIMENSIONS = ['type', 'lib', 'libVersion', 'variant', 'workload', 'runtime', 'transport', 'sink', 'cpus', 'events', 'size', 'rate', 'ending', 'receiverRate', 'receiverStallMs', 'measure', 'instructionsMethod']

// What a run measures. field: the summary's key (and the run's, unless value reads it elsewhere);
// unit; better: which way is faster ('lower' for times, 'higher' for rates, null where neither
// is, as for memory); summary: described over a cell's finished runs (mean, median, interval…);
// compare: compared by `log-bench compare` ('speed': also by --baseline), with compareValue where
// it reads the run differently from the summary; title: the comparison table's heading.
const MEASURES = [
  { field: 'unblockedMs', unit: 'ms', better: 'lower', summary: true, compare: 'speed', title: 'unblocked (ms)' },
  { field: 'nsPerEvent', unit: 'ns', better: 'lower', summary: true },
  { field: 'doneMs', unit: 'ms', better: 'lower', summary: true, compare: 'speed', title: 'done (ms)' },
  { field: 'eventsPerSec', unit: 'events/s', better: 'higher', summary: true, compare: true, title: 'events/s' },
  { field: 'mbPerSec', unit: 'MB/s', better: 'higher', summary: true },
  { field: 'maxRssBytes', unit: 'bytes', better: null, summary: true, compare: true, title: 'peak RSS per worker' },
  { field: 'maxHeapBytes', unit: 'bytes', better: null, summary: true },
  { field: 'dropRate', unit: 'share', better: 'lower', summary: true, compare: true, title: 'drop rate' },
  { field: 'cpuUserMs', unit: 'ms', better: 'lower', summary: true },
  { field: 'cpuSystemMs', unit: 'ms', better: 'lower', summary: true },
  { field: 'overheadMs', unit: 'ms', better: 'lower', summary: true },
  // What a call costs besides time (docs/costs.md): compared only where both sides recorded it.
  { field: 'callP50Ns', unit: 'ns', better: 'lower', compare: true, title: 'ns per call p50', value: (r) => r.callLatencyNs?.p50 },
  { field: 'callP99Ns', unit: 'ns', better: 'lower', compare: true, title: 'ns per call p99', value: (r) => r.callLatencyNs?.p99 },
  { field: 'callP999Ns', unit: 'ns', better: 'lower', compare: true, title: 'ns per call p99.9', value: (r) => r.callLatencyNs?.p999 },
  { field: 'allocBytesPerEvent', unit: 'bytes', better: null, summary: true, compare: true, title: 'bytes allocated per event' },
  // GC compared only from runs that read V8's records (they also have allocBytesPerEvent): older
  // runs' counts came from an observer that lost collections.
  { field: 'gcCount', unit: 'count', better: null, summary: true },
  { field: 'gcPer10kEvents', unit: 'per 10,000 events', better: null, compare: true, title: 'GCs per 10,000 events', value: (r) => (r.allocBytesPerEvent == null || !r.sent ? null : (r.gcCount / r.sent) * 10_000) },
  { field: 'gcPauseMs', unit: 'ms', better: 'lower', summary: true, compare: true, title: 'GC pause (ms)', compareValue: (r) => (r.allocBytesPerEvent == null ? null : r.gcPauseMs) },
  { field: 'gcMaxPauseMs', unit: 'ms', better: 'lower', summary: true },
  { field: 'cpuMainThreadMs', unit: 'ms', better: 'lower', summary: true },
  { field: 'cpuOtherThreadsMs', unit: 'ms', better: 'lower', summary: true },
  { field: 'cpuMainNsPerEvent', unit: 'ns', better: 'lower', compare: true, title: 'CPU ns per event, calling thread', value: (r) => r.nsCpuPerEvent?.mainThread },
  { field: 'cpuOtherNsPerEvent', unit: 'ns', better: 'lower', compare: true, title: 'CPU ns per event, other threads', value: (r) => r.nsCpuPerEvent?.otherThreads },
  { field: 'eventLoopDelayP99Ns', unit: 'ns', shownIn: 'ms', better: 'lower', compare: true, title: 'event-loop delay p99 (ms, paced runs)', value: (r) => r.eventLoopDelayNs?.p99 },
  { field: 'loggingMs', unit: 'ms', better: 'lower', summary: true },
  // --measure instructions (docs/costs.md): exact where times are noise, so compared with its own
  // noise threshold, and by --baseline; the syscalls and bytes beside it show what the kernel does.
  { field: 'instructionsPerEvent', unit: 'instructions', better: 'lower', summary: true, compare: 'speed', noise: INSTRUCTIONS_NOISE, title: 'instructions per event' },
  { field: 'syscallsWritePerEvent', unit: 'syscalls', better: 'lower', summary: true, compare: true, title: 'write syscalls per event' },
  { field: 'syscallsReadPerEvent', unit: 'syscalls', better: 'lower', summary: true },
  { field: 'bytesWrittenPerEvent', unit: 'bytes', better: null, summary: true }
]

// A run record read from a file: the results schema's checks (schema/results.schema.json, $defs.runRecord).
function validate (run) {
  return schemaProblem(run, 'run')
}

// A summary entry's identity: what the cell's first run says about it.
function identity (first) {
  return {
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
    ending: dimensionValue(first, 'ending'),
    receiverRate: first.receiverRate ?? null,
    receiverStallMs: first.receiverStallMs ?? null,
    measure: dimensionValue(first, 'measure'),
    instructionsMethod: first.instructionsMethod ?? null
  }
}

// Besides the counts every type has: the runs not run because an earlier run of the cell hit the
// time limit (see runCells).
function counts (cellRuns) {
  return { skippedRuns: cellRuns.filter((r) => r.status === 'skipped').length }
}

// Across cells: doneMs as a multiple of the raw baseline's in the same cell (every dimension but
// the library and its variant).
function relate (entries, { cellKey }) {
  const sameCell = (entry) => cellKey(entry, { except: ['lib', 'variant'] })
  // The raw entries by cell once (the first of each, as a search would find it): a search per entry
  // would be quadratic in the libraries.
  const raws = new Map()
  for (const s of entries) if (s.lib === 'raw' && !raws.has(sameCell(s))) raws.set(sameCell(s), s)
  for (const entry of entries) {
    const raw = raws.get(sameCell(entry))
    entry.doneVsRaw = raw?.doneMs?.mean && entry.doneMs?.mean != null ? entry.doneMs.mean / raw.doneMs.mean : null
  }
}

export const RUN_TYPE = {
  name: 'run',
  command: 'log-bench run',
  dimensions: DIMENSIONS,
  measures: MEASURES,
  // What the cells of one comparison group share, in words (compare --baseline).
  groupWords: 'transport, workers, workload, size and receiving end',
  validate,
  // A record's measures before anything was measured (every nullable field of the schema's runRecord).
  empty: () => emptyMeasures('run', DIMENSIONS),
  identity,
  counts,
  relate
}
