import bunyan from 'bunyan'
import { drained, endAndClose } from './flush.js'

// bunyan's README: createLogger({ name }) writes to process.stdout; a { path } stream appends to a file.
export default {
  name: 'bunyan',
  packageName: 'bunyan',
  transports: ['console', 'file'],
  async create ({ transport, file }) {
    if (transport === 'file') {
      const logger = bunyan.createLogger({ name: 'log-bench', streams: [{ path: file }] })
      return {
        log (message) { logger.info(message) },
        async close () { await endAndClose(logger.streams[0].stream) }
      }
    }
    const logger = bunyan.createLogger({ name: 'log-bench' })
    return {
      log (message) { logger.info(message) },
      async close () { await drained(process.stdout) }
    }
  }
}
