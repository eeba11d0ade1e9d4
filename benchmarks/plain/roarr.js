import { args, consoleOnly, measure, stdoutWritten } from './common.js'

// roarr reads ROARR_LOG once, when first imported: set it first, then import (`ROARR_LOG=true node app.js`).
const { transport, events } = args()
consoleOnly('roarr', transport, 'it writes to stdout and leaves files to the shell')
process.env.ROARR_LOG = 'true'
const { Roarr: log } = await import('roarr')
await measure(events, (message) => log.info(message), stdoutWritten)
