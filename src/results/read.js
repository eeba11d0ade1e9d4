import fs from 'node:fs'
import { UsageError } from '../errors.js'
import { readJsonFile } from './json-file.js'
import { cellKey, inPlanOrder, runTypeName, SCHEMA_VERSION, workersLabel } from './model.js'
import { runTypeOf } from './run-types/index.js'
import { describeRecord, expectation, shown } from './run-types/checks.js'
import { roundsOf } from './rounds.js'
import { roundsProblem } from './round-order.js'
import { SUMMARIZERS } from './summaries.js'
import { ENV_REQUIRED, ENV_SCHEMA, schemaBelow } from './schema.js'
import { validateEnv } from './validators.js'

// Reads results documents back for the exporters. Anything that is not a complete log-bench
// results document of our schema (schema/results.schema.json) is bad input: one UsageError naming
// the file, the run, the field and the problem.

// What must match for runs from several files to be summarized together.
const ENVIRONMENT_FIELDS = ['cpuModel', 'cpuCount', 'memoryBytes', 'os', 'node']

export function readResultsFile (file) {
  const doc = readJsonFile(file, { what: 'a results file written by log-bench run, http or merge' })
  validateDocument(doc, file)
  return doc
}

export function validateDocument (doc, file) {
  const bad = (what) => new UsageError(`${file}: ${what}`)
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw bad('not a log-bench results document (expected a JSON object)')
  if (doc.tool !== 'log-bench' || doc.kind !== 'results') throw bad('not a log-bench results document (tool/kind fields missing or different)')
  if (doc.schema !== SCHEMA_VERSION) throw bad(`results schema version ${JSON.stringify(doc.schema ?? null)}; this log-bench reads version ${SCHEMA_VERSION}`)
  if (doc.env === null || typeof doc.env !== 'object') throw bad('missing field "env"')
  for (const field of ENV_REQUIRED) {
    if (!(field in doc.env)) throw bad(`missing field "env.${field}"`)
  }
  refuseBadEnv(doc.env, bad)
  if (!Array.isArray(doc.runs)) throw bad('missing field "runs" (expected an array)')
  if (!Array.isArray(doc.summary)) throw bad('missing field "summary" (expected an array)')
  // Every index, holes too (forEach skips them): an API caller's array may have some.
  for (let index = 0; index < doc.runs.length; index++) validateRun(doc.runs[index], index, bad)
  refuseRepeatedRuns(doc.runs, bad)
}

// A document's env (its machine, its load while it ran, its design: the order, and under --runs auto
// the looks and α each group was judged at) is checked against the schema as its records are: the
// pages and compare read it, so a crafted one (looks: 5, groups: "abc", 100,000 looks, 130,000 load
// samples) is bad input, never a crash or a hang.
function refuseBadEnv (env, bad) {
  if (validateEnv(env)) return
  const [error] = validateEnv.errors.filter((e) => e.keyword !== 'if')
  const parts = error.instancePath.split('/').slice(1)
  const where = 'env' + parts.map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`)).join('')
  const value = parts.reduce((at, part) => at?.[part], env)
  if (error.keyword === 'required') throw bad(`${where} is missing field "${error.params.missingProperty}"`)
  if (error.keyword === 'maxItems') throw bad(`${where} must hold at most ${error.params.limit} entries, got ${value.length}`)
  throw bad(`${where} must be ${expectation(schemaBelow(ENV_SCHEMA, parts) ?? {})}, got ${shown(value)}`)
}

// One run recorded twice would be counted twice: every record of a file doubled made n = 10 per
// side of 5 runs, and p < 0.001 of 0.008. Refused rather than deduplicated: the two may differ, and
// which one was measured cannot be known; merge refuses a run held by two shards the same way.
function refuseRepeatedRuns (runs, bad) {
  const seen = new Map()
  runs.forEach((run, index) => {
    if (!runTypeOf(run)) return
    const key = `${cellKey(run)}#${run.run}`
    if (seen.has(key)) throw bad(`runs[${seen.get(key)}] and runs[${index}] are both ${describeRecord(run)} of one cell: a run recorded twice would be counted twice; keep one of them`)
    seen.set(key, index)
  })
}

// A record of a known run type is checked by its type (run-types/); other types pass through to
// whatever reads them.
function validateRun (run, index, bad) {
  if (run === null || typeof run !== 'object') throw bad(`runs[${index}] is not an object`)
  if (run.type !== undefined && typeof run.type !== 'string') throw bad(`runs[${index}].type must be a string`)
  const found = runTypeOf(run)?.validate(run)
  if (!found) return
  const at = `runs[${index}]`
  if (found.record) throw bad(`${at} (${describeRecord(run)}) ${found.problem}`)
  if (found.field) throw bad(`${at}.${found.problem}`)
  throw bad(`${at} (${describeRecord(run)}): ${found.problem}`)
}

// Loads several results files into one dataset for the exporters. Runs of the same cell from
// different files are pooled (renumbered Test 1..N in file order) and summarized again. Files from
// different machines or Node versions are refused: pooling them would average two environments.
export function loadResults (files) {
  if (files.length === 0) throw new UsageError('give at least one results file')
  return loadDocuments(files.map((file) => ({ file, doc: readResultsFile(file), realPath: fs.realpathSync(file) })))
}

// As loadResults, from documents already read and checked: [{ file, doc, realPath? }], where `file`
// names the document (its path, or how the API's caller passed it: "results document 1").
// A cell's runs keep the numbers they were recorded with, whatever their order in the file: in an
// interleaved document run r is the round it ran in, and comparisons pair by it (rounds.js). Only a
// cell pooled from several files is renumbered, its runs never paired.
export function loadDocuments (docs) {
  const files = docs.map((d) => d.file)
  refuseDuplicates(docs)
  refuseMixedEnvironments(docs)
  refuseMixedEventCounts(docs)
  // A run cut short by Ctrl-C measured nothing (--resume runs it again): the pages and compare
  // leave it out; the page's Incomplete line says the file was interrupted.
  const kept = docs.map(({ file, doc }) => ({ file, runs: inPlanOrder(doc.runs).filter((r) => r.status !== 'interrupted') }))
  const documentsOf = new Map()
  kept.forEach(({ runs }, index) => {
    for (const run of runs.filter((r) => runTypeName(r) === 'run')) {
      const key = cellKey(run)
      documentsOf.set(key, (documentsOf.get(key) ?? new Set()).add(index))
    }
  })
  const runs = []
  const nextRun = new Map()
  for (const { file, runs: documentRuns } of kept) {
    for (const run of documentRuns) {
      if (runTypeName(run) !== 'run') {
        runs.push({ ...run, file })
        continue
      }
      const key = cellKey(run)
      if (documentsOf.get(key).size === 1) {
        runs.push({ ...run, type: 'run', file })
        continue
      }
      const number = (nextRun.get(key) ?? 0) + 1
      nextRun.set(key, number)
      runs.push({ ...run, type: 'run', run: number, file })
    }
  }
  // Cells of the known run types are summarized again here (the statistics of this log-bench, also
  // for older files); entries of other run types are passed through as their producers wrote them.
  const foreignSummary = docs.flatMap(({ doc }) => doc.summary.filter((s) => !runTypeOf(s)))
  const envs = docs.map(({ file, doc }) => ({
    file,
    env: doc.env,
    complete: doc.complete !== false,
    interrupted: doc.interrupted === true,
    // Why its rounds cannot be read, or null: its comparisons are then unpaired (round-order.js).
    roundsProblem: roundsProblem(doc)
  }))
  return {
    files,
    env: mergedEnv(docs.map((d) => d.doc.env)),
    envs,
    runs,
    summary: [
      ...SUMMARIZERS.flatMap((summarizeRuns) => summarizeRuns(runs, { roundOf: roundsOf({ envs }) })),
      ...foreignSummary
    ]
  }
}

export function environmentDifference (a, b) {
  for (const field of ENVIRONMENT_FIELDS) {
    if (a[field] !== b[field]) return `${field} ${JSON.stringify(a[field])} vs ${JSON.stringify(b[field])}`
  }
  // The CPUs log-bench was started on (a taskset, a container's CPU set) are hardware as much as the
  // CPU count: compared where both files recorded them (files before env.allowedCpus did not).
  if (a.allowedCpus != null && b.allowedCpus != null && a.allowedCpus !== b.allowedCpus) return `allowed CPUs ${JSON.stringify(a.allowedCpus)} vs ${JSON.stringify(b.allowedCpus)}`
  for (const [lib, version] of Object.entries(a.libVersions ?? {})) {
    const other = b.libVersions != null && Object.hasOwn(b.libVersions, lib) ? b.libVersions[lib] : null
    if (other != null && other !== version) return `${lib} ${version} vs ${other}`
  }
  return null
}

// What changes a measurement without being a dimension of its cell (a cell key without them keeps
// --resume and merge of older files working): the console's pipe buffer, V8's heap limit, the
// limits of the otlp and forward receivers, the file system of --dir. A run records the pipe buffer
// its reader got and the file system it wrote to; the options (env.options: one group, or a
// scenario's run and http groups) record the rest. Where both documents say, their differences in
// words: ["pipe buffer (--pipe-bytes) 65,536 vs 1,048,576"]; comparing them compares that too.
const MEASUREMENT_SETTINGS = [
  { words: 'pipe buffer (--pipe-bytes)', run: 'pipeBytes', option: 'pipeBytes' },
  { words: '--max-old-space-size', option: 'maxOldSpaceSize' },
  { words: 'receiver limits (--receiver-max-*)', option: 'receiverLimits' },
  { words: 'file system (--dir)', run: 'fsType', option: 'dirFsType' }
]

export function settingsDifferences (a, b) {
  const differences = []
  for (const setting of MEASUREMENT_SETTINGS) {
    const [ours, theirs] = [settingValues(a, setting), settingValues(b, setting)]
    if (ours == null || theirs == null || ours.join('|') === theirs.join('|')) continue
    differences.push(`${setting.words} ${ours.join('/')} vs ${theirs.join('/')}`)
  }
  return differences
}

// A setting's values in a dataset ({ runs, env, envs }), as words, sorted; null where it says nothing.
function settingValues (dataset, { run, option }) {
  const show = (v) => (v == null
    ? 'none'
    : typeof v === 'number' ? v.toLocaleString('en-US') : typeof v === 'object' ? JSON.stringify(v) : String(v))
  const recorded = run ? dataset.runs.map((r) => r[run]).filter((v) => v != null) : []
  const given = optionGroups(dataset).filter((group) => Object.hasOwn(group, option))
    .map((group) => group[option])
  const values = recorded.length ? recorded : given
  return values.length ? [...new Set(values.map(show))].sort() : null
}

function optionGroups (dataset) {
  const envs = dataset.envs?.map((e) => e.env) ?? [dataset.env]
  return envs.flatMap((env) => {
    const options = env?.options
    if (options == null || typeof options !== 'object') return []
    const scenario = Array.isArray(options.run) || Array.isArray(options.http)
    return scenario ? [...(options.run ?? []), ...(options.http ?? [])] : [options]
  })
}

// The same runs given twice would be counted twice (Test 1 and Test 2 identical): the same file
// twice, a copy of a file, or a merged file beside one of its shards. An invocation is known by its
// host and start time, which a copy, a resumed file and a merged file keep.
function refuseDuplicates (docs) {
  const seen = new Map()
  docs.forEach(({ file, doc, realPath }, index) => {
    const sources = [...(realPath ? [[`file ${realPath}`, 'the same file']] : []), ...[doc.env, ...(doc.env.shards ?? [])].map((e) => [`run ${e.hostname}|${e.time}`, `results of the same invocation (started ${e.time})`])]
    for (const [id, what] of sources) {
      const before = seen.get(id)
      if (before && before.index !== index) throw new UsageError(`${before.file} and ${file} are ${what}: their runs would be counted twice; give each results file once`)
      seen.set(id, { file, index })
    }
  })
}

function refuseMixedEnvironments (docs) {
  const first = docs[0]
  for (const other of docs.slice(1)) {
    const difference = environmentDifference(first.doc.env, other.doc.env)
    if (difference) {
      throw new UsageError(`${first.file} and ${other.file} come from different environments (${difference}); they are never averaged together: report each environment separately (--out and --images per environment)`)
    }
  }
}

// Two files that measured the same cell at different event counts are two experiments, never one
// page's; one document that planned several counts (scenarios/burst-size.json: the same libraries at
// 10,000, 100,000 and 1,000,000 events) holds them as cells of their own.
function refuseMixedEventCounts (docs) {
  const seen = new Map()
  for (const { file, doc } of docs) {
    for (const run of doc.runs) {
      if (runTypeName(run) !== 'run') continue
      const key = cellKey(run, { except: ['events'] })
      const before = seen.get(key)
      if (before && before.file !== file && before.events !== run.events) {
        throw new UsageError(`${before.file} and ${file} both have ${run.lib} ${run.transport} ${workersLabel(run.cpus)} but with ${before.events} and ${run.events} events per worker; report them separately`)
      }
      if (!before) seen.set(key, { file, events: run.events })
    }
  }
}

function mergedEnv (envs) {
  const first = envs[0]
  return {
    ...first,
    libVersions: Object.assign({}, ...envs.map((e) => e.libVersions)),
    commands: [...new Set(envs.map((e) => e.command))],
    firstTime: envs.map((e) => e.time).sort()[0],
    lastTime: envs.map((e) => e.finishedAt ?? e.time).sort().at(-1)
  }
}
