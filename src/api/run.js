import fs from 'node:fs'
import { DEFAULT_ENDING } from '../engine/endings.js'
import { instructionsMethod } from '../engine/instructions.js'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { isAdapterPath, libLabel, loadLibraries } from '../loggers/index.js'
import { DEFAULT_WORKLOAD } from '../engine/workloads.js'
import { fsTypeOf } from '../engine/fs-type.js'
import { listOf, SLOWABLE_TRANSPORTS, transportIs, transportsWith } from '../engine/transports.js'
import { runTypes } from './run-types.js'
import { payloadOfSize } from '../engine/message.js'
import { httpPlanSize, loadScenario, refuseHugePlan, runPlanSize, selectShard } from './scenario.js'
import { collectEnv, libVersionsOf, recordedPath, rsyslogdVersion, transportVersions } from '../results/env.js'
import { requireRsyslogd } from '../sinks/rsyslog.js'
import { SCHEMA_VERSION } from '../results/model.js'
import { lockResults } from '../results/lock.js'
import { optionDifferences } from '../results/plans.js'
import { describeHttpOptions, parseHttpOptions } from './http.js'
import { parseOrder, planRounds, withRounds } from './order-options.js'
import { maxRuns, runsText } from './runs-option.js'
import { BASELINE as HTTP_BASELINE } from '../results/http-summary.js'
import { baselineMatcher } from '../report/compare.js'
import { runName } from '../draw/labels.js'
import { describeReceiverLimits, HTTP_OPTIONS, receiverLimitOptions, RUN_OPTIONS } from './option-tables.js'
import { argvFromApi, commandLine, signalOption, givenOptions, optionNamed, parseOption, parseOptions, scenarioArgv } from './options.js'
import { describeSyslog, externalNote, parseSyslogOptions } from './syslog-options.js'
import { Job } from './job.js'
import { baselineComparison, claimOrRelease, runPrepared } from './session.js'
import { joinJob } from '../engine/affinity-jobs.js'
import { defaultOutput, outputFile, positiveInt, refuseToReplace, scenarioOutput, temporaryDirectory } from './validate.js'
import { DEFAULT_RUNTIME, resolveRuntimes } from '../versions/runtimes.js'
import { PIPE_MAX_BYTES_FILE } from '../sinks/pipe.js'
import { checkCores, EVERY_CORE } from '../engine/cores.js'
import { labelRunCells } from '../run/plan.js'
import { removeProfiles } from '../run/profiles.js'
import { minOf } from '../stats.js'

// Turns option strings (from the command line or a scenario's run group) into a checked plan;
// throws UsageError on anything wrong.
// installs: { progress, signal } for the library versions and runtimes installed on first use.
export async function parseRunOptions (argv, installs = {}) {
  const given = parseOptions(RUN_OPTIONS, argv)
  refusePacedPastTimeout(given)
  // Installs come last, once every other option is known to be right.
  const libs = await loadLibraries(given.lib, [], { cache: given.cache, ...installs })
  return {
    runtimes: await resolveRuntimes(given.runtime, { cache: given.cache, ...installs }),
    libs,
    transports: given.transport,
    workloads: given.workload,
    cpus: given.cpus,
    events: given.events,
    rates: given.rate,
    bursts: refuseBurstsPaced(given),
    endings: given.ending,
    cores: checkCores(given.cores),
    profile: given.profile ? profileOption(given) : false,
    // The counter is found before anything runs: without one, a line that says how to install it.
    counter: given.measure === 'instructions' ? countingWorkers(given) : null,
    runs: maxRuns(given.runs),
    rounds: given.runs,
    sizes: (given.size ?? [null]).map((size) => ({ payload: payloadOfSize(size) })),
    timeoutMs: given.timeout * 1000,
    maxOldSpaceSize: given.maxOldSpaceSize,
    receiverOptions: await receiverOptionsOf(argv, given),
    dir: given.dir
  }
}

function describeOptions (options) {
  const runtimes = options.runtimes.map((r) => r.label)
  return {
    libs: options.libs.map((l) => libLabel(l.name, l.variant, l.range != null ? l.version : null)),
    // Only where other than the Node running log-bench, so other plans describe themselves as before.
    ...(options.runtimes.some((r) => r.spec !== DEFAULT_RUNTIME) ? { runtimes } : {}),
    transports: options.transports,
    ...(options.workloads.length === 1 && options.workloads[0] === DEFAULT_WORKLOAD
      ? {}
      : { workloads: options.workloads }),
    cpus: options.cpus,
    events: options.events,
    // One rate as one number, as plans described themselves before rates were a list (--resume).
    ...(options.rates ? { rate: options.rates.length === 1 ? options.rates[0] : options.rates } : {}),
    // Only where given, so other plans describe themselves as before (--resume).
    ...(options.bursts.some((n) => n != null) ? { bursts: options.bursts.map((n) => n ?? 'all') } : {}),
    ...(options.counter ? { measure: 'instructions', instructionsMethod: options.counter.instructionsMethod } : {}),
    ...(options.profile ? { profile: true } : {}),
    ...(options.endings.length === 1 && options.endings[0] === DEFAULT_ENDING ? {} : { endings: options.endings }),
    // Only where given, so other plans describe themselves as before (--resume).
    ...(options.cores.some((n) => n !== EVERY_CORE) ? { cores: options.cores } : {}),
    ...(options.receiverOptions.receiverRate ? { receiverRate: options.receiverOptions.receiverRate } : {}),
    ...(options.receiverOptions.receiverStallMs ? { receiverStallMs: options.receiverOptions.receiverStallMs } : {}),
    runs: runsText(options.rounds),
    sizes: options.sizes.map((s) => Buffer.byteLength(s.payload)),
    timeoutSeconds: options.timeoutMs / 1000,
    maxOldSpaceSize: options.maxOldSpaceSize,
    syslog: describeSyslog(options.receiverOptions),
    pipeBytes: options.receiverOptions.pipeBytes || null,
    ...describeReceiverLimits(options.transports, options.receiverOptions),
    dir: options.dir,
    dirFsType: options.dir === null ? null : fsTypeOf(options.dir)
  }
}

// A plan is what this invocation measures: its cells, the options that made them, and an id that
// --resume and merge use to refuse results of a different plan.
async function planFromOptions (argv, installs) {
  const options = await parseRunOptions(argv, installs)
  refuseHugePlan(runPlanSize(options), argv.yes)
  const described = describeOptions(options)
  return {
    kind: 'options',
    name: 'command line',
    id: `options:${JSON.stringify(described)}`,
    options: described,
    libs: options.libs,
    cells: withRounds(labelRunCells(runTypes.run.plan(options)), options.rounds),
    output: null
  }
}

// Adapter paths in a scenario are relative to the scenario file, so it runs from any directory.
function scenarioLibs (group, scenario) {
  return group.libs.map((lib) => (isAdapterPath(lib) ? path.resolve(path.dirname(scenario.file), lib) : lib)).join(',')
}

async function planFromScenario (file, dir, argv, installs) {
  const scenario = loadScenario(file)
  const cells = []
  const libs = []
  const groups = []
  const runGroups = []
  for (const [index, group] of (scenario.run ?? []).entries()) {
    try {
      runGroups.push(await parseRunOptions(
        { ...scenarioArgv(RUN_OPTIONS, group), lib: scenarioLibs(group, scenario), cache: argv.cache, dir },
        installs
      ))
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`${file}: run[${index}]: ${err.message}`)
      throw err
    }
  }
  const httpGroups = []
  for (const [index, group] of (scenario.http ?? []).entries()) {
    try {
      httpGroups.push(await parseHttpOptions(
        { ...scenarioArgv(HTTP_OPTIONS, group), lib: scenarioLibs(group, scenario), cache: argv.cache },
        installs
      ))
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`${file}: http[${index}]: ${err.message}`)
      throw err
    }
  }
  // Counted before any cell is built: the http groups' runs too (a thousand hours of load asks first).
  const sizes = [...runGroups.map(runPlanSize), ...httpGroups.map(httpPlanSize)]
  try {
    refuseHugePlan({ cells: sum(sizes, 'cells'), runs: sum(sizes, 'runs'), costMs: sum(sizes, 'costMs') }, argv.yes)
  } catch (err) {
    throw new UsageError(`${file}: ${err.message}`)
  }
  for (const [index, options] of runGroups.entries()) {
    cells.push(...newCells(cells, withRounds(runTypes.run.plan(options), options.rounds, `${file}: run[${index}]: runs`)))
    libs.push(...options.libs.filter((l) => !libs.some((x) => x.name === l.name && x.version === l.version)))
    groups.push(describeOptions(options))
  }
  // The progress line tells a scenario's run cells apart among all of them, not only within their group.
  cells.splice(0, cells.length, ...labelRunCells(cells))
  for (const [index, options] of httpGroups.entries()) {
    cells.push(...newCells(cells, withRounds(runTypes.http.plan(options), options.rounds, `${file}: http[${index}]: runs`)))
    libs.push(...options.libs.filter((l) =>
      l.adapter && !libs.some((x) => x.name === l.name && x.version === l.version)))
  }
  return { kind: 'scenario', name: scenario.name, file: scenario.file, id: `scenario:${scenario.name}:${scenario.id}`, options: { run: groups, http: httpGroups.map(describeHttpOptions) }, libs, cells, output: scenario.output ?? null }
}

const sum = (items, key) => items.reduce((total, item) => total + item[key], 0)

// Two groups of a scenario can name one cell (pino@10 in one, the project's pino 10 under node@20 in
// another): it is measured once, where it is first named.
function newCells (planned, cells) {
  const keys = new Set(planned.map((c) => c.key))
  return cells.filter((c) => !keys.has(c.key) && keys.add(c.key))
}

function resolveOutput (argv, plan, defaultOut) {
  // The scenario file and adapter files given by path are inputs: never replaced by the results.
  const inputs = [plan.file, ...plan.libs.map((l) => l.file)].filter(Boolean)
  if (argv.out != null) return outputFile(argv.out, { create: true, inputs })
  if (plan.output) return scenarioOutput(plan.output, { label: `${plan.file}: output ${plan.output}`, inputs })
  return defaultOut ? defaultOutput('run') : null
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

// Everything `run` checks and plans before its first run, from argv (the command line's, or the
// API's options turned into argv): the cells, the output, the document's env. Throws UsageError on
// anything wrong, before anything is written. defaultOut: the CLI's results/run-<timestamp>.json
// where no output is given (the API then keeps the document in memory).
// installs: { progress, signal } for what is installed on first use (parseRunOptions).
// --out before any work: a path a file can be written to, and a finished results file (or any other
// file) there is refused without --force. An unfinished one waits for the plan: it may be this
// plan's, to be continued with --resume.
function refuseOutputEarly (argv) {
  // The scenario file and adapter files given by path are inputs (checked again once they are loaded).
  const inputs = [argv.scenario, ...[argv.lib ?? []].flat().flatMap((v) => String(v).split(','))].filter((f) => f != null && f !== '')
  const out = outputFile(argv.out, { create: true, inputs })
  if (argv.force || argv.resume || !fs.existsSync(out)) return
  let doc = null
  try { doc = JSON.parse(fs.readFileSync(out, 'utf8')) } catch {}
  if (doc?.complete !== false) refuseToReplace(out, { label: `--out ${argv.out}` })
}

export async function prepareRun (argv, { defaultOut = false, command = commandLine('log-bench run', RUN_OPTIONS, argv), installs = {} } = {}) {
  if (argv.scenario != null) {
    const given = givenOptions(RUN_OPTIONS, argv, { matrix: true })
    if (given.length) throw new UsageError(`--${given[0]} cannot be combined with --scenario: the scenario file names its cells`)
  }
  // The cheap checks first: planning may install library versions and runtimes.
  if (argv.scenario != null) loadScenario(argv.scenario)
  if (argv.out != null) refuseOutputEarly(argv)
  if (argv.dir == null || argv.scenario != null) temporaryDirectory({ orDir: argv.scenario == null })
  const shard = parseOption(optionNamed(RUN_OPTIONS, 'shard'), argv)
  const order = parseOrder(argv)
  const plan = argv.scenario != null
    ? await planFromScenario(argv.scenario, argv.dir, argv, installs)
    : await planFromOptions(argv, installs)
  const comparison = parseBaseline(argv, plan)
  planRounds(plan.cells, order, roundsOptions(argv, comparison))
  plan.cells.forEach((cell, index) => { cell.planIndex = index })
  const cells = selectShard(plan.cells, shard)
  const out = resolveOutput(argv, plan, defaultOut)
  if (out == null && argv.resume) throw new UsageError('--resume continues a results file: give --out (or a scenario with an output)')
  // --profile's files go beside the results file.
  const profiled = cells.filter((cell) => cell.settings.profile)
  if (profiled.length && out == null) throw new UsageError('--profile writes its .cpuprofile files beside the results file: give --out (or a scenario with an output)')
  for (const cell of profiled) cell.settings.profileOut = out
  const release = out == null ? () => {} : lockResults(out)
  let previous
  try {
    previous = out == null ? null : previousResults(out, plan, shard, { resume: argv.resume, force: argv.force })
    // The results file is replaced: so are its profiles, not left beside it unreferenced.
    if (out != null && argv.force) removeProfiles(out)
  } catch (err) {
    release()
    throw err
  }
  const env = collectEnv({ command, libVersions: libVersionsOf(plan.libs), options: plan.options })
  env.plan = { kind: plan.kind, name: plan.name, file: plan.file ? recordedPath(plan.file) : null, id: plan.id, shard: shard ? `${shard.k}/${shard.n}` : null, cells: plan.cells.length, shardCells: cells.length }
  // Beside every headline: the packages each transport went through and the receiving end's version.
  const adapterOf = (name) => plan.libs.find((lib) => lib.name === name)?.adapter
  const uses = cells.map((cell) => ({ adapter: adapterOf(cell.settings.lib), transport: cell.settings.transport }))
  env.transportVersions = transportVersions(uses)
  if (cells.some((cell) => String(cell.settings.sink).startsWith('rsyslog'))) env.receiverVersions = { rsyslogd: await rsyslogdVersion(requireRsyslogd()) }
  const syslogGroups = plan.kind === 'scenario' ? [...plan.options.run, ...plan.options.http] : [plan.options]
  return {
    cells,
    out,
    env,
    previous,
    order,
    retryTimeouts: argv.retryTimeouts,
    comparison,
    release,
    externalNotes: syslogGroups.map((group) => externalNote(group.syslog)).filter(Boolean)
  }
}

// The API: run(options) measures what `log-bench run` would with the same options (see docs/api.md).
export function run (options = {}) {
  return new Job(async (progress) => {
    const argv = argvFromApi(RUN_OPTIONS, options, 'run')
    const signal = signalOption(options, 'run')
    const job = joinJob('run')
    try {
      const prepared = await prepareRun(argv, { installs: { progress: progress.note, signal } })
      claimOrRelease(job, prepared)
      const doc = await runPrepared(prepared, { signal, progress })
      const comparison = baselineComparison(doc, prepared)
      if (comparison) progress.comparison?.(comparison)
      return doc
    } finally {
      job.leave()
    }
  })
}

// --runs auto's design: at --alpha and --noise; a run cell is compared with --baseline's library,
// an http cell with the app without logging.
function roundsOptions (argv, comparison) {
  const { alpha, noise } = parseOptions(RUN_OPTIONS.filter((o) => ['alpha', 'noise'].includes(o.name)), argv)
  const isBaseline = comparison ? baselineMatcher(comparison.baseline) : () => false
  return { alpha, noise, baseline: comparison?.baseline ?? null, isBaseline: (common) => (common.type === 'http' ? common.lib === HTTP_BASELINE : isBaseline(common)) }
}

// --baseline: a library of this plan (checked before anything runs), with --alpha and --noise.
function parseBaseline (argv, plan) {
  const { baseline, alpha, noise } = parseOptions(RUN_OPTIONS.filter((o) => ['baseline', 'alpha', 'noise'].includes(o.name)), argv)
  if (baseline == null) return null
  const names = [...new Set(plan.cells.map((c) => runName(c.settings)))]
  const isBaseline = baselineMatcher(baseline.trim())
  if (!plan.cells.some((c) => isBaseline(c.settings))) throw new UsageError(`--baseline must be one of the libraries this run measures (${names.join(', ')}), got "${baseline}"`)
  return { baseline: baseline.trim(), alpha, noise }
}

// --profile profiles the timed tight loop or paced logging up to close(), in Node's own inspector.
function profileOption (given) {
  if (given.measure === 'instructions') throw new UsageError('--profile records where the time goes: not with --measure instructions (a profile taken under the simulator would be the simulator\'s)')
  const ending = given.ending.find((e) => e !== DEFAULT_ENDING)
  if (ending) throw new UsageError(`--profile profiles until the adapter's close() resolves: not with --ending ${ending}`)
  return true
}

// --pipe-bytes: a whole number of bytes from 4096 to the system's pipe-max-size, console only.
// --burst yields between bursts of a tight loop; --rate paces every event and yields between them.
function refuseBurstsPaced (given) {
  if (given.rate && given.burst.some((n) => n != null)) throw new UsageError('--burst and --rate both set how the worker yields: give one (--rate paces every event; --burst logs N at once, then yields)')
  return given.burst
}

// A paced run logs for events ÷ rate seconds at the least: past --timeout it could only time out.
// With a list of rates, the lowest sets the longest run. A counted run refuses --rate itself, with
// the reason that comes first (countingWorkers).
function refusePacedPastTimeout ({ rate, events, timeout, measure }) {
  const rates = [rate ?? []].flat()
  if (!rates.length || measure === 'instructions') return
  const slowest = minOf(rates)
  if (events / slowest <= timeout) return
  throw new UsageError(`--events ${events} at --rate ${slowest} takes ${formatSeconds(events / slowest)} per run, past --timeout ${timeout}: every run would time out; give fewer --events, a higher --rate or a longer --timeout`)
}

const formatSeconds = (seconds) => `${+seconds.toPrecision(3)} s`

// --measure instructions counts the tight loop: paced logging (--rate) follows the clock, which runs
// tens of times slow under the simulator, so its batches would not be the ones a service makes.
// Bursts (--burst) follow it too: what a logger writes in the turn after a burst depends on whether
// its last write has completed by then, and under the simulator the worker runs tens of times slower
// than the kernel's I/O: two counted runs of pino to a file in bursts of 10 gave 27,605 and 44,278
// instructions per event (docs/costs.md, "Not in bursts").
function countingWorkers (given) {
  if (given.rate) throw new UsageError('--measure instructions counts the tight loop: leave out --rate (paced logging follows the clock, which runs tens of times slow under the simulator)')
  if (given.burst.some((n) => n != null)) throw new UsageError('--measure instructions counts the tight loop: leave out --burst (what a logger writes between bursts depends on when its writes complete, and under the simulator the worker runs tens of times slower than the I/O)')
  return instructionsMethod()
}

async function receiverOptionsOf (argv, given) {
  const syslog = await parseSyslogOptions(argv, given.transport)
  return {
    ...syslog,
    pipeBytes: given.pipeBytes == null ? 0 : pipeBytesOption(given.pipeBytes, given.transport),
    ...slowReceiverOptions(given, syslog),
    ...receiverLimitOptions(given)
  }
}

// --receiver-rate and --receiver-stall slow the console's reader and the embedded sink's TCP
// reading (src/sinks/slow-reader.js). Anywhere else they could not act (a file's writes, rsyslogd's
// or an external server's reading) and a run would read as slowed when nothing was: refused.
function slowReceiverOptions (given, syslog) {
  const asked = [given.receiverRate != null && '--receiver-rate', given.receiverStall != null && '--receiver-stall'].filter(Boolean)
  if (!asked.length) return {}
  const applies = `${asked.join(' and ')} ${asked.length > 1 ? 'apply' : 'applies'}`
  const other = given.transport.filter((t) => !transportIs(t, 'slowable'))
  if (other.length) throw new UsageError(`${applies} to the ${listOf(SLOWABLE_TRANSPORTS)} transports only (their reading is slowed), not to ${other.join(', ')}: give --transport ${listOf(SLOWABLE_TRANSPORTS, 'or')} alone`)
  const server = syslog.syslogHost != null ? 'an external syslog server' : syslog.syslog === 'rsyslog' ? 'rsyslogd' : null
  if (given.transport.some((t) => transportIs(t, 'syslog') && transportIs(t, 'slowable')) && server) throw new UsageError(`${applies} to the embedded receiving end only: ${server}'s reading over tcp cannot be slowed; leave out --syslog rsyslog and --syslog-host`)
  return { receiverRate: given.receiverRate ?? null, receiverStallMs: given.receiverStall ?? null }
}

function pipeBytesOption (value, transports) {
  const piped = transportsWith('reaches', 'stdout')
  if (!transports.some((t) => piped.includes(t))) throw new UsageError(`--pipe-bytes applies to the ${listOf(piped)} transport only: add --transport ${listOf(piped, 'or')}`)
  let max = 1 << 20
  try { max = Number(fs.readFileSync(PIPE_MAX_BYTES_FILE, 'utf8').trim()) || max } catch {}
  return positiveInt(value, 'pipe-bytes', { min: 4096, max })
}
