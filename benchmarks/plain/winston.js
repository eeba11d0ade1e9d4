import { once } from 'node:events'
import winston from 'winston'
import { args, measure, stdoutWritten } from './common.js'

const { transport, events, file } = args()
const destination = transport === 'file' ? new winston.transports.File({ filename: file }) : new winston.transports.Console()
const logger = winston.createLogger({ transports: [destination] })
await measure(events, (message) => logger.info(message), async () => {
  const finished = once(destination, 'finish')
  logger.end()
  await finished
  if (transport === 'console') await stdoutWritten()
})
