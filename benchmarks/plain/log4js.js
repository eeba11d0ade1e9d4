import log4js from 'log4js'
import { args, measure, stdoutWritten } from './common.js'

const { transport, events, file } = args()
log4js.configure({
  appenders: { out: transport === 'file' ? { type: 'file', filename: file } : { type: 'console' } },
  categories: { default: { appenders: ['out'], level: 'info' } },
  disableClustering: true
})
const logger = log4js.getLogger()
await measure(events, (message) => logger.info(message), async () => {
  await new Promise((resolve, reject) => log4js.shutdown((err) => (err ? reject(err) : resolve())))
  if (transport === 'console') await stdoutWritten()
})
