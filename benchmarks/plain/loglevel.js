import log from 'loglevel'
import { args, consoleOnly, measure, stdoutWritten } from './common.js'

// The default logger; its default level "warn" drops info, so the level is set to "info".
const { transport, events } = args()
consoleOnly('loglevel', transport, 'it writes only to the console object')
log.setLevel('info')
await measure(events, (message) => log.info(message), stdoutWritten)
