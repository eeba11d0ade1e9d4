import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Ajv from 'ajv/dist/2020.js'
import { UsageError } from '../errors.js'

const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scenarios/schema.json')
let validator = null

function validate (scenario) {
  if (!validator) {
    const ajv = new Ajv({ allErrors: false, strict: true, strictRequired: false })
    validator = ajv.compile(JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')))
  }
  return validator(scenario) ? null : validator.errors[0]
}

// Reads a scenario and checks it against scenarios/schema.json; any problem is one line naming
// the file, the field and what is allowed.
export function loadScenario (file) {
  const resolved = path.resolve(file)
  if (!fs.existsSync(resolved)) throw new UsageError(`scenario file not found: ${file}`)
  let scenario
  try {
    scenario = JSON.parse(fs.readFileSync(resolved, 'utf8'))
  } catch (err) {
    throw new UsageError(`${file}: not valid JSON (${err.message})`)
  }
  const error = validate(scenario)
  if (error) throw new UsageError(`${file}: ${describeError(error)}`)
  return {
    ...scenario,
    file: resolved,
    id: createHash('sha256').update(JSON.stringify(withoutOutput(scenario))).digest('hex').slice(0, 16)
  }
}

// The output path is where results go, not what is measured: moving it keeps the scenario the same.
function withoutOutput ({ output, description, $schema, ...measured }) {
  return measured
}

function describeError (error) {
  const field = error.instancePath === '' ? 'the top level' : `field ${error.instancePath.slice(1).replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}`
  const p = error.params
  switch (error.keyword) {
    case 'additionalProperties': return `${field} has an unknown field "${p.additionalProperty}"`
    case 'required': return `${field} misses the required field "${p.missingProperty}"`
    case 'enum': return `${field} must be one of ${p.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
    case 'anyOf': return `${field} needs a "run" or an "http" list of cells`
    default: return `${field} ${error.message}`
  }
}

// The cells of a shard k/n: every n-th cell starting at the k-th, of the full cell list in its
// planned order, so that shards are deterministic and each gets a similar mix of cells.
export function parseShard (text) {
  const match = /^(\d+)\/(\d+)$/.exec(String(text).trim())
  const k = match && Number(match[1])
  const n = match && Number(match[2])
  if (!match || n < 1 || k < 1 || k > n) throw new UsageError(`--shard must be k/n with 1 <= k <= n (e.g. 1/2), got "${text}"`)
  return { k, n }
}

export function selectShard (cells, shard) {
  if (!shard) return cells
  return cells.filter((_, index) => index % shard.n === shard.k - 1)
}
