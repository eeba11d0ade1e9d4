import { consola } from 'consola'
import { args, consoleOnly, measure, stdoutWritten } from './common.js'

// The global `consola` instance, as its README recommends; info goes to process.stdout.
const { transport, events } = args()
consoleOnly('consola', transport, 'its reporters write to process.stdout and process.stderr only')
await measure(events, (message) => consola.info(message), stdoutWritten)
