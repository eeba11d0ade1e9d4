// index.d.ts, derived: scripts/index.d.ts.template (the hand-written part: the emitter, the
// comparison, the functions' signatures) with each API option from the option tables
// (src/api/option-tables.js) and the results document's types from schema/results.schema.json filled
// in. npm run docs:options writes it; test/options.test.js fails when it is out of date, and
// test/types.test.js type-checks every option with tsc --strict.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { COMPARE_OPTIONS, HTTP_OPTIONS, REPORT_OPTIONS, RUN_OPTIONS } from '../src/api/option-tables.js'
import { camel } from '../src/api/options.js'
import { RESULTS_SCHEMA } from '../src/results/schema.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const TEMPLATE = path.join(ROOT, 'scripts', 'index.d.ts.template')
// The API functions that take an option table (src/api/index.js): merge and sink are the CLI's alone.
export const API_TABLES = { run: RUN_OPTIONS, http: HTTP_OPTIONS, compare: COMPARE_OPTIONS, report: REPORT_OPTIONS }
// The schema's definitions under their TypeScript names; `record` is either type's record.
const TYPE_NAMES = { env: 'ResultsEnv', record: 'RunRecord', runRecord: 'RunTypeRecord', httpRecord: 'HttpRecord' }

const literal = (value) => (typeof value === 'string' ? `'${value.replace(/[\\']/g, '\\$&')}'` : JSON.stringify(value))
const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name))
const WIDTH = 110

// A JSDoc comment, wrapped at WIDTH columns.
function comment (text, indent) {
  if (!text) return ''
  const words = String(text).replace(/\*\//g, '*\u2215').split(/\s+/).filter(Boolean)
  const one = `${indent}/** ${words.join(' ')} */`
  if (one.length <= WIDTH) return `${one}\n`
  const lines = []
  let line = ''
  for (const word of words) {
    if (line && indent.length + 3 + line.length + 1 + word.length > WIDTH) {
      lines.push(line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  lines.push(line)
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}\n`).join('')}${indent} */\n`
}

// The keys an option goes by in the API (argvFromApi, src/api/options.js): its scenario key and its
// camelCase name.
export function apiKeys (option) {
  return [...new Set([option.scenario, camel(option.name)].filter(Boolean))]
}

// An option's TypeScript type: what argvFromApi takes for it.
export function optionType (option) {
  if (option.type === 'boolean') return 'boolean'
  const one = option.values ? option.values.map(literal).join(' | ') : option.int || option.seconds || option.numeric ? 'number | string' : 'string'
  if (!option.list || option.one) return one
  return one === 'string' ? 'List' : `List<${one}>`
}

function optionMembers (table) {
  return table.filter((option) => !option.cliOnly).map((option) => {
    const [first, ...aliases] = apiKeys(option)
    const member = (name) => `  ${key(name)}?: ${optionType(option)}\n`
    return comment(`--${option.name}: ${option.describe}`, '  ') + member(first) + aliases.map((alias) => comment(`As \`${first}\`.`, '  ') + member(alias)).join('')
  }).join('')
}

// A JSON Schema (the subset results.schema.json uses) as a TypeScript type.
export function schemaType (schema, indent = '') {
  if (schema.$ref) return TYPE_NAMES[schema.$ref.replace('#/$defs/', '')] ?? 'unknown'
  if (schema.then) return [conditional(schema), schema.else && schemaType(schema.else, indent)].filter(Boolean).join(' | ')
  if ('const' in schema) return literal(schema.const)
  if (schema.enum) return schema.enum.map(literal).join(' | ')
  const types = [schema.type ?? []].flat()
  if (types.length === 0) return 'unknown'
  return [...new Set(types.map((type) => {
    if (type === 'integer' || type === 'number') return 'number'
    if (type === 'array') return schema.items ? `Array<${schemaType(schema.items, indent)}>` : 'unknown[]'
    if (type === 'object') return objectType(schema, indent)
    return type
  }))].join(' | ')
}

// The `then` of an if/then: its type, with the fields the `if` requires set to the constants it
// names (an http record always says `type: 'http'`), so that TypeScript can tell the types apart.
function conditional ({ if: condition = {}, then }) {
  const known = (condition.required ?? []).filter((field) => 'const' in (condition.properties?.[field] ?? {}))
  const type = schemaType(then)
  return known.length ? `(${type} & { ${known.map((field) => `${key(field)}: ${literal(condition.properties[field].const)}`).join(', ')} })` : type
}

function objectType (schema, indent) {
  const properties = Object.entries(schema.properties ?? {})
  const rest = schema.additionalProperties
  if (properties.length === 0) return typeof rest === 'object' ? `Record<string, ${schemaType(rest, indent)}>` : 'Record<string, unknown>'
  const inner = `${indent}  `
  const required = new Set(schema.required ?? [])
  const members = properties.map(([name, property]) => `${comment(property.description, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${schemaType(property, inner)}\n`)
  return `{\n${members.join('')}${indent}}`
}

function schemaTypes () {
  const { $defs: defs, description, properties, required } = RESULTS_SCHEMA
  const named = Object.entries(TYPE_NAMES).map(([name, typeName]) => {
    const schema = defs[name]
    const type = schemaType(schema)
    return `${comment(schema.description, '')}export ${type.startsWith('{') ? `interface ${typeName} ` : `type ${typeName} = `}${type}\n`
  })
  return [`${comment(description, '')}export interface ResultsDocument ${objectType({ properties, required }, '')}\n`, ...named].join('\n')
}

export function indexTypes () {
  let text = fs.readFileSync(TEMPLATE, 'utf8')
  const fill = (marker, content) => {
    if (!text.includes(marker)) throw new Error(`scripts/index.d.ts.template has no ${marker}`)
    text = text.replace(new RegExp(`^ *${marker.replace(/[*/]/g, '\\$&')}\n`, 'm'), () => content)
  }
  fill('/* generated */', '// Generated by npm run docs:options from scripts/index.d.ts.template, the option tables and\n// schema/results.schema.json: edit those, not this file.\n')
  for (const [command, table] of Object.entries(API_TABLES)) fill(`/* options:${command} */`, optionMembers(table))
  fill('/* schema */', schemaTypes())
  return text
}
