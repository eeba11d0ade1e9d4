import { UsageError } from '../errors.js'
import { instructionsMethod } from '../engine/instructions.js'
import { BUILTIN_LIBS, LIB_SETS, isAdapterPath, loadLibraries } from '../loggers/index.js'
import { runTypes } from './run-types.js'
import { planPlacement } from '../http/placement.js'
import { BASELINE } from '../results/http-summary.js'
import { lockResults } from '../results/lock.js'
import { collectEnv, libVersionsOf } from '../results/env.js'
import { defaultOutput, outputFile, refuseToReplace, temporaryDirectory } from './validate.js'
import { ALTERNATE_SLICE_SECONDS, COUNTED_CONNECTIONS, DEFAULT_CONNECTIONS, describeReceiverLimits, HTTP_OPTIONS, receiverLimitOptions } from './option-tables.js'
import { argvFromApi, commandLine, signalOption, parseOptions } from './options.js'
import { parseOrder, planRounds, withRounds } from './order-options.js'
import { maxRuns, runsText } from './runs-option.js'
import { DEFAULT_ALPHA, DEFAULT_NOISE } from '../stats.js'
import { describeSyslog, externalNote, parseSyslogOptions } from './syslog-options.js'
import { Job } from './job.js'
import { claimOrRelease, runPrepared } from './session.js'
import { joinJob } from '../engine/affinity-jobs.js'
import { FILES_BESIDES_CONNECTIONS, openFilesLimit } from '../limits.js'
import { DEFAULT_RUNTIME, resolveRuntimes } from '../versions/runtimes.js'

// The baseline always runs: every library is reported as a change against it.
async function parseLibs (entries, cache, installs) {
  for (const entry of entries) {
    const name = entry.replace(/:[A-Za-z][\w-]*$/, '').replace(/^([a-z][\w-]*)@.+$/, '$1')
    if (entry !== BASELINE && !(entry in LIB_SETS) && !BUILTIN_LIBS.includes(name) && !isAdapterPath(name)) {
      throw new UsageError(`unknown library "${entry}": use one of ${[BASELINE, ...BUILTIN_LIBS, ...Object.keys(LIB_SETS)].join(', ')}, or a path to an adapter file such as ./my-logger.js`)
    }
  }
  const others = entries.filter((e) => e !== BASELINE)
  return [
    { name: BASELINE, file: null, adapter: null, version: null },
    ...await loadLibraries(others, [BASELINE], { variants: false, cache, ...installs })
  ]
}

// Turns raw option strings into a checked plan; throws UsageError on anything wrong, before anything is written.
// installs: { progress, signal } for the library versions and runtimes installed on first use.
export async function parseHttpOptions (argv, installs = {}) {
  const middleware = Boolean(argv.middleware)
  if (middleware && argv.logsPerRequest != null) {
    throw new UsageError('--logs-per-request applies to route mode: with --middleware each request is one event, logged by the library\'s request logger')
  }
  const given = parseOptions(HTTP_OPTIONS, argv)
  // Every http run makes its directory in the system's temporary directory.
  temporaryDirectory({ orDir: false })
  // --out before any work: parsing the libraries may install versions.
  if (given.out != null) refuseToReplace(outputFile(given.out, { create: true, inputs: given.lib }), { force: given.force, label: `--out ${given.out}` })
  const options = {
    libs: await parseLibs(given.lib, given.cache, installs),
    transports: given.transport,
    cpus: given.cpus,
    mode: middleware ? 'middleware' : 'route',
    logsPerRequest: middleware ? [] : given.logsPerRequest,
    sizes: given.size,
    load: {
      durationSeconds: given.duration,
      warmupSeconds: given.warmup,
      // Counted: one connection unless told otherwise. Over several, how many requests arrive
      // together (and are read, parsed and answered in one turn of the event loop) follows the
      // simulator's pace, and the count per request with it: 0.3-0.6% from run to run over one
      // connection at 100 requests/s, 1.8-6% over 10 (docs/costs.md).
      connections: given.connections ?? (given.measure === 'instructions' ? COUNTED_CONNECTIONS : DEFAULT_CONNECTIONS),
      pipelining: given.pipelining,
      // An open-loop load is another measurement than a closed loop; a closed-loop record has no rate.
      ...(given.rate ? { rate: given.rate } : {}),
      // Alternating runs are another design: their records say the slice's length, others have none.
      ...(alternating(given) ? { alternate: ALTERNATE_SLICE_SECONDS } : {})
    },
    counter: countingServer(given),
    runs: maxRuns(given.runs),
    rounds: given.runs,
    port: given.port
  }
  refuseBeyondOpenFiles(options.load.connections)
  options.placement = planPlacement({ serverCpus: given.serverCpus, loadCpus: given.loadCpus })
  options.receiverOptions = { ...await parseSyslogOptions(argv, options.transports), ...receiverLimitOptions(given) }
  options.out = given.out == null
    ? null
    : outputFile(given.out, { create: true, inputs: options.libs.map((l) => l.file).filter(Boolean) })
  if (options.out) refuseToReplace(options.out, { force: given.force })
  // Installs come last, once every other option is known to be right.
  options.runtimes = await resolveRuntimes(given.runtime, { cache: given.cache, ...installs })
  return options
}

// --measure instructions: the server is counted over a run of --duration and one of twice that, at a
// fixed rate (without one the difference would be of how fast the simulator ran, not of requests).
function countingServer (given) {
  if (given.measure !== 'instructions') return null
  if (!given.rate) throw new UsageError('--measure instructions needs --rate: a fixed request rate the server can serve under the simulator (e.g. --rate 100), so that both counted runs serve requests in proportion to their duration')
  return instructionsMethod()
}

// --alternate: both servers are timed, so not counted; not at a fixed rate (autocannon's pacing is per
// second of each connection, and a slice opens its connections anew); each side gets --duration
// seconds in slices, at least two of them, so that the order A B B A can cancel a change of speed.
function alternating (given) {
  if (!given.alternate) return false
  if (given.measure === 'instructions') throw new UsageError('--alternate times two servers in turn, so that a change of the machine\'s speed falls on both; --measure instructions counts instructions, which that change does not move: give one or the other')
  if (given.rate) throw new UsageError(`--alternate turns the load every ${ALTERNATE_SLICE_SECONDS} s, and autocannon paces --rate per second from each connection's start: each slice would send a second's requests at once. Give one or the other`)
  if (given.duration < 2 * ALTERNATE_SLICE_SECONDS) throw new UsageError(`--alternate sends --duration seconds of load to each server in slices of ${ALTERNATE_SLICE_SECONDS} s, at least two each: give --duration ${2 * ALTERNATE_SLICE_SECONDS} or more (got ${given.duration})`)
  return true
}

// Every connection is a file descriptor in the load generator, and may be one in a server worker:
// past `ulimit -n` they fail with EMFILE and a run would only time out. Said before anything runs.
function refuseBeyondOpenFiles (connections) {
  const limit = openFilesLimit()
  const needed = connections + FILES_BESIDES_CONNECTIONS
  if (limit !== null && needed > limit) throw new UsageError(`--connections ${connections} needs about ${needed.toLocaleString('en-US')} open files in the load generator and in a server worker, but this shell allows ${limit.toLocaleString('en-US')} (ulimit -n): raise it (ulimit -n ${Math.max(needed * 2, 4096)}) or give at most --connections ${Math.max(1, limit - FILES_BESIDES_CONNECTIONS)}; past it, connections fail with EMFILE`)
}

export function describeHttpOptions (options) {
  return {
    libs: options.libs.map((l) => (l.range != null ? `${l.name}@${l.version}` : l.name)),
    // Only where other than the Node running log-bench, so other plans describe themselves as before.
    ...(options.runtimes.some((r) => r.spec !== DEFAULT_RUNTIME)
      ? { runtimes: options.runtimes.map((r) => r.label) }
      : {}),
    transports: options.transports,
    cpus: options.cpus,
    mode: options.mode,
    logsPerRequest: options.logsPerRequest,
    sizes: options.sizes,
    ...options.load,
    ...(options.counter ? { measure: 'instructions', instructionsMethod: options.counter.instructionsMethod } : {}),
    runs: runsText(options.rounds),
    port: options.port,
    serverCpus: options.placement.serverCpus,
    loadCpus: options.placement.loadCpus,
    ...(options.placement.pinned ? {} : { notPinned: options.placement.reason }),
    // Only where a syslog transport is used, so other plans describe themselves as before.
    ...(options.receiverOptions?.syslog ? { syslog: describeSyslog(options.receiverOptions) } : {}),
    ...describeReceiverLimits(options.transports, options.receiverOptions)
  }
}

// Everything `http` checks and plans before its first run (as prepareRun in run.js).
export async function prepareHttp (argv, { defaultOut = false, command = commandLine('log-bench http', HTTP_OPTIONS, argv), installs = {} } = {}) {
  const options = await parseHttpOptions(argv, installs)
  const out = options.out ?? (defaultOut ? defaultOutput('http') : null)
  const release = out == null ? () => {} : lockResults(out)
  const env = collectEnv({
    command,
    libVersions: libVersionsOf(options.libs.filter((l) => l.adapter)),
    options: describeHttpOptions(options)
  })
  const note = externalNote(describeSyslog(options.receiverOptions))
  const order = parseOrder(argv)
  const cells = planRounds(
    withRounds(runTypes.http.plan(options), options.rounds),
    order,
    { alpha: DEFAULT_ALPHA, noise: DEFAULT_NOISE, baseline: BASELINE, isBaseline: (common) => common.lib === BASELINE }
  )
  return {
    cells,
    out,
    env,
    previous: null,
    order,
    retryTimeouts: false,
    comparison: null,
    release,
    externalNotes: note ? [note] : []
  }
}

// The API: http(options) measures what `log-bench http` would with the same options (see docs/api.md).
export function http (options = {}) {
  return new Job(async (progress) => {
    const argv = argvFromApi(HTTP_OPTIONS, options, 'http')
    const signal = signalOption(options, 'http')
    const job = joinJob('http')
    try {
      const prepared = await prepareHttp(argv, { installs: { progress: progress.note, signal } })
      claimOrRelease(job, prepared)
      return await runPrepared(prepared, { signal, progress })
    } finally {
      job.leave()
    }
  })
}
