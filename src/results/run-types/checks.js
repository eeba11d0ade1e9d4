import { recordDefinition } from '../schema.js'
import { validateRecord } from '../validators.js'
import { workersLabel } from '../record.js'

// The checks of a record read from a file, from the results schema (src/results/schema.js): each
// problem in words, naming the field, what it must be and what it was.

const NAME_LIMIT = 200

// A file's value in an error: short, one line.
export function shown (value) {
  // JSON has no Infinity: a number beyond a double's range (1e400) is read as one, and JSON.stringify
  // would show it as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : `${value < 0 ? '-' : ''}a number beyond a double's range (such as 1e400), read as ${value}`
  let text
  try { text = JSON.stringify(value) ?? String(value) } catch { text = typeof value }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

// A record in an error message: its library, transport, workers and run number, as far as it has them.
export function describeRecord (run) {
  const name = (v) => (typeof v === 'string' ? v.slice(0, NAME_LIMIT) : null)
  return [name(run.lib), name(run.transport), Number.isInteger(run.cpus) ? workersLabel(run.cpus) : null, Number.isInteger(run.run) ? `run ${run.run}` : null].filter(Boolean).join(' ')
}

// What a field's schema asks for, in words: "an integer from 1 to 256 (the command line's limit)",
// "a share from 0 to 1 or null", "a whole number of events or null".
export function expectation (schema) {
  const types = [schema.type ?? []].flat()
  const orNull = types.includes('null') ? ' or null' : ''
  const limit = schema['x-limit'] ? ` (${schema['x-limit']})` : ''
  if (schema.enum) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  if (types.includes('string') && schema.maxLength) return `a name of ${schema.minLength ?? 0} to ${schema.maxLength} characters${orNull}`
  if (types.includes('integer')) {
    if (schema.maximum != null) return `an integer from ${schema.minimum ?? 0} to ${schema.maximum.toLocaleString('en-US')}${limit}${orNull}`
    const unit = schema['x-unit'] && !/\//.test(schema['x-unit']) ? ` of ${schema['x-unit']}` : ''
    return `a whole number${unit}${schema.minimum != null ? ` >= ${schema.minimum}` : ''}${orNull}`
  }
  if (types.includes('number')) {
    if (schema.minimum === 0 && schema.maximum === 1) return `a share from 0 to 1${orNull}`
    return `a finite number${schema.minimum != null ? ` >= ${schema.minimum}` : ''}${orNull}`
  }
  if (types.includes('string')) return `a string${orNull}`
  if (types.includes('boolean')) return `true or false${orNull}`
  if (types.includes('array')) return `an array${entries(schema)}${orNull}`
  if (types.includes('object')) return `an object${orNull}`
  return 'as the schema says'
}

// An array's bounds in words: " of 1 to 20 entries", " of at most 100,000 entries", or none.
function entries ({ minItems, maxItems }) {
  const count = (n) => n.toLocaleString('en-US')
  if (minItems != null && maxItems != null) return minItems === maxItems ? ` of ${count(minItems)} entries` : ` of ${count(minItems)} to ${count(maxItems)} entries`
  if (maxItems != null) return ` of at most ${count(maxItems)} entries`
  if (minItems) return ` of at least ${count(minItems)} entr${minItems === 1 ? 'y' : 'ies'}`
  return ''
}

// The first problem of a record of a type the schema defines, or null: { record: true, problem }
// for a missing field (said of the record), { field: true, problem } for a bad name, { problem }
// for any other value. Fields the schema does not know pass (a newer or older writer's).
export function schemaProblem (run, typeName) {
  const definition = recordDefinition(typeName)
  if (!definition) return null
  validateRecord(run)
  const found = validateRecord.errors ?? []
  const errors = found.filter((e) => e.keyword !== 'additionalProperties' && e.keyword !== 'if' && e.instancePath !== '')
  const missing = found.find((e) => e.keyword === 'required' && e.instancePath === '')
  if (missing) return { record: true, problem: `is missing field "${missing.params.missingProperty}"` }
  if (errors.length === 0) return null
  const order = Object.keys(definition.properties)
  const topField = (e) => e.instancePath.split('/')[1]
  const first = errors.sort((a, b) => order.indexOf(topField(a)) - order.indexOf(topField(b)))[0]
  const [, field, ...inner] = first.instancePath.split('/')
  const where = field + inner.map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`)).join('')
  const schema = schemaAt(definition.properties[field], inner)
  const value = valueAt(run, [field, ...inner])
  const problem = first.keyword === 'required'
    ? `${where} is missing field "${first.params.missingProperty}"`
    : first.keyword === 'maxItems'
      ? `${where} must hold at most ${first.params.limit} entries, got ${value.length}`
      : `${where} must be ${expectation(schema ?? {})}, got ${shown(value)}`
  return definition.properties[field]?.maxLength && inner.length === 0 ? { field: true, problem } : { problem }
}

// The schema of a nested value: inner is the path below the field (array indexes and property names).
function schemaAt (schema, inner) {
  let at = schema
  for (const part of inner) {
    if (!at) return null
    at = /^\d+$/.test(part) ? at.items : at.properties?.[part]
  }
  return at
}

function valueAt (run, parts) {
  return parts.reduce((value, part) => value?.[part], run)
}
