import { once } from 'node:events'
import semver from 'semver'
import { drained } from './flush.js'
import { endStreamAndSender, fluentSender } from './fluent.js'
import { fieldsFirstCall, WORKLOADS } from '../engine/workloads.js'
import { loadProjectLibrary } from '../engine/library.js'

// pino's README: pino() writes to stdout; pino(pino.destination(path)) to a file. Both write through
// a SonicBoom stream; ending it is the library's own way to write out everything it still holds
// (logger.flush(cb) calls back at once when minLength is 0, before buffered lines are written).
// Workloads: pino's merging object first (logger.info(obj, msg)), logger.child(bindings),
// logger.error(err, msg), printf-style logger.info('%s …', …) (README "Usage", docs/api.md "logging method
// parameters"). Older majors (--lib pino@5 … pino@9), each through its own docs/api.md at its tag
// (https://github.com/pinojs/pino/blob/v5.17.0/docs/api.md, …/v6.14.0/…, …/v7.11.0/…, …/v8.21.0/…, …/v9.14.0/…):
// pino(), pino(pino.destination(path)), pino.symbols.streamSym and the SonicBoom stream's end()/'close' are the same
// from 5 on. pino 5's pino.destination(dest) takes only a path or descriptor and is synchronous already (asynchronous
// was pino.extreme()); the { dest, sync } object came with 6; pino.transport() with 7.
export default {
  name: 'pino',
  packageName: 'pino',
  versions: '>=5',
  unsupportedFor ({ version, variant }) {
    if (variant === 'transport' && semver.lt(version, '7.0.0')) return `pino.transport() came with pino 7 (docs/transports.md); pino ${version} has none`
    return null
  },
  transports: ['console', 'file', 'udp', 'tcp', 'otlp', 'forward'],
  // What each transport goes through besides pino: their versions go beside the page's headline.
  transportPackages: { udp: ['pino-syslog', 'pino-socket'], tcp: ['pino-syslog', 'pino-socket'], otlp: ['pino-opentelemetry-transport'], forward: ['fluent-logger'] },
  workloads: WORKLOADS,
  variants: {
    sync: {
      describe: 'pino.destination({ dest, sync: true }): each line written before the call returns',
      docs: 'https://github.com/pinojs/pino/blob/main/docs/asynchronous.md (Asynchronous Logging; pino.destination sync option in docs/api.md)',
      transports: ['console', 'file']
    },
    transport: {
      describe: "pino.transport({ target: 'pino/file' }): formatting stays in the caller, writing moves to a worker thread",
      docs: 'https://github.com/pinojs/pino/blob/main/docs/transports.md (pino/file; pino.transport() in docs/api.md)',
      transports: ['console', 'file']
    }
  },
  async create ({ transport, file, host, port, url, workload, variant = 'default', load = loadProjectLibrary, libVersion }) {
    const pino = await load('pino')
    if (transport === 'otlp') return otlpLogger(pino, url, workload)
    if (transport === 'forward') return forwardLogger(pino, host, port, workload)
    if (transport === 'udp' || transport === 'tcp') return syslogLogger(pino, transport, host, port, workload)
    if (variant === 'transport') return workerThreadLogger(pino, transport === 'file' ? file : 1, workload)
    const dest = transport === 'file' ? file : 1
    const logger = variant === 'sync' ? pino(syncDestination(pino, dest, libVersion)) : transport === 'file' ? pino(pino.destination(file)) : pino()
    const stream = logger[pino.symbols.streamSym]
    return {
      logger,
      log: fieldsFirstCall(logger, workload),
      async close () {
        // pino() writes to process.stdout itself, not through SonicBoom, where process.stdout.write
        // is not Node's own (lib/tools.js, hasBeenTampered): so under Bun. stdout is not to be
        // ended; it has taken every line once its queue is drained.
        if (stream === process.stdout) return drained(process.stdout)
        // pino 5 and 6 write to stdout synchronously (their docs/api.md: pino.destination is
        // synchronous unless told otherwise), so each line is out when its call returns; their
        // SonicBoom's end() would close descriptor 1 itself, which Node aborts on (libuv uv__close).
        if (stream.fd === 1 && stream.sync !== false && libVersion && semver.lt(libVersion, '7.0.0')) return
        await new Promise((resolve, reject) => {
          stream.once('close', resolve)
          stream.once('error', reject)
          stream.end()
        })
      }
    }
  }
}

// pino 5 had no { dest, sync } object: its pino.destination(dest) is the synchronous one.
function syncDestination (pino, dest, libVersion) {
  return libVersion && semver.lt(libVersion, '6.0.0') ? pino.destination(dest) : pino.destination({ dest, sync: true })
}

// pino-syslog's README: a transport pipeline, pino-syslog (RFC 5424 formatting) into pino-socket
// (udp or tcp), running in pino's transport worker thread. pino-syslog ends messages with nothing
// unless `newline` is set; over TCP that would leave the stream unframed, so TCP gets
// newline: true (RFC 6587 newline framing). Closing: ending the transport stream makes the worker
// end the pipeline; the stream's 'close' comes when the worker has finished and exited.
async function syslogLogger (pino, transport, host, port, workload) {
  const destination = pino.transport({
    pipeline: [
      { target: 'pino-syslog', options: transport === 'tcp' ? { newline: true } : {} },
      { target: 'pino-socket', options: { address: host, port, mode: transport } }
    ]
  })
  await once(destination, 'ready')
  return threadLogger(pino, destination, workload)
}

// pino-opentelemetry-transport's README: pino(pino.transport({ target: 'pino-opentelemetry-transport' }))
// in pino's worker thread, configured by OTEL_EXPORTER_OTLP_LOGS_ENDPOINT (the worker inherits the
// environment); its defaults: http/protobuf and the SDK's batch processor. The transport waits for
// the logger's configuration (expectPinoConfig) before it is ready, so the logger is made first, as
// the README does. Ending the stream ends the worker, which shuts its LoggerProvider down
// (exporting what is left) before 'close'.
async function otlpLogger (pino, url, workload) {
  process.env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT = url
  const destination = pino.transport({ target: 'pino-opentelemetry-transport' })
  const logged = threadLogger(pino, destination, workload)
  await once(destination, 'ready')
  return logged
}

// No maintained pino transport speaks forward (pino-fluentd is a CLI that reads a pipe), so pino
// writes its lines to fluent-logger's stream (its README's "stream" integration, for libraries
// that write to a stream): each line one record { message }.
async function forwardLogger (pino, host, port, workload) {
  const sender = await fluentSender({ host, port })
  const stream = sender.toStream('pino')
  const logger = pino(stream)
  return {
    log: fieldsFirstCall(logger, workload),
    async close () { await endStreamAndSender(stream, sender) }
  }
}

// pino's docs/transports.md: pino.transport({ target: 'pino/file', options: { destination } })
// writes in a worker thread; destination 1 is stdout. Both paths close the same way.
async function workerThreadLogger (pino, destination, workload) {
  const stream = pino.transport({ target: 'pino/file', options: { destination } })
  await once(stream, 'ready')
  return threadLogger(pino, stream, workload)
}

// Ending a transport stream makes its worker end the pipeline; 'close' comes when the worker
// thread has finished and exited.
function threadLogger (pino, destination, workload) {
  const logger = pino(destination)
  return {
    log: fieldsFirstCall(logger, workload),
    async close () {
      const closed = once(destination, 'close')
      destination.end()
      await closed
    }
  }
}
