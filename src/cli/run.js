import fs from 'node:fs'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { isAdapterPath, libLabel, loadLibraries } from '../loggers/index.js'
import { DEFAULT_WORKLOAD } from '../engine/workloads.js'
import { fsTypeOf } from '../engine/fs-type.js'
import { planRunCells } from '../bench/orchestrator.js'
import { runSession } from '../bench/session.js'
import { payloadOfSize } from '../engine/message.js'
import { loadScenario, selectShard } from './scenario.js'
import { collectEnv } from '../results/env.js'
import { SCHEMA_VERSION } from '../results/model.js'
import { lockResults } from '../results/lock.js'
import { optionDifferences } from '../results/plans.js'
import { terminalExport } from '../report/terminal.js'
import { planHttpCells } from '../http/matrix.js'
import { describeHttpOptions, parseHttpOptions } from './http.js'
import { parseOrder } from './order-options.js'
import { DEFAULT_NOISE, baselineMatcher, compareWithBaseline, renderComparison } from '../report/compare.js'
import { runName } from '../report/labels.js'
import { HTTP_OPTIONS, RUN_OPTIONS } from './option-tables.js'
import { addOptions, givenOptions, optionNamed, parseOption, parseOptions, scenarioArgv } from './options.js'
import { describeSyslog, externalNote, parseSyslogOptions } from './syslog-options.js'
import { defaultOutput, outputFile, positiveInt, refuseToReplace, scenarioOutput } from './validate.js'
import { DEFAULT_RUNTIME, resolveRuntimes } from '../versions/runtimes.js'
import { PIPE_MAX_BYTES_FILE } from '../sinks/pipe.js'
import { instructionsMethod } from '../engine/instructions.js'

export const command = 'run'
export const describe = 'Time loggers: fork workers that each log --events events, wait until every byte landed, verify every event'

export function builder (yargs) {
  return addOptions(yargs, RUN_OPTIONS)
    .example('$0 run', 'the default matrix: log4js, winston, bunyan, pino and raw to the console, 1 worker, 1,000,000 events, 3 runs')
    .example('$0 run --lib winston --transport file --cpus 8', '')
    .example('$0 run --lib all,raw --workload object,child,disabled --transport console,file', 'structured logging, child loggers and disabled calls')
    .example('$0 run --lib pino,pino:sync,pino:transport --transport file', 'pino\'s default against its documented variants')
    .example('$0 run --lib all,raw --transport udp,tcp --syslog rsyslog', 'syslog through a real rsyslogd')
    .example('$0 run --lib pino@9,pino@10,winston@2,winston@3 --transport console,file', 'published versions side by side')
    .example('$0 run --runtime node@22,bun --lib pino,raw', 'the workers under Node 22 and under Bun')
    .example('$0 run --lib pino --transport file --rate 20000 --events 40000', '20,000 events a second for 2 s, between timers: call times and the event-loop delay under a steady load')
    .example('$0 run --lib pino,./my-pino.js --transport file --events 20000 --measure instructions --baseline pino', 'instructions per event under valgrind: differences of 1-2% read on a shared machine')
    .example('$0 run --lib all --transport console,file --cpus 1,8 --events 100000 --out results/mine.json', '')
    .example('$0 run --scenario quick', 'a shipped scenario (see list); add --resume after an interruption, --shard 1/2 to split it')
}

// Turns option strings (from the command line or a scenario's run group) into a checked plan;
// throws UsageError on anything wrong.
export async function parseRunOptions (argv) {
  const given = parseOptions(RUN_OPTIONS, argv)
  // Installs come last, once every other option is known to be right.
  const libs = await loadLibraries(given.lib, [], { cache: given.cache })
  return {
    runtimes: await resolveRuntimes(given.runtime, { cache: given.cache }),
    libs,
    transports: given.transport,
    workloads: given.workload,
    cpus: given.cpus,
    events: given.events,
    rate: given.rate,
    // The counter is found before anything runs: without one, a line that says how to install it.
    counter: given.measure === 'instructions' ? countingWorkers(given) : null,
    runs: given.runs,
    sizes: (given.size ?? [null]).map((size) => ({ payload: payloadOfSize(size) })),
    timeoutMs: given.timeout * 1000,
    maxOldSpaceSize: given.maxOldSpaceSize,
    receiverOptions: { ...await parseSyslogOptions(argv, given.transport), pipeBytes: given.pipeBytes == null ? 0 : pipeBytesOption(given.pipeBytes, given.transport) },
    dir: given.dir
  }
}

// --measure instructions counts the tight loop: paced logging (--rate) follows the clock, which runs
// tens of times slow under the simulator, so its batches would not be the ones a service makes.
function countingWorkers (given) {
  if (given.rate) throw new UsageError('--measure instructions counts the tight loop: leave out --rate (paced logging follows the clock, which runs tens of times slow under the simulator)')
  return instructionsMethod()
}

function describeOptions (options) {
  const runtimes = options.runtimes.map((r) => r.label)
  return {
    libs: options.libs.map((l) => libLabel(l.name, l.variant, l.range != null ? l.version : null)),
    // Only where other than the Node running log-bench, so other plans describe themselves as before.
    ...(options.runtimes.some((r) => r.spec !== DEFAULT_RUNTIME) ? { runtimes } : {}),
    transports: options.transports,
    ...(options.workloads.length === 1 && options.workloads[0] === DEFAULT_WORKLOAD ? {} : { workloads: options.workloads }),
    cpus: options.cpus,
    events: options.events,
    ...(options.rate ? { rate: options.rate } : {}),
    ...(options.counter ? { measure: 'instructions', instructionsMethod: options.counter.method } : {}),
    runs: options.runs,
    sizes: options.sizes.map((s) => Buffer.byteLength(s.payload)),
    timeoutSeconds: options.timeoutMs / 1000,
    maxOldSpaceSize: options.maxOldSpaceSize,
    syslog: describeSyslog(options.receiverOptions),
    pipeBytes: options.receiverOptions.pipeBytes || null,
    dir: options.dir,
    dirFsType: options.dir === null ? null : fsTypeOf(options.dir)
  }
}

// A plan is what this invocation measures: its cells, the options that made them, and an id that
// --resume and merge use to refuse results of a different plan.
async function planFromOptions (argv) {
  const options = await parseRunOptions(argv)
  const described = describeOptions(options)
  return {
    kind: 'options',
    name: 'command line',
    id: `options:${JSON.stringify(described)}`,
    options: described,
    libs: options.libs,
    cells: planRunCells(options),
    output: null
  }
}

// Adapter paths in a scenario are relative to the scenario file, so it runs from any directory.
function scenarioLibs (group, scenario) {
  return group.libs.map((lib) => (isAdapterPath(lib) ? path.resolve(path.dirname(scenario.file), lib) : lib)).join(',')
}

async function planFromScenario (file, dir, argv) {
  const scenario = loadScenario(file)
  const cells = []
  const libs = []
  const groups = []
  for (const [index, group] of (scenario.run ?? []).entries()) {
    let options
    try {
      options = await parseRunOptions({ ...scenarioArgv(RUN_OPTIONS, group), lib: scenarioLibs(group, scenario), cache: argv.cache, dir })
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`${file}: run[${index}]: ${err.message}`)
      throw err
    }
    cells.push(...newCells(cells, planRunCells(options)))
    libs.push(...options.libs.filter((l) => !libs.some((x) => x.name === l.name && x.version === l.version)))
    groups.push(describeOptions(options))
  }
  const httpGroups = []
  for (const [index, group] of (scenario.http ?? []).entries()) {
    let options
    try {
      options = await parseHttpOptions({ ...scenarioArgv(HTTP_OPTIONS, group), lib: scenarioLibs(group, scenario), cache: argv.cache })
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`${file}: http[${index}]: ${err.message}`)
      throw err
    }
    cells.push(...newCells(cells, planHttpCells(options)))
    libs.push(...options.libs.filter((l) => l.adapter && !libs.some((x) => x.name === l.name && x.version === l.version)))
    httpGroups.push(describeHttpOptions(options))
  }
  return { kind: 'scenario', name: scenario.name, file: scenario.file, id: `scenario:${scenario.name}:${scenario.id}`, options: { run: groups, http: httpGroups }, libs, cells, output: scenario.output ?? null }
}

// Two groups of a scenario can name one cell (pino@10 in one, the project's pino 10 under node@20 in
// another): it is measured once, where it is first named.
function newCells (planned, cells) {
  const keys = new Set(planned.map((c) => c.key))
  return cells.filter((c) => !keys.has(c.key) && keys.add(c.key))
}

function resolveOutput (argv, plan) {
  // The scenario file and adapter files given by path are inputs: never replaced by the results.
  const inputs = [plan.file, ...plan.libs.map((l) => l.file)].filter(Boolean)
  if (argv.out != null) return outputFile(argv.out, { create: true, inputs })
  if (plan.output) return scenarioOutput(plan.output, { label: `${plan.file}: output ${plan.output}`, inputs })
  return defaultOutput('run')
}

// --resume: the file must hold results of this very plan and shard. Without --resume, an existing
// file is replaced only with --force (an unfinished one of the same plan points at --resume).
function previousResults (out, plan, shard, { resume, force }) {
  if (resume && force) throw new UsageError('--resume continues the results file and --force replaces it: give one of them')
  if (!fs.existsSync(out) || force) return null
  let doc
  try {
    doc = JSON.parse(fs.readFileSync(out, 'utf8'))
  } catch {
    if (resume) throw new UsageError(`cannot resume ${out}: it is not valid JSON`)
    refuseToReplace(out)
    return null
  }
  const samePlan = doc?.env?.plan?.id === plan.id && (doc.env.plan.shard ?? null) === (shard ? `${shard.k}/${shard.n}` : null)
  if (!resume) {
    if (samePlan && doc.complete === false) throw new UsageError(`${out} holds an unfinished run of this ${plan.kind === 'scenario' ? 'scenario' : 'matrix'}: add --resume to continue it, or --force to start over`)
    refuseToReplace(out)
    return null
  }
  if (doc.schema !== SCHEMA_VERSION) throw new UsageError(`cannot resume ${out}: it has results schema ${doc.schema}, this log-bench writes ${SCHEMA_VERSION}`)
  if (!samePlan) throw new UsageError(`cannot resume ${out}: ${planDifference(doc.env, plan, shard)}; resume with the file's own command (${doc.env?.command ?? 'unknown'}), or give another --out`)
  return doc
}

// What makes a results file another plan's, in the file's terms first: "events 2000 vs 1000".
function planDifference (env, plan, shard) {
  const theirs = env?.plan
  if (!theirs) return 'it holds results without a plan (written by an older log-bench?)'
  if (theirs.kind !== plan.kind) return `it holds results of ${theirs.kind === 'scenario' ? `scenario "${theirs.name}"` : 'command-line options'}, not of ${plan.kind === 'scenario' ? `scenario "${plan.name}"` : 'command-line options'}`
  const differences = optionDifferences(env.options, plan.options)
  const ourShard = shard ? `${shard.k}/${shard.n}` : null
  if ((theirs.shard ?? null) !== ourShard) differences.push(`shard ${theirs.shard ?? 'none'} vs ${ourShard ?? 'none'}`)
  if (theirs.kind === 'scenario' && theirs.name !== plan.name) differences.unshift(`scenario "${theirs.name}" vs "${plan.name}"`)
  return `it holds results of ${plan.kind === 'scenario' ? 'another scenario' : 'other options'} (the file's vs these: ${differences.join(', ') || 'the scenario file changed'})`
}

export async function handler (argv) {
  if (argv.scenario != null) {
    const given = givenOptions(RUN_OPTIONS, argv, { matrix: true })
    if (given.length) throw new UsageError(`--${given[0]} cannot be combined with --scenario: the scenario file names its cells`)
  }
  // The cheap checks first: planning may install library versions and runtimes.
  if (argv.scenario != null) loadScenario(argv.scenario)
  const shard = parseOption(optionNamed(RUN_OPTIONS, 'shard'), argv)
  const order = parseOrder(argv)
  const plan = argv.scenario != null ? await planFromScenario(argv.scenario, argv.dir, argv) : await planFromOptions(argv)
  const comparison = parseBaseline(argv, plan)
  plan.cells.forEach((cell, index) => { cell.planIndex = index })
  const cells = selectShard(plan.cells, shard)
  const out = resolveOutput(argv, plan)
  lockResults(out)
  const previous = previousResults(out, plan, shard, { resume: argv.resume, force: argv.force })
  const env = collectEnv({
    argv: process.argv.slice(2),
    libVersions: libVersionsOf(plan.libs),
    options: plan.options
  })
  env.plan = { kind: plan.kind, name: plan.name, file: plan.file ?? null, id: plan.id, shard: shard ? `${shard.k}/${shard.n}` : null, cells: plan.cells.length, shardCells: cells.length }

  const doc = await runSession({ cells, out, env, previous, quiet: argv.quiet, resumeHint: ' (continue with --resume)', retryTimeouts: argv.retryTimeouts, order })
  if (!doc) return
  terminalExport.write(doc)
  for (const group of plan.kind === 'scenario' ? [...plan.options.run, ...plan.options.http] : [plan.options]) process.stdout.write(externalNote(group.syslog))
  if (comparison) process.stdout.write(`\n${renderComparison(compareWithBaseline(doc, comparison.baseline, comparison))}`)
  const failed = doc.runs.filter((r) => r.status === 'failed').length
  const skipped = doc.runs.filter((r) => r.status === 'skipped').length
  const notes = [failed ? `${failed} failed run${failed > 1 ? 's' : ''}` : '', skipped ? `${skipped} skipped after a time limit` : ''].filter(Boolean)
  process.stdout.write(`\nresults: ${out}${notes.length ? ` (${notes.join(', ')}, see above)` : ''}\n`)
}

// --baseline: a library of this plan (checked before anything runs), with --alpha and --noise.
function parseBaseline (argv, plan) {
  const { baseline, alpha, noise } = parseOptions(RUN_OPTIONS.filter((o) => ['baseline', 'alpha', 'noise'].includes(o.name)), argv)
  if (baseline == null) return null
  const names = [...new Set(plan.cells.map((c) => runName(c.common)))]
  const isBaseline = baselineMatcher(baseline.trim())
  if (!plan.cells.some((c) => isBaseline(c.common))) throw new UsageError(`--baseline must be one of the libraries this run measures (${names.join(', ')}), got "${baseline}"`)
  return { baseline: baseline.trim(), alpha, noise: noise ?? DEFAULT_NOISE }
}

// --pipe-bytes: a whole number of bytes from 4096 to the system's pipe-max-size, console only.
function pipeBytesOption (value, transports) {
  if (!transports.includes('console')) throw new UsageError('--pipe-bytes applies to the console transport only: add --transport console')
  let max = 1 << 20
  try { max = Number(fs.readFileSync(PIPE_MAX_BYTES_FILE, 'utf8').trim()) || max } catch {}
  return positiveInt(value, 'pipe-bytes', { min: 4096, max })
}

// { name: version } of the libraries measured; a library measured at several versions (pino@9,
// pino@10) has them all, comma-separated.
export function libVersionsOf (libs) {
  const versions = {}
  for (const lib of libs) {
    const known = versions[lib.name] ? versions[lib.name].split(', ') : []
    if (lib.version != null && !known.includes(lib.version)) known.push(lib.version)
    versions[lib.name] = known.length ? known.join(', ') : lib.version
  }
  return versions
}
