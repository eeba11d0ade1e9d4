import { once } from 'node:events'
import winston from 'winston'
import { drained } from './flush.js'

// winston's README: createLogger({ transports: [new transports.Console()] }) or transports.File({ filename }).
// The logger's own 'finish' comes before its transports have written; the transport's 'finish'
// is the library's signal that the destination has everything.
export default {
  name: 'winston',
  packageName: 'winston',
  transports: ['console', 'file'],
  async create ({ transport, file }) {
    const destination = transport === 'file'
      ? new winston.transports.File({ filename: file })
      : new winston.transports.Console()
    const logger = winston.createLogger({ transports: [destination] })
    return {
      logger,
      log (message) { logger.info(message) },
      async close () {
        const finished = once(destination, 'finish')
        logger.end()
        await finished
        if (transport === 'console') await drained(process.stdout)
      }
    }
  }
}
