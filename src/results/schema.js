import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Ajv from 'ajv/dist/2020.js'

// The one definition of the results document: schema/results.schema.json (shipped in the package).
// The reader's checks (run-types/checks.js), the CSV columns, docs/results.md's field tables
// (npm run docs:results) and the API's types come from it. A field of a run record is one entry
// under $defs.runRecord (or httpRecord) with its type, limits, unit (x-unit) and meaning.

export const RESULTS_SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'schema', 'results.schema.json')
export const RESULTS_SCHEMA = JSON.parse(fs.readFileSync(RESULTS_SCHEMA_FILE, 'utf8'))

// Annotations of ours beside the standard keywords: a figure's unit, and the reason for a maximum.
const ANNOTATIONS = ['x-unit', 'x-limit']

// The validator of one run record (by its type: $defs.record). Every error is reported (allErrors),
// so that the reader can pass the fields it does not know (additionalProperties) and still see the rest.
export function compileRecordValidator () {
  const ajv = new Ajv({ allErrors: true, strict: true })
  for (const keyword of ANNOTATIONS) ajv.addKeyword(keyword)
  ajv.addSchema(RESULTS_SCHEMA, 'results')
  return ajv.getSchema('results#/$defs/record')
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
