import log4js from 'log4js'
import { drained } from './flush.js'

// log4js's README: a `console` or `file` appender for the default category.
// disableClustering: by default log4js in a cluster worker ships every event over IPC to the
// primary and expects log4js to run there; our primary is the harness, so each worker writes itself.
export default {
  name: 'log4js',
  packageName: 'log4js',
  transports: ['console', 'file'],
  async create ({ transport, file }) {
    const appender = transport === 'file' ? { type: 'file', filename: file } : { type: 'console' }
    log4js.configure({
      appenders: { out: appender },
      categories: { default: { appenders: ['out'], level: 'info' } },
      disableClustering: true
    })
    const logger = log4js.getLogger()
    return {
      logger,
      log (message) { logger.info(message) },
      async close () {
        await new Promise((resolve, reject) => log4js.shutdown((err) => (err ? reject(err) : resolve())))
        if (transport === 'console') await drained(process.stdout)
      }
    }
  }
}
