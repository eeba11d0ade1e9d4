import { once } from 'node:events'
import { drained, endAndClose } from './flush.js'
import { endStreamAndSender, fluentSender } from './fluent.js'
import { otelProvider } from './otel-sdk.js'
import { fieldsFirstCall, WORKLOADS } from '../engine/workloads.js'
import { loadProjectLibrary } from '../engine/library.js'

// bunyan's README: createLogger({ name }) writes to process.stdout; a { path } stream appends to a file.
// Workloads: fields first (log.info(fields, msg)), log.child(fields), log.error(err, msg) (the
// err serializer applies by default), util.format interpolation (README "Log Method API").
// Its one variant is the 2019 harness's syslog "UDP": bunyan-syslog's type 'sys' (syslog(3)).
// bunyan 1 (--lib bunyan@1.8) has the same createLogger, streams and Log Method API
// (https://github.com/trentm/node-bunyan/blob/1.8.15/README.md).
export default {
  name: 'bunyan',
  packageName: 'bunyan',
  versions: '>=1',
  transports: ['console', 'file', 'udp', 'tcp', 'otlp', 'forward'],
  // What each transport goes through besides bunyan: their versions go beside the page's headline.
  transportPackages: { udp: ['bunyan-syslog'], tcp: ['bunyan-syslog'], otlp: ['@opentelemetry/instrumentation-bunyan', '@opentelemetry/sdk-logs', '@opentelemetry/exporter-logs-otlp-proto'], forward: ['fluent-logger'] },
  workloads: WORKLOADS,
  variants: {
    sys: {
      describe: "bunyan-syslog's type 'sys': each record through syslog(3) (its native binding) to the local syslog socket, /dev/log, received by an rsyslogd log-bench starts there (root, and /dev/log free); the 2019 article's bunyan \"UDP\" ran this way",
      docs: 'https://github.com/trentm/node-bunyan-syslog (README: type sys); docs/syslog.md',
      transports: ['udp'],
      sinks: { udp: 'rsyslog-local' }
    }
  },
  async create ({ transport, file, host, port, url, workload, variant = 'default', load = loadProjectLibrary }) {
    const bunyan = await load('bunyan')
    if (variant === 'sys') return sysLogger(bunyan, await load('bunyan-syslog'), workload)
    if (transport === 'otlp') return otlpLogger(bunyan, url, workload)
    if (transport === 'forward') return forwardLogger(bunyan, host, port, workload)
    if (transport === 'udp' || transport === 'tcp') return syslogLogger(bunyan, await load('bunyan-syslog'), transport, host, port, workload)
    if (transport === 'file') {
      const logger = bunyan.createLogger({ name: 'log-bench', streams: [{ path: file }] })
      return {
        log: fieldsFirstCall(logger, workload),
        async close () { await endAndClose(logger.streams[0].stream) }
      }
    }
    const logger = bunyan.createLogger({ name: 'log-bench' })
    return {
      log: fieldsFirstCall(logger, workload),
      async close () { await drained(process.stdout) }
    }
  }
}

// bunyan-syslog's README: a raw stream from createBunyanStream({ type, host, port }). Its UDP
// stream sends one datagram per record and, on end(), closes the socket once no send is pending
// ('close'). Its TCP stream writes each record plus '\n'; on end() it calls socket.end() and then
// removes every 'end' listener, Node's own included, so the socket never closes after the server's
// FIN and the process would hang. The socket's 'finish' (every byte handed to the kernel, FIN
// sent) is therefore the signal; the adapter then releases the half-open socket itself.
// Its end() also removes the socket's 'connect' listeners, with which Node writes what was queued
// before the connection: ended while still connecting (always so after a synchronous loop), it
// would silently throw away every record. A long-running service is connected long before it
// shuts down, so the adapter waits for the connection before ending, as such a service would.
// @opentelemetry/instrumentation-bunyan's README "Using OpenTelemetryBunyanStream without
// instrumentation": a raw stream into the global LoggerProvider (sdk-logs, batch processor, OTLP/HTTP
// exporter). close: the provider's shutdown() exports what the batch processor holds.
async function otlpLogger (bunyan, url, workload) {
  const provider = await otelProvider({ url })
  const { OpenTelemetryBunyanStream } = await import('@opentelemetry/instrumentation-bunyan')
  const logger = bunyan.createLogger({ name: 'log-bench', streams: [{ type: 'raw', stream: new OpenTelemetryBunyanStream() }] })
  return {
    log: fieldsFirstCall(logger, workload),
    async close () { await provider.shutdown() }
  }
}

// fluent-logger's README "stream": bunyan writes its JSON lines to sender.toStream(label).
async function forwardLogger (bunyan, host, port, workload) {
  const sender = await fluentSender({ host, port })
  const stream = sender.toStream('bunyan')
  const logger = bunyan.createLogger({ name: 'log-bench', streams: [{ stream }] })
  return {
    log: fieldsFirstCall(logger, workload),
    async close () { await endStreamAndSender(stream, sender) }
  }
}

// bunyan-syslog's README, type 'sys' as the 2019 harness built it (src/bunyan/BunyanLogger.js):
// openlog() once, then syslog(3) per record, synchronously, to /dev/log (glibc's path; openlog()
// cannot change it). end() calls closelog(): nothing is buffered, so nothing is left to flush.
function sysLogger (bunyan, bsyslog, workload) {
  const stream = bsyslog.createBunyanStream({ type: 'sys', facility: bsyslog.local0, name: 'log-bench' })
  const logger = bunyan.createLogger({ name: 'log-bench', streams: [{ level: 'info', type: 'raw', stream }] })
  return {
    log: fieldsFirstCall(logger, workload),
    async close () { stream.end() }
  }
}

function syslogLogger (bunyan, bsyslog, transport, host, port, workload) {
  const stream = bsyslog.createBunyanStream({ type: transport, host, port })
  const logger = bunyan.createLogger({ name: 'log-bench', streams: [{ level: 'info', type: 'raw', stream }] })
  return {
    log: fieldsFirstCall(logger, workload),
    async close () {
      if (transport === 'udp') {
        const closed = once(stream, 'close')
        stream.end()
        await closed
        return
      }
      const socket = stream.socket
      if (socket.connecting) await once(socket, 'connect')
      const finished = once(socket, 'finish')
      stream.end()
      await finished
      socket.destroy()
    }
  }
}
