import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import Ajv from 'ajv/dist/2020.js'
import { UsageError } from '../errors.js'
import { readJsonFile } from '../results/json-file.js'
import { comparisonGroupKey } from '../results/model.js'
import { SCENARIOS_DIR, shippedScenarios } from '../shipped-scenarios.js'
import { DEFAULT_VARIANT } from '../loggers/index.js'
import { cellUnsupported } from '../runner/unsupported.js'
import { formatCount } from '../draw/labels.js'
import { middlewareUnsupportedReason } from '../http/request-loggers.js'
import { BASELINE } from '../results/http-summary.js'
import { HTTP_SETUP_MS, RULE_WORDS, runEstimateMs } from '../runner/estimate.js'
import { minOf } from '../stats.js'
import { checkCores } from '../engine/cores.js'

const SCHEMA_FILE = path.join(SCENARIOS_DIR, 'schema.json')
let validator = null

function validate (scenario) {
  if (!validator) {
    const ajv = new Ajv({ allErrors: false, strict: true, strictRequired: false })
    validator = ajv.compile(JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')))
  }
  return validator(scenario) ? null : validator.errors[0]
}

// A scenario given as a path (relative to the current directory), else as the name of a shipped
// one ("quick" or "quick.json"). label: how messages name it.
export function resolveScenario (given) {
  const text = String(given)
  const resolved = path.resolve(text)
  if (fs.existsSync(resolved)) {
    if (fs.statSync(resolved).isDirectory()) throw new UsageError(`--scenario ${text} is a directory: give a scenario file or the name of a shipped scenario (see log-bench list)`)
    return { file: resolved, label: text }
  }
  const shipped = shippedScenarios()
  const byName = !/[\\/]/.test(text) && shipped.find((s) => s.name === text.replace(/\.json$/, ''))
  if (byName) {
    const relative = path.relative(process.cwd(), byName.file)
    return { file: byName.file, label: relative.startsWith('..') ? byName.file : relative }
  }
  throw new UsageError(`scenario not found: ${text} is neither a file nor a shipped scenario (${shipped.map((s) => s.name).join(', ')}; see log-bench list)`)
}

// Reads a scenario and checks it against scenarios/schema.json; any problem is one line naming
// the file, the field and what is allowed.
export function loadScenario (given) {
  const { file: resolved, label: file } = resolveScenario(given)
  const scenario = readJsonFile(resolved, { label: file, what: 'a scenario file (scenarios/*.json)' })
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

// Keys a run group took under another name: the refusal says what is right now.
const RENAMED = { rate: ' (a run group\'s rates are a list now: "rates": [1000] for one rate, as --rate 1000,10000 makes one cell per rate)' }

function describeError (error) {
  const field = error.instancePath === '' ? 'the top level' : `field ${error.instancePath.slice(1).replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}`
  const p = error.params
  switch (error.keyword) {
    case 'additionalProperties': return `${field} has an unknown field "${p.additionalProperty}"${RENAMED[p.additionalProperty] ?? ''}`
    case 'required': return `${field} misses the required field "${p.missingProperty}"`
    case 'enum': return `${field} must be one of ${p.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
    case 'anyOf': return `${field} needs a "run" or an "http" list of cells`
    default: return `${field} ${error.message}`
  }
}

// The cells of shard k/n: whole comparison groups (every library and run of one transport × workers
// × workload × size × receiving end × events, or of one http load), so that the cells a table or a
// verdict compares are measured on one machine. Groups go to shards by estimated cost, largest first,
// each to the shard with the least so far (ties: the lower shard), so shards take about as long as
// each other and the split is the same on every machine. Cells keep their plan order.
export function selectShard (cells, shard) {
  if (!shard) return cells
  const owner = assignGroups(cells, shard.n)
  return cells.filter((cell) => owner.get(comparisonGroupKey(cell.settings)) === shard.k)
}

export function assignGroups (cells, n) {
  const groups = new Map()
  for (const cell of cells) {
    const key = comparisonGroupKey(cell.settings)
    groups.set(key, (groups.get(key) ?? 0) + estimatedCostMs(cell))
  }
  // Each group goes to the first of the least-loaded shards, so shards past the number of groups
  // never receive one: no more shards are counted than there are groups.
  const load = Array.from({ length: Math.min(n, groups.size) }, () => 0)
  const owner = new Map()
  const byCost = [...groups.entries()].map(([key, cost], index) => ({ key, cost, index }))
    .sort((a, b) => b.cost - a.cost || a.index - b.index)
  for (const { key, cost } of byCost) {
    const k = load.indexOf(minOf(load))
    load[k] += cost
    owner.set(key, k + 1)
  }
  return owner
}

// A rough time for all runs of a cell (src/runner/estimate.js's rule), to balance shards.
export function estimatedCostMs (cell) {
  if (cell.unsupported) return 0
  return cell.runs * runEstimateMs(cell.settings)
}

// The size of a `run` plan from its checked options (parseRunOptions), counted without building
// its cells (a plan of millions of cells took a minute to build): { cells, runs, costMs }, where
// runs and costMs (estimatedCostMs's) leave out the unsupported cells, which are recorded, not run.
export function runPlanSize (options) {
  const rates = options.rates ?? [null]
  const cores = checkCores(options.cores)
  const bursts = options.bursts ?? [null]
  const alike = options.runtimes.length * options.sizes.length * options.endings.length *
    rates.length * bursts.length * cores.length
  const size = { cells: 0, runs: 0, costMs: 0 }
  for (const transport of options.transports) {
    for (const lib of options.libs) {
      for (const workload of options.workloads) {
        size.cells += alike * options.cpus.length
        if (cellUnsupported(lib, lib.variant ?? DEFAULT_VARIANT, transport, workload)) continue
        size.runs += alike * options.cpus.length * options.runs
        for (const cpus of options.cpus) {
          for (const rate of rates) {
            const costMs = runEstimateMs({ type: 'run', lib: lib.name, transport, events: options.events, cpus, rate, measure: options.counter ? 'instructions' : null })
            size.costMs += (alike / rates.length) * options.runs * costMs
          }
        }
      }
    }
  }
  return size
}

// The size of an `http` plan from its checked options (parseHttpOptions), counted without building
// its cells, as runPlanSize: the cells planHttpCells makes (src/http/matrix.js), the runs of those a
// request logger can run (other unsupported cells are rare and counted as run: an estimate on the
// long side), each the load's warm-up and duration plus its set-up (estimatedCostMs).
export function httpPlanSize ({ libs, transports, cpus, mode, logsPerRequest, sizes, load, runs, runtimes = [null] }) {
  const alike = transports.length * cpus.length * runtimes.length
  const middlewareLibs = libs.filter((l) => l.name === BASELINE || !middlewareUnsupportedReason(l.name)).length
  // With --middleware, the route at 0 logs per request runs first as the control (one size).
  const cells = alike * (mode === 'middleware' ? middlewareLibs + sizes.length * libs.length : logsPerRequest.length * sizes.length * libs.length)
  const run = alike * runs * (mode === 'middleware' ? middlewareLibs + sizes.length * middlewareLibs : logsPerRequest.length * sizes.length * libs.length)
  return { cells, runs: run, costMs: run * runEstimateMs({ type: 'http', ...load }) }
}

// Past either, a plan starts only when asked to (--yes, the API's yes: true).
export const PLAN_LIMIT = { runs: 100_000, hours: 24 }

// Refuses a plan past PLAN_LIMIT, with its size and how to go on: one line, before anything starts.
export function refuseHugePlan ({ cells, runs, costMs }, yes) {
  const hours = costMs / 3_600_000
  if (yes || (runs <= PLAN_LIMIT.runs && hours <= PLAN_LIMIT.hours)) return
  throw new UsageError(`this plan is ${formatCount(runs)} runs of ${formatCount(cells)} cells, at least ${formatCount(Math.ceil(hours))} hours by a rough estimate (${RULE_WORDS}; for http, the load's warm-up and duration and ${HTTP_SETUP_MS / 1000} s of set-up a run); past ${formatCount(PLAN_LIMIT.runs)} runs or ${PLAN_LIMIT.hours} hours log-bench asks first: add --yes to start it, or give fewer --cpus, --events, --runs, libraries or seconds of --duration`)
}
