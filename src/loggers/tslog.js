import { Logger } from 'tslog'
import { fileTransport } from 'tslog/transports/file'
// flush.js is imported for its one helper, drained(): an outside adapter would write the same few
// lines to wait for stdout's write callback.
import { drained } from './flush.js'
import { workloadCall } from '../engine/workloads.js'

// tslog's README: new Logger() prints "pretty" lines through console.log (stdout), uncoloured when
// piped; info is a console.log level. Its file destination is fileTransport({ path }) from
// tslog/transports/file, attached with attachTransport. A Logger keeps printing to the console
// beside its transports unless its type is "hidden" (the README's "type: 'hidden' plus a
// transport"), so the file cell uses that: otherwise it would also measure a console it does not use.
// The file transport writes JSON lines through an fs.WriteStream; close is the transport's own
// documented order: logger.flush() (every write confirmed), then its asyncDispose (the stream ended).
// Workloads (README "Example", "Sub-loggers"): logger.info(message, object) (string first, one of
// the two orders it documents); the child is getSubLogger({ bindings }), its static bound fields;
// logger.error(message, err). The pretty console line prints objects and an Error's stack through
// util.inspect over several lines, and does not print bindings (they "land on every JSON record").
// tslog's default minLevel is 0 (silly), which prints debug; `disabled` sets minLevel "INFO", as
// the README's first example does.
export default {
  name: 'tslog',
  packageName: 'tslog',
  transports: ['console', 'file'],
  workloads: ['string', 'object', 'deep', 'child', 'error', 'disabled'],
  unsupportedWorkloads: {
    interpolate: 'tslog\'s README: "%s-style splat interpolation is not supported — log fields instead of format strings" (its JSON records keep the format string as the message and the arguments as fields "1", "2", ...)'
  },
  async create ({ transport, file, workload }) {
    const level = workload === 'disabled' ? { minLevel: 'INFO' } : {}
    if (transport === 'file') {
      const logger = new Logger({ type: 'hidden', ...level })
      const sink = fileTransport({ path: file })
      logger.attachTransport(sink)
      return {
        log: tslogCall(logger, workload),
        async close () {
          await logger.flush()
          await sink[Symbol.asyncDispose]()
        }
      }
    }
    const logger = new Logger(level)
    return {
      log: tslogCall(logger, workload),
      async close () {
        await logger.flush()
        await drained(process.stdout)
      }
    }
  }
}

function tslogCall (logger, workload) {
  return workloadCall(workload, {
    string: () => (message) => logger.info(message),
    fields: (fields) => (message) => logger.info(message, fields),
    child: (fields) => {
      const child = logger.getSubLogger({ bindings: fields })
      return (message) => child.info(message)
    },
    error: (err) => (message) => logger.error(message, err),
    disabled: () => (message) => logger.debug(message)
  })
}
