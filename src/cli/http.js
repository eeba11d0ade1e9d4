import { UsageError } from '../errors.js'
import { BUILTIN_LIBS, LIB_SETS, isAdapterPath, loadLibraries } from '../loggers/index.js'
import { TRANSPORT_HINTS, TRANSPORTS } from '../sinks/index.js'
import { runSession } from '../bench/session.js'
import { planHttpCells } from '../http/matrix.js'
import { planPlacement } from '../http/placement.js'
import { BASELINE } from '../results/http-summary.js'
import { collectEnv } from '../results/env.js'
import { renderHttpTerminal } from '../report/http-terminal.js'
import { defaultOutput, list, MAX_SECONDS, oneOf, outputFile, positiveInt, positiveIntList, refuseToReplace, seconds } from './validate.js'
import { addOrderOptions, parseOrder } from './order-options.js'
import { addSyslogOptions, describeSyslog, externalNote, parseSyslogOptions } from './syslog-options.js'

export const DEFAULTS = {
  lib: 'none,all',
  transport: 'console',
  cpus: '1',
  logsPerRequest: '5',
  size: '20',
  duration: 10,
  warmup: 1,
  connections: 10,
  pipelining: 1,
  runs: 1,
  port: 0
}

export const command = 'http'
export const describe = 'The cost of logging under HTTP load: an express server logging through each library, driven by autocannon; req/s and latency against the same app without logging'

export function builder (yargs) {
  return addOrderOptions(addSyslogOptions(yargs))
    .option('lib', { type: 'string', default: DEFAULTS.lib, describe: `Comma list: ${BASELINE} (the same app without logging; always run as the baseline), ${BUILTIN_LIBS.join(', ')}, all (the seed's four), every (all ${LIB_SETS.every.length} libraries), or a path to an adapter file` })
    .option('transport', { type: 'string', default: DEFAULTS.transport, describe: `Comma list of destinations: ${TRANSPORTS.join(', ')} (console: the server's stdout, a pipe read and verified by log-bench)` })
    .option('cpus', { type: 'string', default: DEFAULTS.cpus, describe: 'Comma list of server worker counts (node:cluster workers sharing the port)' })
    .option('logs-per-request', { type: 'string', describe: `Comma list: events the route logs per request (default ${DEFAULTS.logsPerRequest}; not with --middleware)` })
    .option('size', { type: 'string', default: DEFAULTS.size, describe: 'Comma list of payload sizes in characters (each event is "w<worker> <seq>: " + payload)' })
    .option('middleware', { type: 'boolean', default: false, describe: 'Log each request with the library\'s own express request logger (pino-http, express-winston, log4js connectLogger) instead of the route' })
    .option('duration', { type: 'string', default: String(DEFAULTS.duration), describe: `Seconds of measured load per run (at most ${MAX_SECONDS.toLocaleString('en-US')})` })
    .option('warmup', { type: 'string', default: String(DEFAULTS.warmup), describe: 'Seconds of load before the measured run (discarded; 0 for none)' })
    .option('connections', { type: 'string', default: String(DEFAULTS.connections), describe: 'Concurrent autocannon connections' })
    .option('pipelining', { type: 'string', default: String(DEFAULTS.pipelining), describe: 'Requests pipelined per connection' })
    .option('runs', { type: 'string', default: String(DEFAULTS.runs), describe: 'Runs per cell (fresh processes each)' })
    .option('server-cpus', { type: 'string', describe: 'CPUs for the server\'s workers, as taskset -c lists them (e.g. 1 or 2-7) [default: all but the load\'s]' })
    .option('load-cpus', { type: 'string', describe: 'CPUs for autocannon, log-bench\'s primary and the receiving end, disjoint from --server-cpus [default: a quarter of the CPUs, at least one; with 2 CPUs: CPU 0]' })
    .option('port', { type: 'string', default: String(DEFAULTS.port), describe: 'Port on 127.0.0.1 (0: a free port chosen by the system)' })
    .option('out', { type: 'string', describe: 'Results JSON file (default: results/http-<timestamp>.json)' })
    .option('force', { type: 'boolean', default: false, describe: 'Replace an existing results file at --out; without it an existing file is refused' })
    .option('quiet', { type: 'boolean', default: false, describe: 'No progress on stderr' })
    .example('$0 http --lib none,pino,winston --transport file --duration 10 --connections 10', '')
    .example('$0 http --lib all --logs-per-request 0,5,20 --size 5,20,100 --cpus 1 --out results/http.json', '')
    .example('$0 http --lib pino,winston --middleware', 'each library\'s own express request logger')
    .example('$0 http --lib pino,bunyan --transport udp --syslog rsyslog', 'the server logs over syslog to a real rsyslogd')
}

// The baseline always runs: every library is reported as a change against it.
async function parseLibs (value) {
  const entries = list(value, 'lib')
  for (const entry of entries) {
    const name = entry.replace(/:[A-Za-z][\w-]*$/, '')
    if (entry !== BASELINE && !(entry in LIB_SETS) && !BUILTIN_LIBS.includes(name) && !isAdapterPath(name)) {
      throw new UsageError(`unknown library "${entry}": use one of ${[BASELINE, ...BUILTIN_LIBS, ...Object.keys(LIB_SETS)].join(', ')}, or a path to an adapter file such as ./my-logger.js`)
    }
  }
  const others = entries.filter((e) => e !== BASELINE)
  return [{ name: BASELINE, file: null, adapter: null, version: null }, ...await loadLibraries(others, [BASELINE], { variants: false })]
}

// Turns raw option strings into a checked plan; throws UsageError on anything wrong, before anything is written.
export async function parseHttpOptions (argv) {
  const middleware = Boolean(argv.middleware)
  if (middleware && argv.logsPerRequest != null) {
    throw new UsageError('--logs-per-request applies to route mode: with --middleware each request is one event, logged by the library\'s request logger')
  }
  const options = {
    libs: await parseLibs(argv.lib),
    transports: [...new Set(oneOf(list(argv.transport, 'transport'), TRANSPORTS, 'transport', TRANSPORT_HINTS))],
    cpus: positiveIntList(argv.cpus, 'cpus', { max: 256 }),
    mode: middleware ? 'middleware' : 'route',
    logsPerRequest: middleware ? [] : positiveIntList(argv.logsPerRequest ?? DEFAULTS.logsPerRequest, 'logs-per-request', { min: 0, max: 10_000 }),
    sizes: positiveIntList(argv.size, 'size', { max: 1 << 20 }),
    load: {
      durationSeconds: seconds(argv.duration, 'duration'),
      warmupSeconds: seconds(argv.warmup, 'warmup', { allowZero: true }),
      connections: positiveInt(argv.connections, 'connections', { max: 10_000 }),
      pipelining: positiveInt(argv.pipelining, 'pipelining', { max: 1000 })
    },
    runs: positiveInt(argv.runs, 'runs', { max: 1000 }),
    port: positiveInt(argv.port, 'port', { min: 0, max: 65535 })
  }
  options.placement = planPlacement({ serverCpus: argv.serverCpus ?? null, loadCpus: argv.loadCpus ?? null })
  options.receiverOptions = await parseSyslogOptions(argv, options.transports)
  options.out = argv.out == null ? null : outputFile(argv.out, { create: true })
  if (options.out) refuseToReplace(options.out, { force: argv.force })
  return options
}

export function describeHttpOptions (options) {
  return {
    libs: options.libs.map((l) => l.name),
    transports: options.transports,
    cpus: options.cpus,
    mode: options.mode,
    logsPerRequest: options.logsPerRequest,
    sizes: options.sizes,
    ...options.load,
    runs: options.runs,
    port: options.port,
    serverCpus: options.placement.serverCpus,
    loadCpus: options.placement.loadCpus,
    ...(options.placement.pinned ? {} : { notPinned: options.placement.reason }),
    // Only where a syslog transport is used, so other plans describe themselves as before.
    ...(options.receiverOptions?.syslog ? { syslog: describeSyslog(options.receiverOptions) } : {})
  }
}

export async function handler (argv) {
  const options = await parseHttpOptions(argv)
  const out = options.out ?? defaultOutput('http')
  const env = collectEnv({
    argv: process.argv.slice(2),
    libVersions: Object.fromEntries(options.libs.filter((l) => l.adapter).map((l) => [l.name, l.version])),
    options: describeHttpOptions(options)
  })
  const doc = await runSession({ cells: planHttpCells(options), out, env, quiet: argv.quiet, order: parseOrder(argv) })
  if (!doc) return
  process.stdout.write(renderHttpTerminal(doc))
  process.stdout.write(externalNote(describeSyslog(options.receiverOptions)))
  const failed = doc.runs.filter((r) => r.status === 'failed').length
  process.stdout.write(`\nresults: ${out}${failed ? ` (${failed} failed run${failed > 1 ? 's' : ''}, see above)` : ''}\n`)
}
