import { describe } from '../../stats.js'
import { cellStatus, dimensionValue, inPlanOrder, RECORD_DEFAULTS, runTypeName } from '../record.js'
import { HTTP_TYPE } from './http.js'
import { RUN_TYPE } from './run.js'
import { recordFields } from '../schema.js'

// The run types, each one module (run.js, http.js): what identifies its cells (dimensions), what it
// measures (measures: field, unit, direction, summarised and/or compared), how a record read from
// a file is checked (validate), and its summary entries (identity, counts, relate). Cell keys,
// summaries, the results reader, merge and compare work through this registry; the report's side
// (sections, terminal output, cell names) is registered in src/report/run-types.js.
// A run type: { name, command, dimensions, measures, groupWords, validate(run) → { problem } | null,
//   identity(firstRun) → summary fields, counts(cellRuns) → extra counts, relate(entries, context) }.
export const RUN_TYPES = [RUN_TYPE, HTTP_TYPE]

export function runTypeNamed (name) {
  return RUN_TYPES.find((type) => type.name === name) ?? null
}

// The run type of a record (run or summary entry), or null for a type this log-bench does not know.
export function runTypeOf (record) {
  return runTypeNamed(runTypeName(record))
}

// Every field of a cell's identity, of every type, for exporters that show the identity whole (CSV).
export const CELL_FIELDS = [...new Set(RUN_TYPES.flatMap((type) => type.dimensions))]

// The one identity of a cell: runs with the same key are repetitions of one measurement. Summaries,
// --resume, shards, merge, compare, report and CSV all group by it. `except` names dimensions to
// leave out, for grouping cells that differ only there (the libraries of one http cell, for example).
// Leaving out `lib` leaves out its version too: the libraries of one cell are compared whatever
// their versions (the raw baseline's "version" is the Node version). A type this log-bench does not
// know is keyed by the dimensions of `run`.
export function cellKey (record, { except = [] } = {}) {
  const fields = (runTypeOf(record) ?? RUN_TYPE).dimensions
  const left = except.includes('lib') ? [...except, 'libVersion'] : except
  return JSON.stringify(fields.filter((f) => !left.includes(f)).map((f) => dimensionValue(record, f)))
}

// A cell in words: the dimensions `shown` (a list or Set of fields; varyingDimensions says which
// tell the shown cells apart), each in its type's words (the `words` of src/results/run-types/,
// in their order), joined by commas: "Console, 10,000 events, ending exit". defaultsUnsaid leaves
// out a dimension at its default (the record default: close, the string workload; or none: no
// rate, the receiver at full speed), for a name that stands alone in a list (the anomalies).
export function cellWords (record, shown, { defaultsUnsaid = false } = {}) {
  const fields = new Set(shown)
  const type = runTypeOf(record) ?? RUN_TYPE
  const parts = []
  for (const { field, words, of } of type.words) {
    if (!fields.has(field) || (defaultsUnsaid && atDefault(record, field))) continue
    const text = words(dimensionValue(record, field), record)
    if (text == null || text === '') continue
    // What qualifies the dimension before it is said with it: "pino 10.4.0", not "pino, 10.4.0".
    if (of && parts.length && parts.at(-1).field === of) parts.at(-1).text += ` ${text}`
    else parts.push({ field, text })
  }
  return parts.map((part) => part.text).join(', ')
}

const atDefault = (record, field) => record[field] == null || record[field] === RECORD_DEFAULTS[field]

// The dimensions whose values differ among `records` (the cells shown together), in the order of
// their words, with `always` besides. within: fields whose values split the records into groups that are shown
// apart (the summary names a transport's comparisons among that transport's only). A dimension
// that qualifies another (`of`: a library's version) varies only among records that share that one.
export function varyingDimensions (records, { always = [], within = [] } = {}) {
  const types = RUN_TYPES.filter((type) => records.some((r) => runTypeName(r) === type.name))
  const fields = [...new Map((types.length ? types : [RUN_TYPE]).flatMap((type) => type.words)
    .map(({ field, of }) => [field, { field, of }])).values()]
  const groupsOf = (by) => {
    const groups = new Map()
    for (const r of records) {
      const key = by.map((f) => JSON.stringify(dimensionValue(r, f))).join('\n')
      if (!groups.has(key)) groups.set(key, [])
      groups.get(key).push(r)
    }
    return [...groups.values()]
  }
  // Two values tell cells apart where their words do (a version the library's name carries already
  // says nothing more).
  const differ = (list, field) => new Set(list.map((r) => cellWords(r, [field]))).size > 1
  return fields.filter(({ field, of }) => always.includes(field) ||
    groupsOf([...within, ...(of ? [of] : [])]).some((group) => differ(group, field)))
    .map(({ field }) => field)
}

// A cell's settings as each of its records carries them: the settings' fields that the type's
// record has (its identity: lib, transport, cpus, events…), in the settings' order; what only says
// how the runs are made (the adapter's file, the payload, the time limit) stays out.
export function recordedSettings (settings) {
  const fields = new Set(recordFields(runTypeName(settings)).map((f) => f.field))
  return Object.fromEntries(Object.entries(settings).filter(([field]) => fields.has(field)))
}

// What tells the cells of one comparison group apart: the library, its variant and (http) its
// request logger. Everything else (transport, workers, workload, size, receiving end, events, load)
// is the group: its cells are compared with each other, run together and kept on one machine.
export const COMPARED_DIMENSIONS = ['lib', 'variant', 'middleware']

export function comparisonGroupKey (record) {
  return cellKey(record, { except: COMPARED_DIMENSIONS })
}

// The runs (or summary entries) of one run type.
export function ofType (items, type) {
  return items.filter((item) => runTypeName(item) === type)
}

// The runs of one type grouped by cell, in plan order (see inPlanOrder).
export function runsByCell (runs, type) {
  const cells = new Map()
  for (const run of inPlanOrder(runs)) {
    if (runTypeName(run) !== type) continue
    const key = cellKey(run)
    if (!cells.has(key)) cells.set(key, [])
    cells.get(key).push(run)
  }
  return [...cells.values()]
}

// How a measure reads a run: its own value function, else the run's field of that name.
export const valueOf = (measure) => measure.value ?? ((r) => r[measure.field])

// The measures a summary describes, and those compare compares (with the value it compares).
export const summarised = (type) => type.measures.filter((m) => m.summary)
export const compared = (type) => type.measures.filter((m) => m.compare)
  .map((m) => ({ ...m, value: m.compareValue ?? valueOf(m) }))

// A run type's compared measure by its field (doneMs, reqPerSec, instructionsPerEvent…), as the
// schema defines it: its value, direction and noise.
export function measureNamed (typeName, field) {
  const type = runTypeNamed(typeName)
  const measure = type ? compared(type).find((m) => m.field === field) : null
  if (!measure) throw new Error(`${typeName} has no compared measure ${field}`)
  return measure
}

// One entry per cell of a type: its identity, how many runs it has and how they ended, and each
// summarised measure described (the seed's "Average" as mean, plus median, its interval, stddev,
// min, max) over the runs that succeeded; then whatever the type relates across cells (comparing
// runs of one round paired where `roundOf` knows the rounds: src/results/rounds.js).
export function summarizeType (type, runs, { roundOf = null } = {}) {
  const summary = []
  const okRuns = new Map()
  for (const cellRuns of runsByCell(runs, type.name)) {
    const first = cellRuns[0]
    const ok = cellRuns.filter((r) => r.ok)
    const entry = {
      type: type.name,
      ...type.identity(first),
      runs: cellRuns.length,
      okRuns: ok.length,
      ...type.counts(cellRuns),
      status: cellStatus(cellRuns),
      errors: [...new Set(cellRuns.filter((r) => !r.ok).map((r) => r.error))]
    }
    for (const measure of summarised(type)) entry[measure.field] = describe(ok.map(valueOf(measure)))
    okRuns.set(entry, ok)
    summary.push(entry)
  }
  type.relate(summary, { runsOf: (entry) => okRuns.get(entry), cellKey, comparisonGroupKey, valueOf, roundOf })
  return summary
}

// Every known type's summary entries.
export function summarizeAll (runs) {
  return RUN_TYPES.flatMap((type) => summarizeType(type, runs))
}
