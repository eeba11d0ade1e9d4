import { MAX_RUNS, MAX_SIZE_BYTES, MAX_WORKERS } from '../../limits.js'

// Checks a run type's validate() shares: each returns the problem in words, or null.

export const MAX_NAME = 200

// A file's value in an error: short, one line.
export function shown (value) {
  // JSON has no Infinity: a number beyond a double's range (1e400) is read as one, and JSON.stringify would show it as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : `${value < 0 ? '-' : ''}a number beyond a double's range (such as 1e400), read as ${value}`
  let text
  try { text = JSON.stringify(value) ?? String(value) } catch { text = typeof value }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

// A record in an error message: its library, transport, workers and run number, as far as it has them.
export function describeRecord (run) {
  const name = (v) => (typeof v === 'string' ? v.slice(0, MAX_NAME) : null)
  return [name(run.lib), name(run.transport), Number.isInteger(run.cpus) ? `${run.cpus} cpus` : null, Number.isInteger(run.run) ? `run ${run.run}` : null].filter(Boolean).join(' ')
}

export function missingField (run, fields) {
  const missing = fields.find((field) => !(field in run))
  return missing === undefined ? null : `is missing field "${missing}"`
}

export function badName (run, fields) {
  for (const field of fields) {
    if (typeof run[field] !== 'string' || run[field] === '' || run[field].length > MAX_NAME) return `${field} must be a name of 1 to ${MAX_NAME} characters, got ${shown(run[field])}`
  }
  return null
}

// [field, min, max]: whole numbers within the command line's own limits (a file is input like an option).
export const COMMON_IDENTITY = [['cpus', 1, MAX_WORKERS], ['size', 1, MAX_SIZE_BYTES], ['run', 1, MAX_RUNS]]

export function outOfRange (run, limits) {
  for (const [field, min, max] of limits) {
    if (!Number.isInteger(run[field]) || run[field] < min || run[field] > max) return `${field} must be an integer from ${min} to ${max.toLocaleString('en-US')} (the command line's limit), got ${shown(run[field])}`
  }
  return null
}

// The checks every run type starts with: its fields present, lib and transport names, its
// identity's numbers in range. { record, problem } (said of the record) | { field, problem } | { problem } | null.
export function basicProblem (run, { fields, ranges }) {
  const missing = missingField(run, fields)
  if (missing) return { record: true, problem: missing }
  const name = badName(run, ['lib', 'transport'])
  if (name) return { field: true, problem: name }
  const range = outOfRange(run, ranges)
  return range ? { problem: range } : null
}
