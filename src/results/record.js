import { transportDescriptor } from '../engine/transports.js'
import { DEFAULT_ENDING } from '../engine/endings.js'
import { DEFAULT_MEASURE } from '../engine/instructions.js'
import { DEFAULT_WORKLOAD } from '../engine/workloads.js'

// What a single record (a run, or a summary entry) means where it lacks a field that came later,
// and the reading of its fields that every run type shares. Knows no run type's fields.

// What a record means where it lacks a field that came later: the `run` type, the library's
// default set-up, the seed's string call.
// A worker count in words, "1 worker", "8 workers": a run's `cpus` is how many workers logged, not
// how many CPUs they had (8 workers may share 2 cores). `kind` says whose where the page has more
// than one kind of process: http's "2 server workers". The one name for a record's `cpus`.
export const workersLabel = (n, kind = null) => `${n} ${kind ? `${kind} ` : ''}worker${n === 1 ? '' : 's'}`

export const RECORD_DEFAULTS = Object.freeze({ type: 'run', variant: 'default', workload: DEFAULT_WORKLOAD, ending: DEFAULT_ENDING, measure: DEFAULT_MEASURE })

// The receiving end a transport has when no syslog set-up names another (and what a record from
// before the `sink` field was measured with).
export function defaultSink (transport) {
  return transportDescriptor(transport)?.sink ?? transport
}

// The name of a record's run type ('run' for records written before types existed): the one
// reading of `type`, for every check of which kind of run a record holds.
export function runTypeName (record) {
  return record.type ?? RECORD_DEFAULTS.type
}

// A record's value for one identity field, the default filled in where the record predates the field.
// Every reader of a record's type, variant or workload goes through here.
export function dimensionValue (record, field) {
  if (field === 'type') return runTypeName(record)
  if (field === 'sink') return record.sink ?? (record.transport == null ? null : defaultSink(record.transport))
  return record[field] ?? RECORD_DEFAULTS[field] ?? null
}

export function transportTitle (transport) {
  return transportDescriptor(transport)?.title ?? transport
}

// A library as its cells show it: "pino", "pino:sync", "pino:sync object" (variant after a colon,
// a workload other than the seed's string after a space). Records without the fields are the default.
// A library asked for by version (--lib pino@9) is named with the version it got: pino@9.14.0
// (headings then add no version of their own).
export function runName (record) {
  const variant = dimensionValue(record, 'variant')
  const workload = dimensionValue(record, 'workload')
  const version = record.libRange != null && record.libVersion ? `@${record.libVersion}` : ''
  return `${record.lib}${version}${variant !== RECORD_DEFAULTS.variant ? `:${variant}` : ''}${workload !== RECORD_DEFAULTS.workload ? ` ${workload}` : ''}`
}

// A library as tables and charts name it: with its variant, and its version where it was asked for by
// one (pino@9.14.0, winston@2.4.7 beside winston@3.19.0), without the workload.
export const libraryName = (record) =>
  runName({ lib: record.lib, variant: record.variant, libRange: record.libRange, libVersion: record.libVersion })

// The results list runs in the order they ran (interleaved: shuffled rounds); exporters show cells in
// the order of the plan. Each run records its cell's position in the whole plan (planIndex, shards
// included); runs without one (older files) keep their place before the others.
export function inPlanOrder (runs) {
  if (!runs.some((r) => r.planIndex != null)) return runs
  return runs.map((run, index) => ({ run, index }))
    .sort((a, b) => ((a.run.planIndex ?? -1) - (b.run.planIndex ?? -1)) || a.index - b.index)
    .map(({ run }) => run)
}

export function cellStatus (runs) {
  if (runs.every((r) => r.status === 'unsupported')) return 'unsupported'
  if (runs.every((r) => r.ok)) return 'ok'
  if (runs.some((r) => r.ok)) return 'partial'
  return 'failed'
}
