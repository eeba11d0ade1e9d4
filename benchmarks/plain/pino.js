import pino from 'pino'
import { args, measure } from './common.js'

const { transport, events, file } = args()
const logger = transport === 'file' ? pino(pino.destination(file)) : pino()
const stream = logger[pino.symbols.streamSym]
await measure(events, (message) => logger.info(message), () => new Promise((resolve, reject) => {
  stream.once('close', resolve)
  stream.once('error', reject)
  stream.end()
}))
