import { once } from 'node:events'
import semver from 'semver'
import { drained } from './flush.js'
import { FORWARD_ACK_VARIANT } from './fluent.js'
import { OTLP_JSON_VARIANT, otelProvider } from './otel-sdk.js'
import { workloadCall } from '../engine/workloads.js'
import { loadProjectLibrary } from '../engine/library.js'

// winston's README: createLogger({ transports: [new transports.Console()] }), transports.File({ filename }),
// and for syslog winston-syslog's new Syslog({ host, port, protocol }).
// Closing: winston's README ("Awaiting logs to be written in winston"): after logger.end(), the
// logger's 'finish' is raised "when all logs have flushed to all transports" (its _final waits for
// each transport's 'finish', and the File transport's for its file stream's).
// winston breaks that on its defaults when the logger.end() comes while a transport is still
// backpressured (the file slower than the logger, likely with lines of a few hundred bytes): Logger
// _final ends the transports while entries are still queued in the logger for them, the next one
// piped in throws "write after end" and the queued entries are lost (winstonjs/winston#2219, fix
// proposed in winstonjs/winston#2599). close() then rejects with that reason: a failed run, not patched.
// Workloads: meta after the message (logger.info(msg, meta)), logger.child(meta),
// logger.error(msg, err) (winston appends the error's message and keeps its stack) (README "Usage",
// "Creating child loggers"). No variants: winston documents no synchronous or buffered choice for
// its Console and File transports.
// winston 3 from 3.0 on has the same createLogger/end()/'finish' (docs: README at each tag, e.g.
// https://github.com/winstonjs/winston/blob/v3.2.1/README.md); logger.child() came with 3.2.0.
// winston 2 (--lib winston@2) is another API, see winston2Logger below.
export default {
  name: 'winston',
  packageName: 'winston',
  versions: '>=2',
  unsupportedFor ({ version, workload }) {
    if (workload === 'child' && semver.lt(version, '3.2.0')) return `logger.child() came with winston 3.2.0; winston ${version} has no child loggers`
    if (workload === 'error' && semver.lt(version, '3.0.0')) return `winston ${version} prints an Error given as meta with its stack over several lines (common.log), so one event is not one line`
    return null
  },
  transports: ['console', 'file', 'udp', 'tcp', 'otlp', 'forward'],
  // What each transport goes through besides winston: their versions go beside the page's headline.
  transportPackages: { udp: ['winston-syslog'], tcp: ['winston-syslog'], otlp: ['@opentelemetry/winston-transport', '@opentelemetry/sdk-logs', '@opentelemetry/exporter-logs-otlp-proto'], forward: ['fluent-logger'] },
  variants: { json: OTLP_JSON_VARIANT, ack: FORWARD_ACK_VARIANT },
  workloads: ['string', 'object', 'deep', 'child', 'error', 'disabled'],
  unsupportedWorkloads: {
    interpolate: 'winston interpolates %s only through format.splat(), which its default format (json) does not include: on its defaults the format string itself is the message'
  },
  async create ({ transport, file, host, port, url, workload, variant, load = loadProjectLibrary, libVersion }) {
    const winston = await load('winston')
    if (libVersion && semver.lt(libVersion, '3.0.0')) return winston2Logger(winston, transport, file, workload)
    if (transport === 'otlp') return otlpLogger(winston, url, workload, variant === 'json')
    if (transport === 'forward') return forwardLogger(winston, host, port, workload, variant === 'ack')
    const Syslog = transport === 'udp' || transport === 'tcp' ? (await load('winston-syslog')).Syslog : null
    const destination = destinationFor(winston, Syslog, transport, file, host, port)
    const logger = winston.createLogger({ transports: [destination] })
    return {
      logger,
      log: winstonCall(logger, workload),
      async close () {
        // Syslog#close() waits for its queue and sends in flight (at most about 4 s) and emits 'closed'
        // once the socket is closed: the library's own "sent everything". It is called on the
        // transport's 'unpipe' (winston-transport modern.js), which Node's pipe raises when the
        // transport finishes, inside logger.end(); with nothing queued (paced runs: every event sent
        // long before) it emits 'closed' at once, so the listener must be there before logger.end().
        // Listened to later, 'closed' had passed and close() never resolved (issue 56's latency page).
        const closed = Syslog ? once(destination, 'closed') : null
        closed?.catch(() => {}) // an 'error' rejects it too; ended() reports that one
        await ended(logger)
        if (transport === 'console') await drained(process.stdout)
        if (Syslog) {
          logger.close() // the transport is already unpiped; this releases the logger's handlers
          await closed
        }
      }
    }
  }
}

// After an error the listener stays: winston re-pipes a transport that errored, so the fault can
// repeat, and must not then surface as an uncaught error instead of this close's reason.
async function ended (logger) {
  const finished = new Promise((resolve, reject) => {
    let failed = false
    const onError = (err) => {
      failed = true
      reject(err)
    }
    logger.on('error', onError)
    logger.once('finish', () => {
      if (!failed) logger.off('error', onError)
      resolve()
    })
  })
  logger.end()
  try {
    await finished
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    if (message !== 'write after end') throw err
    throw new Error('winston threw "write after end" in logger.end(): it ended its transport while entries were still queued for it, which are lost (winstonjs/winston#2219)')
  }
}

// @opentelemetry/winston-transport's README: a global LoggerProvider (sdk-logs, batch processor,
// OTLP/HTTP exporter) and winston.createLogger({ transports: [new OpenTelemetryTransportV3()] }).
// close: the logger ends (every entry handed to the SDK), then the provider's shutdown() exports
// what the batch processor holds.
async function otlpLogger (winston, url, workload, json) {
  const provider = await otelProvider({ url, json })
  const { OpenTelemetryTransportV3 } = await import('@opentelemetry/winston-transport')
  const logger = winston.createLogger({ transports: [new OpenTelemetryTransportV3()] })
  return {
    logger,
    log: winstonCall(logger, workload),
    async close () {
      await ended(logger)
      await provider.shutdown()
    }
  }
}

// fluent-logger's README "winston": support.winstonTransport(), a transport whose log() calls back
// once the record is sent (acked, with requireAckResponse) and whose end closes the sender.
async function forwardLogger (winston, host, port, workload, ack) {
  const { default: fluent } = await import('fluent-logger')
  const FluentTransport = fluent.support.winstonTransport()
  const destination = new FluentTransport('log-bench', { host, port, timeout: 3.0, requireAckResponse: ack })
  const logger = winston.createLogger({ transports: [destination] })
  return {
    logger,
    log: winstonCall(logger, workload),
    async close () {
      const finished = once(destination, 'finish')
      await ended(logger)
      await finished
    }
  }
}

function winstonCall (logger, workload) {
  return workloadCall(workload, {
    string: () => (message) => logger.info(message),
    fields: (fields) => (message) => logger.info(message, fields),
    child: (fields) => {
      const child = logger.child(fields)
      return (message) => child.info(message)
    },
    error: (err) => (message) => logger.error(message, err),
    disabled: () => (message) => logger.debug(message)
  })
}

// Over TCP winston-syslog sends messages back to back with no delimiter unless `eol` is set, and
// no syslog server can split such a stream, so TCP gets eol: '\n' (RFC 6587 newline framing);
// everything else stays on its defaults.
function destinationFor (winston, Syslog, transport, file, host, port) {
  if (transport === 'udp' || transport === 'tcp') return new Syslog({ host, port, protocol: `${transport}4`, ...(transport === 'tcp' ? { eol: '\n' } : {}) })
  if (transport === 'file') return new winston.transports.File({ filename: file })
  return new winston.transports.Console()
}

// winston 2's README (https://github.com/winstonjs/winston/blob/2.x/README.md, "Instantiating your
// own Logger"): new winston.Logger({ transports: [new winston.transports.Console()] }), or
// transports.File({ filename }); meta after the message; level info by default. Its Console writes
// each line with process.stdout.write. Its File transport opens the file on the first call and
// buffers the calls made meanwhile (all of them, after a synchronous loop), writing them out when
// the file is open ('open'); logger.close() ends the file stream, and the transport's 'closed'
// comes on the stream's 'finish': every line handed to the file.
function winston2Logger (winston, transport, file, workload) {
  const destination = transport === 'file' ? new winston.transports.File({ filename: file }) : new winston.transports.Console()
  const logger = new winston.Logger({ transports: [destination] })
  return {
    logger,
    log: winstonCall(logger, workload),
    async close () {
      if (transport === 'console') return drained(process.stdout)
      if (destination.opening || !destination._stream) await once(destination, 'open')
      const closed = once(destination, 'closed')
      logger.close()
      await closed
    }
  }
}
