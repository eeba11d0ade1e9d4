import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { dimensionValue, RECORD_DEFAULTS } from './record.js'

// The one definition of the results document: schema/results.schema.json (shipped in the package).
// The reader's checks (run-types/checks.js), the CSV columns, docs/results.md's field tables
// (npm run docs:results), the API's types and each run type's dimensions, summary identity,
// measures and what a counted run leaves out come from it. A field of a run record is one entry
// under $defs.runRecord (or httpRecord) with its type, limits, unit (x-unit), meaning and role
// (the annotations below; docs/results.md, "Annotations").

export const RESULTS_SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'schema', 'results.schema.json')
export const RESULTS_SCHEMA = JSON.parse(fs.readFileSync(RESULTS_SCHEMA_FILE, 'utf8'))

// Annotations of ours beside the standard keywords (the validator's strict mode refuses keywords it
// was not told of): a figure's unit, the reason for a maximum, and a field's role in its run type.
// The validators of a run record ($defs.record) and of a document's env are compiled from the schema
// ahead of time, into src/results/validators.js (scripts/results-validators.js).
export const ANNOTATIONS = ['x-unit', 'x-limit', 'x-dimension', 'x-dimensions-from', 'x-identity', 'x-measure', 'x-counted']

// A document's env: its machine, its load, its order and --runs auto's designs.
export const ENV_SCHEMA = RESULTS_SCHEMA.$defs.env

// The schema of the value at a path below `schema` (array indexes and property names), following
// the references ($ref) of this schema; null where the schema says nothing of it.
export function schemaBelow (schema, parts) {
  const resolve = (at) => (at?.$ref ? at.$ref.slice(2).split('/').reduce((into, key) => into?.[key], RESULTS_SCHEMA) : at)
  let at = resolve(schema)
  for (const part of parts) {
    if (!at) return null
    at = resolve(/^\d+$/.test(part) ? at.items : at.properties?.[part])
  }
  return at ?? null
}

// The record definition of a run type's name ('run' → runRecord), or null for types it does not define.
export function recordDefinition (typeName) {
  return RESULTS_SCHEMA.$defs[`${typeName}Record`] ?? null
}

// The fields a run type's records carry, in the schema's order: [{ field, schema }].
export function recordFields (typeName) {
  return Object.entries(recordDefinition(typeName)?.properties ?? {}).map(([field, schema]) => ({ field, schema }))
}

export const ENV_REQUIRED = RESULTS_SCHEMA.$defs.env.required

// What identifies a cell of a type, in key order: the dimensions of the type its record names in
// x-dimensions-from (an http cell is a run cell's dimensions, then its load), then the fields marked
// x-dimension, by their number. The number is the field's place in the cell key (the JSON of the
// dimensions' values in order): renumbering changes every cell key, and --resume and merge with
// them, so a number must run on from the last (an error at load says otherwise).
export function recordDimensions (typeName) {
  const definition = recordDefinition(typeName)
  const inherited = definition['x-dimensions-from'] ? recordDimensions(definition['x-dimensions-from']) : []
  const own = recordFields(typeName).filter(({ schema }) => schema['x-dimension'] != null).sort((a, b) => a.schema['x-dimension'] - b.schema['x-dimension'])
  own.forEach(({ field, schema }, index) => {
    if (schema['x-dimension'] !== inherited.length + index + 1) throw new Error(`schema/results.schema.json: ${typeName}Record's ${field} has x-dimension ${schema['x-dimension']}, expected ${inherited.length + index + 1}`)
  })
  return [...inherited, ...own.map(({ field }) => field)]
}

// The fields of a cell's summary entry that say what it is, in the schema's order: the record's own
// dimensions but its type, and what describes the cell without telling cells apart (x-identity: a
// library's version range, an http request logger's version).
export function identityFields (typeName) {
  const dimensions = recordDimensions(typeName)
  return recordFields(typeName).filter(({ field, schema }) => field !== 'type' && (dimensions.includes(field) || schema['x-identity'])).map(({ field }) => field)
}

// A cell's summary identity from its first run: each identity field as the run has it (null where
// it lacks one), a field with a default (variant, workload, ending, measure) read with it.
export function identityReader (typeName) {
  const fields = identityFields(typeName)
  return (first) => Object.fromEntries(fields.map((field) =>
    [field, Object.hasOwn(RECORD_DEFAULTS, field) ? dimensionValue(first, field) : first[field] ?? null]))
}

// What a counted run (--measure instructions) leaves out, null in its record (x-counted: false):
// times, rates and CPU under the simulator are not times, and memory under valgrind is valgrind's.
export function uncountedFields (typeName) {
  return recordFields(typeName).filter(({ schema }) => schema['x-counted'] === false).map(({ field }) => field)
}

// A type's measures, in their order (x-measure's `order`): { field, unit, shownIn?, better,
// summary?, compare?, noise?, title?, value?, compareValue? }. x-measure sits on a record's field
// (the measure reads that field and is named after it) or on a member of an object field (it reads
// that member and has a `name`); a field may hold a list of them. The unit is x-measure's, else the
// field's x-unit. `code` gives, by measure name, what cannot be JSON: `value` for a measure read
// some other way than its field or member, `compareValue` where compare reads the run differently
// from the summary. A measure named apart from what it reads needs a value; code for a measure the
// schema does not have is an error.
export function recordMeasures (typeName, code = {}) {
  const found = []
  for (const { field, schema } of recordFields(typeName)) {
    for (const measure of [schema['x-measure'] ?? []].flat()) found.push({ measure, source: schema, read: { field } })
    for (const [member, inner] of Object.entries(schema.properties ?? {})) {
      for (const measure of [inner['x-measure'] ?? []].flat()) found.push({ measure, source: inner, read: { field, member } })
    }
  }
  const measures = found.sort((a, b) => a.measure.order - b.measure.order).map(({ measure, source, read }) => {
    const name = measure.name ?? read.field
    const unknownKey = Object.keys(measure).find((key) => !MEASURE_KEYS.includes(key))
    if (unknownKey) throw new Error(`schema/results.schema.json: ${typeName}'s measure ${name} has x-measure "${unknownKey}", not one of ${MEASURE_KEYS.join(', ')}`)
    const { value, compareValue } = code[name] ?? {}
    const reads = read.member != null ? (r) => r[read.field]?.[read.member] : name === read.field ? undefined : null
    if (value === undefined && reads === null) throw new Error(`${typeName}'s measure ${name} (on ${read.field}) needs a value function: it is named apart from the field it reads`)
    return omitUndefined({ field: name, unit: measure.unit ?? source['x-unit'], shownIn: measure.shownIn, better: measure.better, summary: measure.summary, compare: measure.compare, noise: measure.noise, title: measure.title, value: value ?? reads, compareValue })
  })
  const unknown = Object.keys(code).filter((name) => !measures.some((m) => m.field === name))
  if (unknown.length) throw new Error(`${typeName}'s code for measures the schema does not define: ${unknown.join(', ')}`)
  return measures
}

// A type's dimensions in words, in the order a cell's name says them: [{ field, words, of? }].
// `code` gives, per dimension, words(value, record) → its words, or null where there is nothing to
// say (a version the library's name carries already, a runtime not recorded), and optionally `of`:
// the dimension it qualifies (a library's version qualifies the library: it tells cells apart only
// where one library has two). The order of `code` is the order of the words. A dimension without
// words is an error here, when the run types load: a new x-dimension cannot go unnamed in every
// table, page and comparison that tells cells apart (a generic "field value" would read as a name
// the project chose); words for a field that is no dimension are an error too.
export function dimensionWords (typeName, code) {
  const dimensions = recordDimensions(typeName)
  const missing = dimensions.filter((field) => typeof code[field]?.words !== 'function')
  if (missing.length) throw new Error(`${typeName}'s dimensions without words: ${missing.join(', ')} (each x-dimension of schema/results.schema.json needs its words in the run type's module, src/results/run-types/)`)
  const unknown = Object.keys(code).filter((field) => !dimensions.includes(field))
  if (unknown.length) throw new Error(`${typeName}'s words for fields that are no dimension: ${unknown.join(', ')}`)
  const unplaced = Object.entries(code).filter(([, d]) => d.title && !(Number.isFinite(d.titleAt) && typeof d.tag === 'function'))
  if (unplaced.length) throw new Error(`${typeName}'s dimensions with a page title but no tag or titleAt (where a group's title says it): ${unplaced.map(([field]) => field).join(', ')}`)
  // A dimension's descriptor: its words, and where it has them its page title, file tag and place in
  // a title, and the value a CI benchmark name leaves unsaid (src/results/run-types/run.js).
  return Object.entries(code).map(([field, { words, of, title, tag, titleAt, unsaidAt }]) => ({
    field,
    words,
    ...(of ? { of } : {}),
    ...(title ? { title, tag, titleAt } : {}),
    ...(unsaidAt !== undefined ? { unsaidAt } : {})
  }))
}

const MEASURE_KEYS = ['order', 'name', 'unit', 'shownIn', 'better', 'summary', 'compare', 'noise', 'title']
const omitUndefined = (object) => Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined))

// A record's measures before anything is measured (a run that failed to start, was skipped or is
// unsupported): every field of the type that can be null, null (a time series: empty), except its
// identity (`except`: the type's dimensions) and the fields written by older versions only.
export function emptyMeasures (typeName, except) {
  const empty = {}
  for (const { field, schema } of recordFields(typeName)) {
    if (except.includes(field) || field === 'error' || schema.deprecated) continue
    const types = [schema.type ?? []].flat()
    if (types.includes('array')) empty[field] = []
    else if (types.includes('null')) empty[field] = null
  }
  return empty
}

// A field's type in words for the docs: "integer 1 to 256", "number or null", "object".
function typeText (schema) {
  if (schema.enum) return schema.enum.filter((v) => v !== null).map((v) => JSON.stringify(v)).join(', ') + (schema.enum.includes(null) ? ', null' : '')
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  const types = [schema.type ?? 'any'].flat()
  const range = schema.maximum != null ? ` ${schema.minimum ?? 0} to ${schema.maximum.toLocaleString('en-US')}` : schema.minimum != null ? ` ≥ ${schema.minimum}` : ''
  return types.map((t) => (t === 'null' ? t : `${t}${t === 'integer' || t === 'number' ? range : ''}`)).join(' or ')
}

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ')

// docs/results.md's table of a run type's record fields (npm run docs:results writes it, a test
// checks it): neighbours with one meaning share a row.
export function fieldsMarkdown (typeName) {
  const definition = recordDefinition(typeName)
  const rows = []
  for (const [field, schema] of Object.entries(definition.properties)) {
    const required = definition.required.includes(field)
    const name = `\`${field}\`${required ? '' : '?'}`
    const last = rows.at(-1)
    const type = typeText(schema)
    if (last && last.description === schema.description && last.type === type && last.unit === (schema['x-unit'] ?? '')) {
      last.names.push(name)
      continue
    }
    rows.push({ names: [name], type, unit: schema['x-unit'] ?? '', description: `${schema.deprecated ? '(deprecated) ' : ''}${schema.description ?? ''}` })
  }
  return ['| field | type | unit | meaning |', '|---|---|---|---|', ...rows.map((r) => `| ${r.names.join(', ')} | ${cell(r.type)} | ${cell(r.unit)} | ${cell(r.description)} |`)].join('\n')
}
