import { once } from 'node:events'
import winston from 'winston'
import { Syslog } from 'winston-syslog'
import { drained } from './flush.js'
import { benchError, CHILD_FIELDS, DEEP_FIELDS, OBJECT_FIELDS } from '../bench/workloads.js'

// winston's README: createLogger({ transports: [new transports.Console()] }), transports.File({ filename }),
// and for syslog winston-syslog's new Syslog({ host, port, protocol }).
// The logger's own 'finish' comes before its transports have written; the transport's 'finish'
// is the library's signal that the destination has everything.
// Workloads: meta after the message (logger.info(msg, meta)), logger.child(meta),
// logger.error(msg, err) (winston appends the error's message and keeps its stack) (README "Usage",
// "Creating child loggers"). No variants: winston documents no synchronous or buffered choice for
// its Console and File transports.
export default {
  name: 'winston',
  packageName: 'winston',
  transports: ['console', 'file', 'udp', 'tcp'],
  workloads: ['string', 'object', 'deep', 'child', 'error', 'disabled'],
  unsupportedWorkloads: {
    interpolate: 'winston interpolates %s only through format.splat(), which its default format (json) does not include: on its defaults the format string itself is the message'
  },
  async create ({ transport, file, host, port, workload }) {
    const destination = destinationFor(transport, file, host, port)
    const logger = winston.createLogger({ transports: [destination] })
    return {
      logger,
      log: winstonCall(logger, workload),
      async close () {
        const finished = once(destination, 'finish')
        logger.end()
        await finished
        if (transport === 'console') await drained(process.stdout)
        if (destination instanceof Syslog) {
          // logger.close() unpipes the transport, which calls Syslog#close(): it waits for its queue and
          // sends in flight (at most about 4 s) and emits 'closed' once the socket is closed: the
          // library's own "sent everything".
          const closed = once(destination, 'closed')
          logger.close()
          await closed
        }
      }
    }
  }
}

function winstonCall (logger, workload) {
  switch (workload) {
    case 'object': return (message) => logger.info(message, OBJECT_FIELDS)
    case 'deep': return (message) => logger.info(message, DEEP_FIELDS)
    case 'child': {
      const child = logger.child(CHILD_FIELDS)
      return (message) => child.info(message)
    }
    case 'error': {
      const err = benchError()
      return (message) => logger.error(message, err)
    }
    case 'disabled': return (message) => logger.debug(message)
    default: return (message) => logger.info(message)
  }
}

// Over TCP winston-syslog sends messages back to back with no delimiter unless `eol` is set, and
// no syslog server can split such a stream, so TCP gets eol: '\n' (RFC 6587 newline framing);
// everything else stays on its defaults.
function destinationFor (transport, file, host, port) {
  if (transport === 'udp' || transport === 'tcp') return new Syslog({ host, port, protocol: `${transport}4`, ...(transport === 'tcp' ? { eol: '\n' } : {}) })
  if (transport === 'file') return new winston.transports.File({ filename: file })
  return new winston.transports.Console()
}
