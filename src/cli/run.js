import { EXIT, UsageError } from '../errors.js'
import { BUILTIN_LIBS, libraryVersion, loadAdapter, resolveLibSpecs } from '../loggers/index.js'
import { TRANSPORTS } from '../sinks/index.js'
import { planCells, runMatrix } from '../bench/orchestrator.js'
import { createProgress } from '../bench/progress.js'
import { Interrupted } from '../bench/run-once.js'
import { payloadOfSize } from '../bench/message.js'
import { collectEnv } from '../results/env.js'
import { renderTerminal } from '../report/terminal.js'
import { defaultOutput, list, oneOf, positiveInt, positiveIntList, positiveNumber, writableOutput } from './validate.js'

export const DEFAULTS = {
  lib: 'all,raw',
  transport: 'console',
  cpus: '1',
  events: 1_000_000,
  runs: 3,
  timeout: 600
}

export const command = 'run'
export const describe = 'Time loggers: fork workers that each log --events events, wait until every byte landed, verify every event'

export function builder (yargs) {
  return yargs
    .option('lib', { type: 'string', default: DEFAULTS.lib, describe: `Comma list: ${BUILTIN_LIBS.join(', ')}, all (the four real libraries), or a path to an adapter file (./my-logger.js)` })
    .option('transport', { type: 'string', default: DEFAULTS.transport, describe: `Comma list of destinations: ${TRANSPORTS.join(', ')}` })
    .option('cpus', { type: 'string', default: DEFAULTS.cpus, describe: 'Comma list of worker counts (node:cluster workers logging at once)' })
    .option('events', { type: 'string', default: String(DEFAULTS.events), describe: 'Events logged by each worker per run' })
    .option('runs', { type: 'string', default: String(DEFAULTS.runs), describe: 'Runs per cell (fresh processes each); the summary averages them' })
    .option('size', { type: 'string', describe: 'Comma list of payload sizes in bytes (default: the seed\'s "Hello, world!", 13 bytes)' })
    .option('out', { type: 'string', describe: 'Results JSON file (default: results/run-<timestamp>.json)' })
    .option('timeout', { type: 'string', default: String(DEFAULTS.timeout), describe: 'Per-run limit in seconds; a run that exceeds it is recorded as failed' })
    .option('max-old-space-size', { type: 'string', describe: 'Heap limit in MB passed to each worker (node --max-old-space-size), to reproduce memory blow-ups' })
    .option('quiet', { type: 'boolean', default: false, describe: 'No progress on stderr' })
    .example('$0 run', 'the default matrix: log4js, winston, bunyan, pino and raw to the console, 1 worker, 1,000,000 events, 3 runs')
    .example('$0 run --lib winston --transport file --cpus 8', '')
    .example('$0 run --lib all --transport console,file --cpus 1,8 --events 100000 --out results/mine.json', '')
}

// Turns raw option strings into a checked plan; throws UsageError on anything wrong.
export async function parseRunOptions (argv) {
  const specs = resolveLibSpecs(list(argv.lib, 'lib'))
  const libs = []
  for (const spec of specs) {
    const adapter = await loadAdapter(spec.file)
    if (libs.some((l) => l.name === adapter.name)) throw new UsageError(`two adapters are both named "${adapter.name}": give each adapter a unique name`)
    libs.push({ name: adapter.name, file: spec.file, adapter, version: libraryVersion(adapter, spec.file) })
  }
  const transports = oneOf(list(argv.transport, 'transport'), TRANSPORTS, 'transport')
  const options = {
    libs,
    transports: [...new Set(transports)],
    cpus: positiveIntList(argv.cpus, 'cpus', { max: 256 }),
    events: positiveInt(argv.events, 'events'),
    runs: positiveInt(argv.runs, 'runs', { max: 1000 }),
    sizes: argv.size == null ? [{ payload: payloadOfSize(null) }] : positiveIntList(argv.size, 'size', { max: 1 << 20 }).map((n) => ({ payload: payloadOfSize(n) })),
    timeoutMs: positiveNumber(argv.timeout, 'timeout') * 1000,
    maxOldSpaceSize: argv.maxOldSpaceSize == null ? null : positiveInt(argv.maxOldSpaceSize, 'max-old-space-size', { min: 8 })
  }
  options.out = argv.out == null ? null : writableOutput(argv.out)
  return options
}

export async function handler (argv) {
  const options = await parseRunOptions(argv)
  const out = options.out ?? defaultOutput('run')
  const env = collectEnv({
    argv: process.argv.slice(2),
    libVersions: Object.fromEntries(options.libs.map((l) => [l.name, l.version])),
    options: {
      libs: options.libs.map((l) => l.name),
      transports: options.transports,
      cpus: options.cpus,
      events: options.events,
      runs: options.runs,
      sizes: options.sizes.map((s) => Buffer.byteLength(s.payload)),
      timeoutSeconds: options.timeoutMs / 1000,
      maxOldSpaceSize: options.maxOldSpaceSize
    }
  })
  const controller = new AbortController()
  const onSignal = (signal) => {
    if (controller.signal.aborted) process.exit(signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED)
    process.stderr.write(`\n${signal}: stopping the current run and saving the results so far\n`)
    controller.abort(signal)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  const progress = createProgress({ quiet: argv.quiet })
  const cells = planCells({ libs: options.libs, transports: options.transports, cpus: options.cpus, sizes: options.sizes })
  let doc
  try {
    doc = await runMatrix({ cells, runs: options.runs, events: options.events, timeoutMs: options.timeoutMs, maxOldSpaceSize: options.maxOldSpaceSize, out, env, signal: controller.signal, progress })
  } catch (err) {
    if (!(err instanceof Interrupted)) throw err
    process.stderr.write(`interrupted: results so far are in ${out}\n`)
    process.exitCode = err.signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED
    return
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
  process.stdout.write(renderTerminal(doc))
  const failed = doc.runs.filter((r) => r.status === 'failed').length
  process.stdout.write(`\nresults: ${out}${failed ? ` (${failed} failed run${failed > 1 ? 's' : ''}, see above)` : ''}\n`)
}
