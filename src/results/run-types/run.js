import { MAX_EVENTS, MAX_RUNS, MAX_SIZE_BYTES, MAX_WORKERS } from '../../limits.js'
import { dimensionValue } from '../record.js'
import { basicProblem, shown } from './checks.js'

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
const DIMENSIONS = ['type', 'lib', 'libVersion', 'variant', 'workload', 'runtime', 'transport', 'sink', 'cpus', 'events', 'size', 'rate', 'measure', 'instructionsMethod']

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

// The fields every run record holds, and the checks of their values.
const FIELDS = ['lib', 'libVersion', 'transport', 'cpus', 'run', 'events', 'size', 'ok', 'status', 'error',
  'sent', 'received', 'corrupt', 'duplicates', 'dropRate', 'unblockedMs', 'doneMs', 'eventsPerSec',
  'cpuUserMs', 'cpuSystemMs', 'maxRssBytes']
const NUMBERS = ['sent', 'received', 'corrupt', 'duplicates', 'dropRate', 'unblockedMs', 'doneMs', 'eventsPerSec',
  'cpuUserMs', 'cpuSystemMs', 'maxRssBytes']
const IDENTITY = [['cpus', 1, MAX_WORKERS], ['events', 1, MAX_EVENTS], ['size', 1, MAX_SIZE_BYTES], ['run', 1, MAX_RUNS]]
const COUNTS = ['sent', 'received', 'corrupt', 'duplicates']
const SAMPLE_NUMBERS = ['tMs', 'cpuPct', 'rssBytes', 'heapBytes']

// The first problem of a run record read from a file, as { field?, problem } words, or null.
// A missing field and a bad name are said of the record (runs[3] …); the rest of its values.
function validate (run) {
  const basic = basicProblem(run, { fields: FIELDS, ranges: IDENTITY })
  if (basic) return basic
  for (const field of NUMBERS) {
    const value = run[field]
    const max = field === 'dropRate' ? 1 : Number.MAX_VALUE
    if (value !== null && !(typeof value === 'number' && value >= 0 && value <= max)) return { problem: `${field} must be ${max === 1 ? 'a share from 0 to 1' : 'a finite number >= 0'} or null, got ${shown(value)}` }
  }
  for (const field of COUNTS) {
    if (run[field] !== null && !Number.isSafeInteger(run[field])) return { problem: `${field} must be a whole number of events or null, got ${shown(run[field])}` }
  }
  if (run.timeseries !== undefined) {
    if (!Array.isArray(run.timeseries)) return { problem: 'timeseries must be an array' }
    const sample = run.timeseries.findIndex((p) => p === null || typeof p !== 'object' || SAMPLE_NUMBERS.some((f) => p[f] != null && !(typeof p[f] === 'number' && p[f] >= 0 && p[f] < Infinity)))
    if (sample >= 0) return { problem: `timeseries[${sample}] must hold ${SAMPLE_NUMBERS.join(', ')} as finite numbers >= 0` }
  }
  return null
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
  for (const entry of entries) {
    const raw = entries.find((s) => s.lib === 'raw' && sameCell(s) === sameCell(entry))
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
  identity,
  counts,
  relate
}
