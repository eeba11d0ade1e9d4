import { once } from 'node:events'
import winston from 'winston'
import { Syslog } from 'winston-syslog'
import { drained } from './flush.js'

// winston's README: createLogger({ transports: [new transports.Console()] }) or transports.File({ filename }).
// The logger's own 'finish' comes before its transports have written; the transport's 'finish'
// is the library's signal that the destination has everything.
export default {
  name: 'winston',
  packageName: 'winston',
  transports: ['console', 'file', 'udp', 'tcp'],
  async create ({ transport, file, host, port }) {
    if (transport === 'udp' || transport === 'tcp') return syslogLogger(transport, host, port)
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

// winston-syslog's README: new Syslog({ host, port, protocol }). Over TCP it sends messages back
// to back with no delimiter unless `eol` is set, and no syslog server can split such a stream, so
// TCP gets eol: '\n' (RFC 6587 newline framing); everything else stays on its defaults.
// Closing: logger.end() lets the transport take every event ('finish'); logger.close() unpipes it,
// which calls Syslog#close(); that waits for its queue and sends in flight (at most about 4 s) and
// emits 'closed' when it has closed the socket: the library's own "sent everything".
function syslogLogger (transport, host, port) {
  const destination = new Syslog({ host, port, protocol: `${transport}4`, ...(transport === 'tcp' ? { eol: '\n' } : {}) })
  const logger = winston.createLogger({ transports: [destination] })
  return {
    logger,
    log (message) { logger.info(message) },
    async close () {
      const finished = once(destination, 'finish')
      logger.end()
      await finished
      const closed = once(destination, 'closed')
      logger.close()
      await closed
    }
  }
}
