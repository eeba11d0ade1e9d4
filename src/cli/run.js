import fs from 'node:fs'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { BUILTIN_LIBS, LIB_SETS, isAdapterPath, libLabel, loadLibraries } from '../loggers/index.js'
import { WORKLOADS } from '../engine/workloads.js'
import { TRANSPORT_HINTS, TRANSPORTS } from '../sinks/index.js'
import { fsTypeOf } from '../engine/fs-type.js'
import { planRunCells } from '../bench/orchestrator.js'
import { runSession } from '../bench/session.js'
import { payloadOfSize } from '../engine/message.js'
import { loadScenario, parseShard, selectShard, shippedScenarios } from './scenario.js'
import { collectEnv } from '../results/env.js'
import { SCHEMA_VERSION } from '../results/model.js'
import { renderTerminal } from '../report/terminal.js'
import { renderHttpTerminal } from '../report/http-terminal.js'
import { planHttpCells } from '../http/matrix.js'
import { DEFAULTS as HTTP_DEFAULTS, describeHttpOptions, parseHttpOptions } from './http.js'
import { addOrderOptions, parseOrder } from './order-options.js'
import { addComparisonOptions, parseAlpha, parseNoise } from './compare.js'
import { compareWithBaseline, renderComparison } from '../report/compare.js'
import { runName } from '../report/labels.js'
import { addSyslogOptions, describeSyslog, externalNote, parseSyslogOptions, SYSLOG_OPTION_NAMES } from './syslog-options.js'
import { defaultOutput, eventCount, list, MAX_SECONDS, oneOf, outputFile, positiveInt, positiveIntList, refuseToReplace, seconds, writableDirectory } from './validate.js'
import { MAX_EVENTS } from '../sinks/verifier.js'
import { PIPE_MAX_BYTES_FILE } from '../sinks/pipe.js'

const MAX_RATE = 100_000_000

export const DEFAULTS = {
  lib: 'all,raw',
  transport: 'console',
  cpus: '1',
  events: '1000000',
  workload: 'string',
  runs: '3',
  timeout: '600'
}

// The options that define cells; a scenario file defines its own, so they cannot be combined.
const MATRIX_OPTIONS = ['lib', 'workload', 'transport', 'cpus', 'events', 'rate', 'runs', 'size', 'timeout', 'max-old-space-size', 'pipe-bytes', ...SYSLOG_OPTION_NAMES]

export const command = 'run'
export const describe = 'Time loggers: fork workers that each log --events events, wait until every byte landed, verify every event'

export function builder (yargs) {
  return addComparisonOptions(addOrderOptions(addSyslogOptions(yargs)))
    .option('baseline', { type: 'string', describe: 'At the end, compare every cell with this library\'s cell of the same transport, workers, workload, size and receiving end: ratio of medians with its 95% interval, p and a verdict (faster, slower, same), as `compare --baseline`' })
    .option('lib', { type: 'string', describe: `Comma list: ${BUILTIN_LIBS.join(', ')}, all (the seed's four: ${LIB_SETS.all.join(', ')}), every (all ${LIB_SETS.every.length} libraries), or a path to an adapter file (./my-logger.js); name:variant for a library's documented variant (pino:sync, see list) [default: ${DEFAULTS.lib}]` })
    .option('workload', { type: 'string', describe: `Comma list of what each event carries: ${WORKLOADS.join(', ')} (see docs/workloads.md) [default: ${DEFAULTS.workload}]` })
    .option('transport', { type: 'string', describe: `Comma list of destinations: ${TRANSPORTS.join(', ')} [default: ${DEFAULTS.transport}]` })
    .option('cpus', { type: 'string', describe: `Comma list of worker counts (node:cluster workers logging at once) [default: ${DEFAULTS.cpus}]` })
    .option('events', { type: 'string', describe: `Events logged by each worker per run, at most ${MAX_EVENTS.toLocaleString('en-US')} (the verifier keeps one bit per event) [default: ${DEFAULTS.events}]` })
    .option('rate', { type: 'string', describe: `Pace the logging: this many events per second per worker, logged in a batch per event-loop tick between timers (as a service would, instead of the tight loop); records the event-loop delay. At most ${MAX_RATE.toLocaleString('en-US')}` })
    .option('runs', { type: 'string', describe: `Runs per cell (fresh processes each); the summary averages them [default: ${DEFAULTS.runs}]` })
    .option('size', { type: 'string', describe: 'Comma list of payload sizes in bytes [default: the seed\'s "Hello, world!", 13 bytes]' })
    .option('timeout', { type: 'string', describe: `Per-run limit in seconds (at most ${MAX_SECONDS.toLocaleString('en-US')}); a run past it is recorded as failed [default: ${DEFAULTS.timeout}]` })
    .option('max-old-space-size', { type: 'string', describe: 'Heap limit in MB for each worker (node --max-old-space-size), to reproduce memory blow-ups' })
    .option('pipe-bytes', { type: 'string', describe: 'console only: ask for this much pipe buffer per worker (F_SETPIPE_SZ, up to /proc/sys/fs/pipe-max-size); by default the system\'s 64 KiB, what `node app.js | cat` gets and what the plain scripts of bench:truth are measured with' })
    .option('dir', { type: 'string', describe: 'Directory for the runs\' files (the file transport\'s log files, the console capture): tmpfs and a disk are different benchmarks, and each run records the file system type [default: the system\'s temporary directory]' })
    .option('scenario', { type: 'string', describe: `Run the cells of a scenario instead of the options above: a shipped one by name (${shippedScenarios().map((s) => s.name).join(', ')}; see list) or a scenario file's path` })
    .option('out', { type: 'string', describe: 'Results JSON file [default: the scenario\'s output, else results/run-<timestamp>.json]' })
    .option('resume', { type: 'boolean', default: false, describe: 'Continue the unfinished results file given by --out (or the scenario\'s output): finished runs are kept, the rest run' })
    .option('force', { type: 'boolean', default: false, describe: 'Replace an existing results file at --out (or the scenario\'s output); without it an existing file is refused' })
    .option('shard', { type: 'string', describe: 'Run only share k of n of the cells (k/n, e.g. 1/4); join the shards with `log-bench merge`' })
    .option('quiet', { type: 'boolean', default: false, describe: 'No progress on stderr' })
    .option('retry-timeouts', { type: 'boolean', default: false, describe: 'Run the rest of a cell after one of its runs hit --timeout (by default they are recorded as skipped, with the reason)' })
    .example('$0 run', 'the default matrix: log4js, winston, bunyan, pino and raw to the console, 1 worker, 1,000,000 events, 3 runs')
    .example('$0 run --lib winston --transport file --cpus 8', '')
    .example('$0 run --lib all,raw --workload object,child,disabled --transport console,file', 'structured logging, child loggers and disabled calls')
    .example('$0 run --lib pino,pino:sync,pino:transport --transport file', 'pino\'s default against its documented variants')
    .example('$0 run --lib all,raw --transport udp,tcp --syslog rsyslog', 'syslog through a real rsyslogd')
    .example('$0 run --lib pino --transport file --rate 20000 --events 40000', '20,000 events a second for 2 s, between timers: call times and the event-loop delay under a steady load')
    .example('$0 run --lib all --transport console,file --cpus 1,8 --events 100000 --out results/mine.json', '')
    .example('$0 run --scenario quick', 'a shipped scenario (see list); add --resume after an interruption, --shard 1/2 to split it')
}

// Turns option strings (from the command line or a scenario's run group) into a checked plan;
// throws UsageError on anything wrong.
export async function parseRunOptions (argv) {
  const value = (name, key = name) => argv[key] ?? DEFAULTS[name]
  const libs = await loadLibraries(list(value('lib'), 'lib'))
  const transports = oneOf(list(value('transport'), 'transport'), TRANSPORTS, 'transport', TRANSPORT_HINTS)
  const workloads = oneOf(list(value('workload'), 'workload'), WORKLOADS, 'workload')
  return {
    libs,
    transports: [...new Set(transports)],
    workloads: [...new Set(workloads)],
    cpus: positiveIntList(value('cpus'), 'cpus', { max: 256 }),
    events: eventCount(value('events')),
    rate: argv.rate == null ? null : positiveInt(argv.rate, 'rate', { max: MAX_RATE, why: ' (events per second per worker)' }),
    runs: positiveInt(value('runs'), 'runs', { max: 1000 }),
    sizes: argv.size == null ? [{ payload: payloadOfSize(null) }] : positiveIntList(argv.size, 'size', { max: 1 << 20 }).map((n) => ({ payload: payloadOfSize(n) })),
    timeoutMs: seconds(value('timeout'), 'timeout') * 1000,
    maxOldSpaceSize: argv.maxOldSpaceSize == null ? null : positiveInt(argv.maxOldSpaceSize, 'max-old-space-size', { min: 8 }),
    receiverOptions: { ...await parseSyslogOptions(argv, transports), pipeBytes: argv.pipeBytes == null ? 0 : pipeBytesOption(argv.pipeBytes, transports) },
    dir: argv.dir == null ? null : writableDirectory(argv.dir, 'dir')
  }
}

function describeOptions (options) {
  return {
    libs: options.libs.map((l) => libLabel(l.name, l.variant)),
    transports: options.transports,
    ...(options.workloads.length === 1 && options.workloads[0] === 'string' ? {} : { workloads: options.workloads }),
    cpus: options.cpus,
    events: options.events,
    ...(options.rate ? { rate: options.rate } : {}),
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

async function planFromScenario (file, dir) {
  const scenario = loadScenario(file)
  const cells = []
  const libs = []
  const groups = []
  for (const [index, group] of (scenario.run ?? []).entries()) {
    let options
    try {
      options = await parseRunOptions({
        lib: scenarioLibs(group, scenario),
        transport: group.transports.join(','),
        workload: group.workloads?.join(','),
        cpus: group.cpus?.join(','),
        events: group.events,
        runs: group.runs,
        size: group.sizes?.join(','),
        timeout: group.timeout,
        maxOldSpaceSize: group.maxOldSpaceSize,
        syslog: group.syslog,
        dir
      })
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`${file}: run[${index}]: ${err.message}`)
      throw err
    }
    cells.push(...planRunCells(options))
    libs.push(...options.libs.filter((l) => !libs.some((x) => x.name === l.name)))
    groups.push(describeOptions(options))
  }
  const httpGroups = []
  for (const [index, group] of (scenario.http ?? []).entries()) {
    let options
    try {
      options = await parseHttpOptions({
        lib: scenarioLibs(group, scenario),
        transport: group.transport ?? HTTP_DEFAULTS.transport,
        cpus: group.cpus?.join(',') ?? HTTP_DEFAULTS.cpus,
        middleware: group.middleware ?? false,
        logsPerRequest: group.logsPerRequest?.join(','),
        size: group.sizes?.join(',') ?? HTTP_DEFAULTS.size,
        duration: group.duration ?? HTTP_DEFAULTS.duration,
        warmup: group.warmup ?? HTTP_DEFAULTS.warmup,
        connections: group.connections ?? HTTP_DEFAULTS.connections,
        pipelining: group.pipelining ?? HTTP_DEFAULTS.pipelining,
        runs: group.runs ?? HTTP_DEFAULTS.runs,
        port: HTTP_DEFAULTS.port,
        serverCpus: group.serverCpus,
        loadCpus: group.loadCpus,
        syslog: group.syslog
      })
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`${file}: http[${index}]: ${err.message}`)
      throw err
    }
    cells.push(...planHttpCells(options))
    libs.push(...options.libs.filter((l) => l.adapter && !libs.some((x) => x.name === l.name)))
    httpGroups.push(describeHttpOptions(options))
  }
  return { kind: 'scenario', name: scenario.name, file: scenario.file, id: `scenario:${scenario.name}:${scenario.id}`, options: { run: groups, http: httpGroups }, libs, cells, output: scenario.output ?? null }
}

function resolveOutput (argv, plan) {
  if (argv.out != null) return outputFile(argv.out, { create: true })
  if (plan.output) return outputFile(plan.output, { label: `${plan.file}: output ${plan.output}`, create: true })
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

function optionDifferences (theirs, ours, at = '') {
  const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
  const show = (v) => (v == null ? 'none' : Array.isArray(v) ? v.join(',') : isObject(v) ? JSON.stringify(v) : String(v))
  const differences = []
  for (const key of new Set([...Object.keys(theirs ?? {}), ...Object.keys(ours ?? {})])) {
    const [a, b] = [theirs?.[key], ours?.[key]]
    if (JSON.stringify(a) === JSON.stringify(b)) continue
    const name = Array.isArray(theirs ?? ours) ? `${at}[${key}]` : at ? `${at}.${key}` : key
    const nested = (isObject(a) && isObject(b)) || (Array.isArray(a) && Array.isArray(b) && [...a, ...b].some(isObject))
    if (nested) differences.push(...optionDifferences(a, b, name))
    else differences.push(`${name} ${show(a)} vs ${show(b)}`)
  }
  return differences
}

export async function handler (argv) {
  if (argv.scenario != null) {
    const given = MATRIX_OPTIONS.filter((name) => argv[name] != null)
    if (given.length) throw new UsageError(`--${given[0]} cannot be combined with --scenario: the scenario file names its cells`)
  }
  const plan = argv.scenario != null ? await planFromScenario(argv.scenario, argv.dir) : await planFromOptions(argv)
  const order = parseOrder(argv)
  const comparison = parseBaseline(argv, plan)
  plan.cells.forEach((cell, index) => { cell.planIndex = index })
  const shard = argv.shard != null ? parseShard(argv.shard) : null
  const cells = selectShard(plan.cells, shard)
  const out = resolveOutput(argv, plan)
  const previous = previousResults(out, plan, shard, { resume: argv.resume, force: argv.force })
  const env = collectEnv({
    argv: process.argv.slice(2),
    libVersions: Object.fromEntries(plan.libs.map((l) => [l.name, l.version])),
    options: plan.options
  })
  env.plan = { kind: plan.kind, name: plan.name, file: plan.file ?? null, id: plan.id, shard: shard ? `${shard.k}/${shard.n}` : null, cells: plan.cells.length, shardCells: cells.length }

  const doc = await runSession({ cells, out, env, previous, quiet: argv.quiet, resumeHint: ' (continue with --resume)', retryTimeouts: argv.retryTimeouts, order })
  if (!doc) return
  if (doc.runs.some((r) => (r.type ?? 'run') === 'run')) process.stdout.write(renderTerminal(doc))
  if (doc.runs.some((r) => r.type === 'http')) process.stdout.write(renderHttpTerminal(doc))
  for (const group of plan.kind === 'scenario' ? [...plan.options.run, ...plan.options.http] : [plan.options]) process.stdout.write(externalNote(group.syslog))
  if (comparison) process.stdout.write(`\n${renderComparison(compareWithBaseline(doc, comparison.baseline, comparison))}`)
  const failed = doc.runs.filter((r) => r.status === 'failed').length
  const skipped = doc.runs.filter((r) => r.status === 'skipped').length
  const notes = [failed ? `${failed} failed run${failed > 1 ? 's' : ''}` : '', skipped ? `${skipped} skipped after a time limit` : ''].filter(Boolean)
  process.stdout.write(`\nresults: ${out}${notes.length ? ` (${notes.join(', ')}, see above)` : ''}\n`)
}

// --baseline: a library of this plan (checked before anything runs), with --alpha and --noise.
function parseBaseline (argv, plan) {
  const alpha = parseAlpha(argv.alpha)
  const noise = parseNoise(argv.noise)
  if (argv.baseline == null) return null
  const names = [...new Set(plan.cells.map((c) => runName({ lib: c.common.lib, variant: c.common.variant })))]
  if (typeof argv.baseline !== 'string' || !names.includes(argv.baseline.trim())) throw new UsageError(`--baseline must be one of the libraries this run measures (${names.join(', ')}), got "${argv.baseline}"`)
  return { baseline: argv.baseline.trim(), alpha, noise }
}

// --pipe-bytes: a whole number of bytes from 4096 to the system's pipe-max-size, console only.
function pipeBytesOption (value, transports) {
  if (!transports.includes('console')) throw new UsageError('--pipe-bytes applies to the console transport only: add --transport console')
  let max = 1 << 20
  try { max = Number(fs.readFileSync(PIPE_MAX_BYTES_FILE, 'utf8').trim()) || max } catch {}
  return positiveInt(value, 'pipe-bytes', { min: 4096, max })
}
