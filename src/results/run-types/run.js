import { schemaProblem } from './checks.js'
import { treeProblem } from '../profile-summary.js'
import { dimensionWords, emptyMeasures, identityReader, recordDimensions, recordMeasures } from '../schema.js'
import { libraryName, RECORD_DEFAULTS, transportTitle, workersLabel } from '../record.js'
import { formatCount } from '../../format.js'
import { DEFAULT_ENDING } from '../../engine/endings.js'
import { DEFAULT_MEASURE } from '../../engine/instructions.js'
import { coresLabel, EVERY_CORE } from '../../engine/cores.js'

// The `run` type (log-bench run): workers logging N events each through one library and transport.

// What identifies a cell, in key order: the fields of the schema's runRecord marked x-dimension. A
// record without one of the newer fields means what runs before it meant: the seed's string call,
// the library's default set-up, the transport's own receiving end, the tight loop (no `rate`), no
// runtime recorded (the Node that ran log-bench). libVersion is part of the identity (pino 9 and
// pino 10 are two cells, --lib pino@9,pino@10), and so is runtime (the binary the workers ran under:
// "node 22.23.3", "bun 1.4.5"). measure: counted instructions (--measure instructions) are another
// measurement than times, and each counter (instructionsMethod: valgrind, perf) counts its own way:
// a cell never mixes them. cores (--cores): the run limited to that many CPUs; null, and a record
// without it, every CPU.
const DIMENSIONS = recordDimensions('run')

// Each dimension in words, in the order a cell's name says them (cellWords, src/results/run-types/
// index.js: the summary's comparisons, compare's cells, the anomalies, the plan's progress lines).
// words(value, record): the value as dimensionValue reads it (a record's default filled in).
// The library says its variant, and its version where it was asked for by one (pino@9.14.0); the
// version is said apart where the name does not carry it, and tells cells apart only between two
// versions of one library (of: 'lib').
// A dimension's descriptor says besides, where it has them: title(value) and tag(value), how a page
// heads the groups of a transport that differ in it and the suffix of their chart files and detail
// pages (src/report/run/section.js's DISTINCT), and titleAt, where the title says it among the others
// (the workload first: "Console: object workload, on 1 core", not a cell's words' order); unsaidAt,
// the value at which a CI format's benchmark name leaves it out, so that a benchmark keeps its name
// when the dimension appears (src/report/ci-formats.js).
export const RUN_WORDS = {
  type: { words: (type) => type },
  lib: { words: (lib, record) => libraryName(record) },
  variant: { words: () => null, of: 'lib' },
  libVersion: { words: (version, record) => (record.libRange == null && version ? version : null), of: 'lib' },
  transport: { words: transportTitle },
  cpus: { words: (n) => workersLabel(n) },
  // After the workers, what they ran on: "1 worker, on 1 core" beside "1 worker, on every core".
  // run --cores: the cells on every core keep the transport's plain name (and detail page).
  cores: { words: coresLabel, title: (v) => `, ${coresLabel(v)}`, tag: (v) => (v === EVERY_CORE ? '' : `-${v}core`), titleAt: 8 },
  workload: { words: (workload) => workload, title: (v) => `: ${v} workload`, tag: (v) => `-${v}`, titleAt: 1 },
  runtime: {
    words: (runtime) => runtime ?? 'the Node running log-bench',
    title: (v) => `, workers under ${v ?? 'the Node running log-bench'}`,
    tag: (v) => `-${String(v).replace(/[^\w.-]+/g, '-')}`,
    titleAt: 2
  },
  sink: { words: (sink) => String(sink), title: (v) => `, ${v}`, tag: (v) => `-${v}`, titleAt: 3 },
  size: { words: (size) => `${size} B`, title: (v) => `, ${v.toLocaleString('en-US')}-byte payload`, tag: (v) => `-${v}b`, titleAt: 5 },
  events: { words: (events) => `${formatCount(events)} events`, title: (v) => `, ${v.toLocaleString('en-US')} events per worker`, tag: (v) => `-${v}ev`, titleAt: 4 },
  rate: {
    words: (rate) => (rate == null ? 'tight loop' : `${formatCount(rate)}/s`),
    title: (v) => (v == null ? ', tight loop' : `, paced at ${v.toLocaleString('en-US')} events/s per worker`),
    tag: (v) => (v == null ? '' : `-${v}eps`),
    titleAt: 6
  },
  burst: {
    words: (burst) => (burst == null ? 'every event in one loop' : `bursts of ${formatCount(burst)}`),
    title: (v) => (v == null ? '' : `, in bursts of ${v.toLocaleString('en-US')} events`),
    tag: (v) => (v == null ? '' : `-${v}burst`),
    titleAt: 7
  },
  ending: { words: (ending) => `ending ${ending}`, unsaidAt: DEFAULT_ENDING },
  receiverRate: { words: (rate) => (rate == null ? 'read at full speed' : `read at ${formatCount(rate)} B/s`) },
  receiverStallMs: { words: (ms) => (ms == null ? 'no stall' : `reader stalled ${formatCount(ms)} ms`) },
  measure: { words: (measure) => (measure === 'instructions' ? 'instructions counted' : 'timed'), unsaidAt: DEFAULT_MEASURE },
  instructionsMethod: { words: (method) => (method == null ? null : `counted by ${method}`) },
  profile: { words: (profile) => (profile ? 'profiled' : null) }
}

// What a run measures: the schema's x-measure annotations (src/results/schema.js, recordMeasures):
// field, the summary's key; unit; better: which way is faster ('lower' for times, 'higher' for
// rates, null where neither is, as for memory); summary: described over a cell's finished runs
// (mean, median, interval…); compare: compared by `log-bench compare` ('speed': also by
// --baseline); title: the comparison table's heading. Here, what cannot be JSON. What a call costs
// besides time (docs/costs.md) is compared only where both sides recorded it; GC only from runs that
// read V8's records (they also have allocBytesPerEvent): older runs' counts came from an observer
// that lost collections.
const MEASURES = recordMeasures('run', {
  gcPer10kEvents: { value: (r) => (r.allocBytesPerEvent == null || !r.sent ? null : (r.gcCount / r.sent) * 10_000) },
  gcPauseMs: { compareValue: (r) => (r.allocBytesPerEvent == null ? null : r.gcPauseMs) }
})

// The noise threshold of counted instructions (--measure instructions, docs/costs.md): A/A runs of
// pino spread by well under 1% under valgrind, where wall time's threshold must be several per cent.
// Exact where times are noise, so compared with its own threshold (the schema's x-measure noise).
export const INSTRUCTIONS_NOISE = MEASURES.find((m) => m.field === 'instructionsPerEvent').noise

// A run record read from a file: the results schema's checks (schema/results.schema.json, $defs.runRecord).
// A profile's call tree, once the schema has checked its nodes, is checked for what a schema cannot
// say: its references and its depth (treeProblem).
function validate (run) {
  const problem = schemaProblem(run, 'run')
  if (problem || !run.profileTree) return problem
  const tree = treeProblem(run.profileTree)
  return tree && { problem: `profileTree.${tree}` }
}

// A summary entry's identity: what the cell's first run says about it (the schema's dimensions
// and x-identity fields, src/results/schema.js).
const identity = identityReader('run')

// Besides the counts every type has: the runs not run because an earlier run of the cell hit the
// time limit (see runCells).
function counts (cellRuns) {
  return { skippedRuns: cellRuns.filter((r) => r.status === 'skipped').length }
}

// Across cells: doneMs as a multiple of the raw baseline's in the same cell (every dimension but
// the library and its variant).
function relate (entries, { cellKey }) {
  const sameCell = (entry) => cellKey(entry, { except: ['lib', 'variant'] })
  // The raw entries by cell once (a search per entry would be quadratic in the libraries): raw on its
  // default where the cell has it (raw:each writes each line at once, a latency baseline, not the
  // fastest code), else the first raw variant, as a search would find it.
  const raws = new Map()
  for (const s of entries) {
    if (s.lib !== 'raw') continue
    const found = raws.get(sameCell(s))
    const onDefault = (entry) => entry.variant === RECORD_DEFAULTS.variant
    if (!found || (!onDefault(found) && onDefault(s))) raws.set(sameCell(s), s)
  }
  for (const entry of entries) {
    const raw = raws.get(sameCell(entry))
    entry.doneVsRaw = raw?.doneMs?.mean && entry.doneMs?.mean != null ? entry.doneMs.mean / raw.doneMs.mean : null
  }
}

export const RUN_TYPE = {
  name: 'run',
  command: 'log-bench run',
  dimensions: DIMENSIONS,
  words: dimensionWords('run', RUN_WORDS),
  measures: MEASURES,
  // What the cells of one comparison group share, in words (compare --baseline).
  groupWords: 'transport, workers, cores, workload, size and receiving end',
  validate,
  // A record's measures before anything was measured (every nullable field of the schema's runRecord).
  empty: () => emptyMeasures('run', DIMENSIONS),
  identity,
  counts,
  relate
}
