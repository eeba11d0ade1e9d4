import { DEFAULT_WORKLOAD, WORKLOADS } from '../engine/workloads.js'
import { DEFAULT_ENDING, ENDINGS, ENDING_NAMES } from '../engine/endings.js'
import { DEFAULT_ALPHA, DEFAULT_NOISE, GATE_VERDICTS } from '../stats.js'
import { DEFAULT_ORDER, ORDERS } from '../runner/orders.js'
import { EXPORT_FORMATS, FORMATS } from '../report/formats.js'
import { BUILTIN_LIBS, HTTP_BASELINE, LIB_SETS } from '../engine/library-names.js'
import { COLLECTOR_TRANSPORTS, listOf, TRANSPORT_HINTS, transportDescriptor, TRANSPORTS, transportIs } from '../engine/transports.js'
import { MAX_EVENTS, MAX_RUNS, MAX_SIZE_BYTES, MAX_WORKERS } from '../limits.js'
import { shippedScenarios } from '../shipped-scenarios.js'
import { parseRuns, RUNS_SCHEMA } from './runs-option.js'
import { DEFAULT_RECEIVER_MAX_BYTES, DEFAULT_RECEIVER_MAX_REQUESTS, DEFAULT_RECEIVER_MAX_VALUES, receiverLimits } from '../engine/receiver-limits.js'
import { camel } from './options.js'
import { UsageError } from '../errors.js'
import { DEFAULT_MEASURE, MEASURES } from '../engine/instructions.js'
import { cacheDirectory, list, parseShard, positiveInt, positiveIntList, writableDirectory } from './validate.js'
import { parseRuntimes, RUNTIME_NAMES } from '../versions/runtime-names.js'
import { availableCpus, findTaskset, formatCpuList } from '../engine/affinity.js'

// The option tables of `run` and `http` (see options.js for what an entry holds): every option
// once, with its default, its values and limits, and its scenario key.

// The limits are the results reader's too (src/limits.js): one figure each.
export { MAX_RUNS, MAX_SIZE_BYTES, MAX_WORKERS }
export const MAX_RATE = 100_000_000
export const MAX_RECEIVER_RATE = 10_000_000_000
export const MAX_RECEIVER_STALL_MS = 600_000
const MAX_HTTP_RATE = 1_000_000
// http's load: 10 connections; counted (--measure instructions), one request at a time.
export const DEFAULT_CONNECTIONS = 10
export const COUNTED_CONNECTIONS = 1
// http --alternate: how long the load stays on one of the two servers before it turns to the other.
// Short against the machine's changes of speed, long against each slice's own start (autocannon
// opens its connections anew each slice). Measured with the slice changed in the code (docs/http.md,
// "Alternating runs"): a known cost read the same at 0.1, 0.2 and 0.5 s, and no length spread the
// runs' ratios clearly less than another.
export const ALTERNATE_SLICE_SECONDS = 0.2
export const SYSLOG_SINKS = ['embedded', 'rsyslog']
const EVENTS_LIMIT = { max: MAX_EVENTS, why: ' (the verifier keeps one bit per event: 128 MiB per worker at the limit)' }
// Events per worker: what `run` logs and what `sink` expects by default.
const DEFAULT_EVENTS = '1000000'

// Where the udp and tcp transports deliver; the same for both commands.
export const SYSLOG_OPTIONS = [
  { name: 'syslog', values: SYSLOG_SINKS, noun: 'syslog sink (--syslog)', defaultText: 'embedded', matrix: true, scenario: 'syslog', describe: 'receiving end for udp/tcp: embedded (a sink process that counts every event) or rsyslog (a real rsyslogd started for each run)' },
  { name: 'syslog-host', matrix: true, describe: 'send udp/tcp events to a syslog server you run instead (nothing can be counted there: drop rate unknown)' },
  { name: 'syslog-port', int: { max: 65535 }, default: '514', matrix: true, describe: 'port of the server given by --syslog-host' },
  { name: 'syslog-output', matrix: true, describe: 'the output file of the server given by --syslog-host, when it is an rsyslog using docker/rsyslog.conf with its output shared with this machine (docker/compose.yaml): its events are then counted from that file like a local rsyslog\'s' }
]

// What the otlp and forward receivers accept (src/sinks/receiver-limits.js, docs/destinations.md).
const REFUSED = `refused at once (${COLLECTOR_TRANSPORTS.map((t) => transportDescriptor(t).refuses).join('; ')}) and counted; a run missing events fails with that cause`
const COLLECTORS_ONLY = `${listOf(COLLECTOR_TRANSPORTS)} only`
export const RECEIVER_LIMIT_OPTIONS = [
  { name: 'receiver-max-bytes', int: { min: 1024, max: 2 ** 30, why: ' (bytes)' }, matrix: true, defaultText: `${DEFAULT_RECEIVER_MAX_BYTES} (20 MiB, the OpenTelemetry Collector's default)`, describe: `${COLLECTORS_ONLY}: the largest request body or forward message the embedded receiver reads, and the most one may inflate to (gzip); a bigger one is ${REFUSED}` },
  { name: 'receiver-max-values', int: { max: 100_000_000 }, matrix: true, defaultText: String(DEFAULT_RECEIVER_MAX_VALUES), describe: `${COLLECTORS_ONLY}: the most values (log records, attributes, strings, JSON objects, msgpack values) one request or message may decode into, counted on its bytes before it is decoded; more is ${REFUSED}` },
  { name: 'receiver-max-requests', int: { max: 1000 }, matrix: true, defaultText: String(DEFAULT_RECEIVER_MAX_REQUESTS), describe: `${COLLECTORS_ONLY}: OTLP requests read and decoded at once (the others wait unread); forward messages still arriving may hold this many times --receiver-max-bytes on all connections together` }
]

// The receiver limits given, for createReceiver (null: the default); refused without a collector transport.
export function receiverLimitOptions (given) {
  const asked = RECEIVER_LIMIT_OPTIONS.map((option) => option.name).filter((name) => given[camel(name)] != null)
  if (!asked.length) return {}
  if (!given.transport.some((t) => transportIs(t, 'collector'))) throw new UsageError(`--${asked.join(', --')} ${asked.length > 1 ? 'apply' : 'applies'} to the ${listOf(COLLECTOR_TRANSPORTS)} transports only (their embedded receivers): add --transport ${listOf(COLLECTOR_TRANSPORTS, 'or')}`)
  return Object.fromEntries(asked.map((name) => [camel(name), given[camel(name)]]))
}

// The limits in force, recorded with the options where a transport has them.
export const describeReceiverLimits = (transports, receiverOptions) => (transports.some((t) => transportIs(t, 'collector'))
  ? { receiverLimits: receiverLimits(receiverOptions) }
  : {})

// The order of the runs, for both commands (src/runner/orchestrator.js, docs/comparisons.md).
export const ORDER_OPTIONS = [
  { name: 'order', values: ORDERS, default: DEFAULT_ORDER, describe: 'interleaved: rounds, run 1 of every cell, then run 2…, the cells of a round in an order shuffled from --seed, so that a slow minute of the machine falls on every library alike; blocked: each cell\'s runs back to back' },
  { name: 'seed', int: { min: 0, max: 2 ** 31 - 1 }, defaultText: 'a new one', describe: 'seed of the interleaved order, recorded in the results as env.order; give it again to repeat an order' }
]

const ALPHA = { name: 'alpha', parse: parseAlpha, numeric: true, takes: 'a number between 0 and 1', default: String(DEFAULT_ALPHA), describe: 'significance level: p of the comparison\'s two-sided test (Mann–Whitney U; Wilcoxon signed-rank where paired by round) below it can read faster or slower' }
const NOISE = { name: 'noise', parse: parseNoise, numeric: true, takes: 'a fraction (0.02) or a percentage (2%)', default: `${DEFAULT_NOISE * 100}%`, describe: 'noise threshold: a difference whose 95% interval lies within ±noise reads same (counted instructions and HTTP requests/s have their own: docs/comparisons.md)' }

const libraries = `${BUILTIN_LIBS.join(', ')}, all (the seed's four: ${LIB_SETS.all.join(', ')}), every (all ${LIB_SETS.every.length} libraries)`
const CACHE = { name: 'cache', parse: cacheDirectory, defaultText: '$XDG_CACHE_HOME/log-bench, else ~/.cache/log-bench', describe: 'where library versions and runtimes are installed' }
// Checked as names here; installed (and probed) once the other options are known to be right.
const runtimeList = (value) => parseRuntimes(list(value, 'runtime')).map((r) => r.spec)
const QUIET = { name: 'quiet', type: 'boolean', cliOnly: true, describe: 'no progress on stderr' }
const JSON_ANSWER = { name: 'json', type: 'boolean', cliOnly: true, describe: 'print only the closing answer on stdout, as JSON ({ results, alpha, noise, groups: [{ group, measure, reference, rows }], knees }, each row as compare --json gives it, with how many times slower or faster; knees: where runs were paced at several rates, each library\'s knee per transport), instead of the tables' }
const FORCE = (where) => ({ name: 'force', type: 'boolean', describe: `replace an existing results file at ${where}; without it an existing file is refused` })

export const RUN_OPTIONS = [
  { name: 'lib', list: true, default: 'all,raw', matrix: true, scenario: 'libs', scenarioRequired: true, describe: `libraries: ${libraries}, name:variant for a library's documented variant (pino:sync, see list), or a path to an adapter file (./my-logger.js); name@range for a published version of log4js, winston, bunyan or pino (pino@9, winston@2.4.7), installed into the cache on first use (see docs/versions.md)` },
  { name: 'runtime', list: true, parse: runtimeList, default: 'node', matrix: true, scenario: 'runtimes', describe: `what the workers run under: ${RUNTIME_NAMES.join(', ')} (node: the Node running log-bench), name@range, or a path to a binary; registry runtimes are installed into the cache on first use (see docs/versions.md)` },
  CACHE,
  { name: 'workload', list: true, values: WORKLOADS, default: DEFAULT_WORKLOAD, matrix: true, scenario: 'workloads', describe: 'what each event carries (see docs/workloads.md)' },
  { name: 'transport', list: true, values: TRANSPORTS, hints: TRANSPORT_HINTS, default: 'console', matrix: true, scenario: 'transports', scenarioRequired: true, describe: 'where the events go: console is the workers\' stdout, a pipe log-bench reads; udp and tcp are syslog; otlp is OpenTelemetry OTLP/HTTP, forward the Fluent forward protocol, each to an embedded receiver' },
  { name: 'cpus', list: true, int: { max: MAX_WORKERS }, default: '1', matrix: true, scenario: 'cpus', describe: 'worker counts (node:cluster workers logging at once)' },
  { name: 'cores', list: true, parse: (value) => parseCores(value), numeric: true, takes: 'comma list of integers, 1 to the CPUs log-bench may use', schema: { type: 'integer', minimum: 1 }, matrix: true, scenario: 'cores', defaultText: 'every CPU', describe: 'run the whole run (log-bench\'s process, the receiving end, rsyslogd where the run starts it, every worker) on this many CPUs: the first N of those log-bench may use, set with taskset (util-linux) before the run starts and undone after it, as the 2019 article took CPUs offline (a list: one cell per count; recorded as the record\'s cores). Not more than the CPUs log-bench may use' },
  { name: 'events', int: EVENTS_LIMIT, default: DEFAULT_EVENTS, matrix: true, scenario: 'events', describe: 'events each worker logs per run (1e6, 1_000_000 and 1,000,000 are read alike)' },
  { name: 'rate', list: true, int: { max: MAX_RATE, why: ' (events per second per worker)' }, matrix: true, scenario: 'rates', defaultText: 'none: a tight loop', describe: 'pace the logging: this many events per second per worker (a list: one cell per rate), each event logged when it is due (its intended time), the event loop turning between events as in a service; records each call\'s response time from its intended time (responseLatencyNs, beside the call\'s own time) and the event-loop delay. A run then takes at least --events ÷ rate seconds (at the lowest rate): past --timeout it is refused before anything starts' },
  { name: 'burst', list: true, parse: parseBursts, takes: 'comma list of integers from 1, or all', schema: { oneOf: [{ type: 'integer', minimum: 1 }, { const: 'all' }] }, matrix: true, scenario: 'bursts', default: 'all', describe: 'log this many events in one synchronous loop, then let the event loop turn (setImmediate) before the next burst, as a service logs a few lines per request and yields between requests (pino\'s own benchmarks log in bursts of 10); all: every event in one loop (a list: one cell per burst size, recorded as the record\'s burst). unblocked then runs from the first call until the loop is free after the last burst. Not with --rate or --measure instructions' },
  { name: 'ending', list: true, values: ENDING_NAMES, default: DEFAULT_ENDING, matrix: true, scenario: 'endings', describe: `how each worker's process ends after its last call: ${ENDINGS.map((e) => `${e.name} (${e.describe})`).join('; ')}. A loss is counted, not a failed run (see docs/durability.md)` },
  { name: 'receiver-rate', int: { max: MAX_RECEIVER_RATE, why: ' (bytes per second)' }, matrix: true, scenario: 'receiverRate', defaultText: 'none: full speed', describe: 'console and tcp (embedded sink) only: the receiving end reads each worker\'s stdout, or each TCP connection, no faster than this many bytes per second (a slow consumer); node\'s stream reader then reads the console' },
  { name: 'receiver-stall', int: { max: MAX_RECEIVER_STALL_MS, why: ' (milliseconds)' }, matrix: true, scenario: 'receiverStall', defaultText: 'none', describe: 'console and tcp (embedded sink) only: the receiving end stops reading each worker\'s stdout, or each TCP connection, for this many ms once a tenth of the events arrived there, then reads at full speed; records the time from the stall\'s end to the last arrival' },
  { name: 'measure', values: MEASURES, default: DEFAULT_MEASURE, matrix: true, scenario: 'measure', describe: 'time: wall and CPU time (what a user feels); instructions: each worker under a CPU simulator (valgrind) or hardware counters (perf), instructions per event from the difference of a pass of N and one of 2N events, with syscalls and bytes written per event: exact enough to compare changes of 1-2% on a shared machine, and no times (see docs/costs.md)' },
  { name: 'profile', type: 'boolean', matrix: true, scenario: 'profile', describe: 'record a V8 CPU profile of each worker\'s logging, from the start to close(): a .cpuprofile file per worker and thread beside the results file (Chrome DevTools and speedscope load it), and in each record where the time went (self time by package, the top functions, µs per event). Profiled runs are cells of their own, never compared with unprofiled ones (see docs/costs.md). Not with --measure instructions, --ending other than close, or a runtime other than Node' },
  { name: 'runs', parse: parseRuns, numeric: true, takes: `integer 1 to ${MAX_RUNS.toLocaleString('en-US')}, auto, or auto:MIN..MAX`, schema: RUNS_SCHEMA, default: '6', matrix: true, scenario: 'runs', describe: 'runs per cell, each in fresh processes; the summary gives their median with its interval. 4 is the fewest with which a comparison can read faster or slower (the smallest p with 4 + 4 runs is 0.029, with 3 + 3 0.1); 5 + 5 reach 0.008. From 6 the runs are compared round by round (paired, so drift common to a round cancels): 5 pairs cannot go below p 0.0625, 6 reach 0.031. auto: rounds until every comparison of a group (each cell against --baseline\'s library, and against its neighbour in the ranking) reads faster, slower or same, judged at 6, 9, 14 and 20 rounds with α split across those looks so that an A/A reads faster or slower no more often than --alpha (docs/comparisons.md); auto:MIN..MAX sets the first and last look (a MAX whose looks cannot reach p < α, below 6 at 0.05, is refused); what is undecided at MAX reads unclear' },
  { name: 'size', list: true, int: { max: MAX_SIZE_BYTES }, defaultText: 'the seed\'s "Hello, world!", 13 bytes', matrix: true, scenario: 'sizes', describe: 'payload sizes in bytes: the payload is padded (or cut) to exactly that size' },
  { name: 'timeout', seconds: {}, default: '600', matrix: true, scenario: 'timeout', describe: 'limit per run in seconds, counted from the start of logging (starting the workers and building the loggers has its own: the longer of this and 60 s); a run past it is killed and recorded as failed' },
  { name: 'max-old-space-size', int: { min: 8 }, defaultText: 'node\'s default', matrix: true, scenario: 'maxOldSpaceSize', describe: 'heap limit in MB for each worker (node --max-old-space-size), to reproduce memory blow-ups' },
  ...RECEIVER_LIMIT_OPTIONS,
  { name: 'pipe-bytes', takes: 'bytes, 4096 to /proc/sys/fs/pipe-max-size', parse: String, numeric: true, defaultText: 'the system\'s (64 KiB)', matrix: true, describe: 'console only: the pipe buffer each worker\'s stdout gets (F_SETPIPE_SZ). A larger pipe lets a logger run ahead of its reader, so the default is what `node app.js | cat` gets' },
  ...SYSLOG_OPTIONS,
  { name: 'dir', parse: (value) => writableDirectory(value, 'dir'), defaultText: 'the system\'s temporary directory', describe: 'an existing directory for the runs\' files (the file transport\'s logs, the console capture): tmpfs and a disk are different benchmarks, and each file run records the file system type' },
  { name: 'scenario', describe: `run the cells of a scenario instead of the options above: a shipped one by name (${shippedScenarios().map((s) => s.name).join(', ')}; see list) or a scenario file's path (see docs/scenarios.md)` },
  { name: 'out', defaultText: 'the scenario\'s output, else results/run-<timestamp>.json', describe: 'results JSON file; missing directories are created' },
  FORCE('--out (or the scenario\'s output)'),
  { name: 'resume', type: 'boolean', describe: 'continue the unfinished results file given by --out (or the scenario\'s output): finished runs are kept, the rest run' },
  { name: 'shard', parse: parseShard, takes: 'k/n', describe: 'run only share k of n of the plan (e.g. 1/4; n at most 1,000), in whole comparison groups balanced by estimated cost; join the shards with log-bench merge' },
  ...ORDER_OPTIONS,
  { name: 'baseline', describe: 'at the end, compare every cell with this library\'s cell of the same transport, workers, cores, workload, size and receiving end: ratio of medians with its 95% interval, p and a verdict (faster, slower, same), as compare --baseline' },
  { ...ALPHA, describe: 'with --baseline or --runs auto: ' + ALPHA.describe },
  { ...NOISE, describe: 'with --baseline or --runs auto: ' + NOISE.describe },
  QUIET,
  JSON_ANSWER,
  { name: 'retry-timeouts', type: 'boolean', describe: 'run the rest of a cell after one of its runs hit --timeout (by default they are recorded as skipped, with the reason)' },
  { name: 'yes', type: 'boolean', describe: 'start a plan past the size log-bench asks about first (more than 100,000 runs, or at least 24 hours by a rough estimate); without it such a plan is refused with its size' }
]

export const HTTP_OPTIONS = [
  { name: 'lib', list: true, default: `${HTTP_BASELINE},all`, scenario: 'libs', scenarioRequired: true, describe: `${HTTP_BASELINE} (the same app without logging; always run as the baseline), ${libraries}, name@range (winston@2), or a path to an adapter file` },
  { name: 'runtime', list: true, parse: runtimeList, default: 'node', scenario: 'runtimes', describe: 'what the server workers run under, as for run (under Bun or Deno, one server worker)' },
  CACHE,
  { name: 'transport', list: true, values: TRANSPORTS, hints: TRANSPORT_HINTS, default: 'console', scenario: 'transport', one: true, describe: 'where the server logs: console is its stdout, a pipe read and verified by log-bench' },
  { name: 'cpus', list: true, int: { max: MAX_WORKERS }, default: '1', scenario: 'cpus', describe: 'server worker counts (node:cluster workers sharing the port)' },
  { name: 'logs-per-request', list: true, int: { min: 0, max: 10_000 }, default: '5', scenario: 'logsPerRequest', describe: 'events the route logs per request (not with --middleware)' },
  { name: 'size', list: true, int: { max: MAX_SIZE_BYTES }, default: '20', scenario: 'sizes', describe: 'payload sizes in characters (each event is "w<worker> <seq>: " + payload)' },
  { name: 'middleware', type: 'boolean', scenario: 'middleware', describe: 'log each request with the library\'s own express request logger (pino-http, express-winston, log4js connectLogger) instead of the route; each library\'s route at 0 logs per request runs beside them as the control (nothing logged: its verdicts against none are the machine\'s noise)' },
  { name: 'duration', seconds: {}, default: '10', scenario: 'duration', describe: 'seconds of measured load per run' },
  { name: 'warmup', seconds: { allowZero: true }, default: '1', scenario: 'warmup', describe: 'seconds of load before the measured run (discarded; 0 for none)' },
  { name: 'connections', int: { max: 10_000 }, scenario: 'connections', defaultText: `${DEFAULT_CONNECTIONS}; ${COUNTED_CONNECTIONS} under --measure instructions`, describe: 'concurrent autocannon connections' },
  { name: 'pipelining', int: { max: 1000 }, default: '1', scenario: 'pipelining', describe: 'requests pipelined per connection' },
  { name: 'rate', int: { max: MAX_HTTP_RATE, why: ' (requests per second, all connections together)' }, scenario: 'rate', defaultText: 'none: as fast as the server answers', describe: 'an open-loop load at this many requests per second in all (autocannon\'s overallRate), below what the server can serve: the server\'s CPU time and instructions per request are then its work per request, not the machine\'s speed of the moment. A timed run that reaches less than 95% of it fails, with the rate it reached' },
  { name: 'alternate', type: 'boolean', scenario: 'alternate', describe: `each run starts the app without logging beside the library's (on the same CPUs) and sends the load to the two in turn, ${ALTERNATE_SLICE_SECONDS} s at a time (A B B A …, --duration seconds each in all, after --warmup each), so that every run carries its own baseline: the comparisons against ${HTTP_BASELINE} are made within the run, where a machine whose speed changes from second to second slows both alike. Each server listens on a port of its own. Not with --measure instructions or --rate` },
  { name: 'measure', values: MEASURES, default: DEFAULT_MEASURE, scenario: 'measure', describe: 'time: requests/s, latency and the server\'s CPU time per request; instructions: the server workers under a CPU simulator (valgrind) or hardware counters (perf), instructions per request from the difference of a run of --rate × --duration requests and one of twice as many (needs --rate), sent over one connection unless --connections says otherwise: one request at a time, each served alone, so that the count does not follow how the requests happened to bunch up; no times' },
  { name: 'runs', parse: parseRuns, numeric: true, takes: `integer 1 to ${MAX_RUNS.toLocaleString('en-US')}, auto, or auto:MIN..MAX`, schema: RUNS_SCHEMA, default: '5', scenario: 'runs', describe: 'runs per cell, each in fresh processes. 4 is the fewest with which a comparison can read faster or slower (the smallest p with 4 + 4 runs is 0.029, with 3 + 3 0.1); 5 + 5 reach 0.008. From 6 the runs are compared round by round (paired, so drift common to a round cancels): 5 pairs cannot go below p 0.0625, 6 reach 0.031. auto: rounds until every comparison of a group (each cell against none, and against its neighbour in the ranking) reads faster, slower or same, judged at 6, 9, 14 and 20 rounds with α split across those looks so that an A/A reads faster or slower no more often than α 0.05 (docs/comparisons.md); auto:MIN..MAX sets the first and last look (a MAX whose looks cannot reach p < α, below 6 at 0.05, is refused); what is undecided at MAX reads unclear' },
  { name: 'server-cpus', scenario: 'serverCpus', one: true, defaultText: 'all but the load\'s', describe: 'CPUs for the server\'s workers, as taskset -c lists them (e.g. 1 or 2-7)' },
  { name: 'load-cpus', scenario: 'loadCpus', one: true, defaultText: 'a quarter of the CPUs, at least one; with 2 CPUs: CPU 0', describe: 'CPUs for autocannon, log-bench\'s primary and the receiving end, disjoint from --server-cpus' },
  { name: 'port', int: { min: 0, max: 65535 }, default: '0', describe: 'port on 127.0.0.1 of the library\'s server (0: a free port chosen by the system); under --alternate the baseline server listens on another free port' },
  ...SYSLOG_OPTIONS,
  ...RECEIVER_LIMIT_OPTIONS,
  { name: 'out', defaultText: 'results/http-<timestamp>.json', describe: 'results JSON file; missing directories are created' },
  FORCE('--out'),
  ...ORDER_OPTIONS,
  QUIET,
  JSON_ANSWER
]

export const REPORT_OPTIONS = [
  { name: 'out', default: 'results/README.md', describe: 'markdown page to write (its directory is created); the CSV goes next to it with a .csv extension, the HTML page with .html (or to --out itself when it ends in .html)' },
  { name: 'images', defaultText: 'images/ beside --out', describe: 'directory for the PNG charts, linked from the page by relative path' },
  { name: 'format', list: true, values: FORMATS, default: 'md', describe: EXPORT_FORMATS.map((f) => `${f.name}: ${f.describe}`).join('; ') },
  { name: 'force', type: 'boolean', describe: 'replace an existing page, CSV or chart; without it an existing file is refused (--pages regenerates its pages and charts without it)' },
  { name: 'pages', describe: 'a pages file (results/pages.json): write every page it lists, each from its own results files, instead of one page from the files given; --format html writes each page as .html beside its .md instead, md,html both' }
]

export const COMPARE_OPTIONS = [
  { name: 'baseline', describe: 'compare every cell of one results file with this library\'s cell of the same transport, workers, cores, workload, size and receiving end (a name as in the results: pino, pino:sync, an adapter\'s name)' },
  ALPHA,
  NOISE,
  { name: 'json', type: 'boolean', cliOnly: true, describe: 'print the comparisons as JSON ({ comparisons: [...] }, one row per cell and measure) instead of tables' },
  { name: 'markdown', type: 'boolean', cliOnly: true, describe: 'print a short markdown comparison for a pull-request comment (verdicts worst first, at most 40 rows) instead of tables' },
  { name: 'fail-on', list: true, values: GATE_VERDICTS, cliOnly: true, describe: 'exit with code 3 when a comparison reads one of these verdicts (e.g. slower, or slower,unclear); the comparison is printed first' },
  { name: 'profile-diff', type: 'boolean', describe: 'instead of the verdicts: where profiled cells (run --profile) spend their time differently, per package and per function, each side\'s share of the sampled time and µs per event, largest difference first; with --baseline each profiled cell against the baseline library\'s, with two files each cell against the same cell of the other. Not with --markdown or --fail-on' },
  { name: 'ignore-version', type: 'boolean', describe: 'two files: pair each cell with the cell of the other file that differs only in the library\'s version (run --lib pino@9 and run --lib pino@10 as two files); not interleaved, so the drift between the two sessions is part of each ratio' }
]

export const MERGE_OPTIONS = [
  { name: 'out', describe: 'merged results JSON file (required; its directory is created)' },
  FORCE('--out'),
  { name: 'allow-mixed-hardware', type: 'boolean', describe: 'merge shards measured on different machines (same Node and library versions); each run keeps its shard, env.shards lists each machine' },
  { name: 'allow-mixed-commits', type: 'boolean', describe: 'merge shards measured by different log-bench commits or versions; the merged env names no commit, env.shards names each shard\'s' }
]

const PORT_OR_FREE = { min: 0, max: 65535 }
export const SINK_OPTIONS = [
  { name: 'udp', int: PORT_OR_FREE, describe: 'UDP port to listen on (0 for a free one)' },
  { name: 'tcp', int: PORT_OR_FREE, describe: 'TCP port to listen on (0 for a free one)' },
  { name: 'workers', int: { max: MAX_WORKERS }, default: '8', describe: 'worker ids to expect (w0 … w<n-1>); other ids count as corrupt' },
  { name: 'events', int: EVENTS_LIMIT, default: DEFAULT_EVENTS, describe: 'events per worker to expect (sequence numbers 0 … n-1)' },
  { name: 'size', int: { max: MAX_SIZE_BYTES }, defaultText: 'the seed\'s "Hello, world!", 13 bytes', describe: 'payload size in bytes the senders use' }
]

// --burst as given: burst sizes, `all` (null: every event in one loop) among them where asked.
function parseBursts (value) {
  return [...new Set(list(value, 'burst').map((item) => (item === 'all' ? null : positiveInt(item, 'burst', { max: MAX_EVENTS, why: ' (or all: every event in one loop)' }))))]
}

// --cores as given (a comma list, as typed), checked against this machine: each from 1 to the CPUs
// log-bench may use, and taskset there to set them (src/engine/cores.js).
export function parseCores (value, { available = availableCpus(), taskset = findTaskset() } = {}) {
  const cores = positiveIntList(value, 'cores', { max: available.length, why: ` (the CPUs log-bench may use here: ${formatCpuList(available)})` })
  if (!taskset) throw new UsageError('--cores sets CPU affinity with taskset, which was not found: install it (apt-get install util-linux on Debian/Ubuntu), or leave out --cores')
  return cores
}

// A fraction (0.02) or a percentage with its sign (2%).
export function parseNoise (value) {
  const text = Array.isArray(value) ? '' : String(value).trim()
  const percent = text.endsWith('%')
  const number = Number(percent ? text.slice(0, -1) : text)
  const noise = percent ? number / 100 : number
  if (text === '' || text === '%' || !Number.isFinite(number) || noise < 0 || noise >= 1) throw new UsageError(`--noise must be a fraction from 0 to below 1 (0.02) or a percentage (2%), got "${value}"`)
  return noise
}

function parseAlpha (value) {
  const alpha = Number(value)
  if (String(value).trim() === '' || !(alpha > 0 && alpha < 1)) throw new UsageError(`--alpha must be a number between 0 and 1, got "${value}"`)
  return alpha
}
