import { BASELINES, BUILTIN_LIBS, LIB_SETS, VERSIONED_LIBS } from '../engine/library-names.js'
import { UsageError } from '../errors.js'
import { cacheDirectory } from '../api/validate.js'
import { adapterWorkloads, WORKLOADS } from '../engine/workloads.js'
import { TRANSPORTS } from '../engine/transports.js'
import { shippedScenarios } from '../shipped-scenarios.js'

export const command = 'list'
export const describe = 'List the libraries (with installed versions, workloads and variants), baselines, transports and shipped scenarios; --versions NAME: the versions of a library (or runtime) in the cache'

export function builder (yargs) {
  return yargs
    .option('versions', { type: 'string', describe: `The versions of a library (${VERSIONED_LIBS.join(', ')}) or runtime (node, bun, deno) installed in the cache by --lib NAME@RANGE or --runtime` })
    .option('cache', { type: 'string', describe: 'The cache directory [default: $XDG_CACHE_HOME/log-bench, else ~/.cache/log-bench]' })
}

// What lists the adapters, the readers and the cache is imported when it runs, so that --help and
// --version start at once.
export async function handler (argv) {
  if (argv.versions != null) return listVersions(argv)
  const [
    { adapterFile, libraryVersion, loadAdapter },
    { figureColumns, terminalTable, terminalWidth, textColumns, wrap },
    { udpReaderAbsence, udpReaderName },
    { pipeReaderAbsence, pipeReaderName }
  ] = await Promise.all([
    import('../loggers/index.js'), import('../draw/table.js'), import('../sinks/embedded-sink.js'), import('../sinks/pipe.js')
  ])
  const rows = []
  const variants = []
  for (const name of BUILTIN_LIBS) {
    const file = adapterFile(name)
    const adapter = await loadAdapter(file)
    rows.push([name, BASELINES.includes(name) ? 'baseline' : 'library', libraryVersion(adapter, file) ?? '?', adapter.transports.join(', '), adapterWorkloads(adapter).join(', ')])
    for (const [variant, about] of Object.entries(adapter.variants ?? {})) {
      variants.push([`${name}:${variant}`, (about.transports ?? adapter.transports).join(', '), about.describe ?? '', about.docs ?? ''])
    }
  }
  // Every line within the terminal's width, as run's output (terminalWidth): tables fit it, the rest is wrapped.
  const width = terminalWidth(process.stdout)
  const table = (columns, tableRows) => terminalTable({ columns, rows: tableRows }, { width })
  const say = (text) => process.stdout.write(`${wrap(text, width)}\n`)
  process.stdout.write(table(figureColumns(['name', 'kind', 'version', 'transports', 'workloads']), rows) + '\n')
  if (variants.length) {
    say('\nvariants (--lib name:variant; the plain name is the library\'s README default):')
    process.stdout.write(table(textColumns(['variant', 'transports', 'what', 'documentation']), variants) + '\n')
  }
  say(`\nall = ${LIB_SETS.all.join(', ')}\nevery = ${LIB_SETS.every.join(', ')}\ntransports: ${TRANSPORTS.join(', ')}\nworkloads (--workload): ${WORKLOADS.join(', ')}\nembedded sink UDP reader: ${udpReaderName()}${udpReaderAbsence() ? ` (${udpReaderAbsence()})` : ''}\nconsole reader: ${pipeReaderName() === 'native' ? 'native (a pipe per worker, drained by a thread)' : `node's streams (${pipeReaderAbsence()})`}\nan outside adapter: --lib ./my-logger.js (see docs/adapters.md)`)
  const scenarios = shippedScenarios().map(({ name, description }) => [name, description.split(/(?<=\.) /)[0]])
  say('\nscenarios (run --scenario NAME):')
  process.stdout.write(table(textColumns(['scenario', 'what']), scenarios) + '\n')
}

// list --versions NAME: what the cache holds for one library or runtime, newest first, with where.
async function listVersions (argv) {
  const [
    { adapterFile, loadAdapter },
    { cacheRoot, cachedVersions },
    { RUNTIME_PACKAGES },
    { figureColumns, terminalTable, terminalWidth }
  ] = await Promise.all([
    import('../loggers/index.js'), import('../versions/cache.js'), import('../versions/runtimes.js'), import('../draw/table.js')
  ])
  const name = String(argv.versions)
  const root = cacheRoot(cacheDirectory(argv.cache))
  let kind
  let packageName
  if (VERSIONED_LIBS.includes(name)) {
    kind = 'libs'
    packageName = (await loadAdapter(adapterFile(name))).packageName
  } else if (Object.hasOwn(RUNTIME_PACKAGES, name)) {
    kind = 'runtimes'
    packageName = RUNTIME_PACKAGES[name]().packageName
  } else {
    throw new UsageError(`--versions${name ? ` ${name}` : ''}: give a library (${VERSIONED_LIBS.join(', ')}) or a runtime (${Object.keys(RUNTIME_PACKAGES).join(', ')})`)
  }
  const versions = cachedVersions(root, kind, packageName)
  if (versions.length === 0) {
    process.stdout.write(`no version of ${name} in ${root} yet (--${kind === 'libs' ? `lib ${name}@RANGE` : `runtime ${name}`} installs one on first use)\n`)
    return
  }
  process.stdout.write(terminalTable({ columns: figureColumns(['version', 'directory']), rows: versions.map((v) => [v.version, v.dir]) }, { width: terminalWidth(process.stdout) }) + '\n')
}
