import { RUN_TYPE } from './run-types/run.js'
import { summarizeType } from './run-types/index.js'
import { RESULTS_SCHEMA } from './schema.js'

// The results model: a document of runs and their summary. The reading of a record's fields is in
// record.js, cell keys and summaries of every run type in run-types/; both are re-exported here
// for the readers of a results document.
export { RECORD_DEFAULTS, cellStatus, defaultSink, dimensionValue, inPlanOrder, runTypeName, workersLabel } from './record.js'
export { CELL_FIELDS, COMPARED_DIMENSIONS, cellKey, cellWords, varyingDimensions, comparisonGroupKey, ofType, recordedSettings, runsByCell, runTypeOf, RUN_TYPES, measureNamed } from './run-types/index.js'

// The version of the results document (schema/results.schema.json), bumped on any incompatible change.
export const SCHEMA_VERSION = RESULTS_SCHEMA.properties.schema.const

// What kind of failure a failed or skipped record holds, as data (see RunFailure in src/errors.js):
// { kind: 'timeout', limitS, afterRun? } | { kind: 'out-of-memory' } | { kind: 'killed', signal }
// | { kind: 'crashed', exitCode } | { kind: 'nothing-arrived' } | { kind: 'error' }; null for any other record. Records
// written before the `failure` field have only the sentence: for them alone the kind is read from the words log-bench
// wrote then.
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

export function createDocument (env) {
  return { schema: SCHEMA_VERSION, tool: 'log-bench', kind: 'results', complete: false, interrupted: false, env, runs: [], summary: [] }
}

// The summary entries of `run` cells (see summarizeType: one entry per cell, every summarised
// measure described, doneMs as a multiple of the raw baseline of the same cell).
export function summarize (runs) {
  return summarizeType(RUN_TYPE, runs)
}
