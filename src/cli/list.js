import { BASELINES, BUILTIN_LIBS, LIB_SETS, adapterFile, libraryVersion, loadAdapter } from '../loggers/index.js'
import { adapterWorkloads, WORKLOADS } from '../engine/workloads.js'
import { TRANSPORTS } from '../sinks/index.js'
import { formatTable } from '../report/table.js'
import { udpReaderAbsence, udpReaderName } from '../sinks/embedded-sink.js'
import { pipeReaderAbsence, pipeReaderName } from '../sinks/pipe.js'
import { shippedScenarios } from './scenario.js'

export const command = 'list'
export const describe = 'List the libraries (with installed versions, workloads and variants), baselines, transports and shipped scenarios'

export async function handler () {
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
  process.stdout.write(formatTable(['name', 'kind', 'version', 'transports', 'workloads'], rows, { markdown: false }) + '\n')
  if (variants.length) process.stdout.write('\nvariants (--lib name:variant; the plain name is the library\'s README default):\n' + formatTable(['variant', 'transports', 'what', 'documentation'], variants, { markdown: false }) + '\n')
  process.stdout.write(`\nall = ${LIB_SETS.all.join(', ')}\nevery = ${LIB_SETS.every.join(', ')}\ntransports: ${TRANSPORTS.join(', ')}\nworkloads (--workload): ${WORKLOADS.join(', ')}\nembedded sink UDP reader: ${udpReaderName()}${udpReaderAbsence() ? ` (${udpReaderAbsence()})` : ''}\nconsole reader: ${pipeReaderName() === 'native' ? 'native (a pipe per worker, drained by a thread)' : `node's streams (${pipeReaderAbsence()})`}\nan outside adapter: --lib ./my-logger.js (see docs/adapters.md)\n`)
  const scenarios = shippedScenarios().map(({ name, description }) => [name, description.split(/(?<=\.) /)[0]])
  process.stdout.write('\nscenarios (run --scenario NAME):\n' + formatTable(['scenario', 'what'], scenarios, { markdown: false, text: true }) + '\n')
}
