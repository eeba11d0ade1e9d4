import pino from 'pino'
import { args, measure } from './common.js'

const { transport, events, file } = args()
// PLAIN_PINO_SYNC=1: log-bench's pino:sync, each line written before the call returns.
const sync = process.env.PLAIN_PINO_SYNC === '1'
const destination = sync ? pino.destination({ dest: transport === 'file' ? file : 1, sync }) : transport === 'file' ? pino.destination(file) : null
const logger = destination ? pino(destination) : pino()
const stream = logger[pino.symbols.streamSym]
await measure(events, (message) => logger.info(message), () => new Promise((resolve, reject) => {
  stream.once('close', resolve)
  stream.once('error', reject)
  stream.end()
}))
