import { once } from 'node:events'
import pino from 'pino'
import { fieldsFirstCall, WORKLOADS } from '../engine/workloads.js'

// pino's README: pino() writes to stdout; pino(pino.destination(path)) to a file. Both write through
// a SonicBoom stream; ending it is the library's own way to write out everything it still holds
// (logger.flush(cb) calls back at once when minLength is 0, before buffered lines are written).
// Workloads: pino's merging object first (logger.info(obj, msg)), logger.child(bindings),
// logger.error(err, msg), printf-style logger.info('%s …', …) (README "Usage", docs/api.md "logging method parameters").
export default {
  name: 'pino',
  packageName: 'pino',
  transports: ['console', 'file', 'udp', 'tcp'],
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
  async create ({ transport, file, host, port, workload, variant = 'default' }) {
    if (transport === 'udp' || transport === 'tcp') return syslogLogger(transport, host, port, workload)
    if (variant === 'transport') return workerThreadLogger(transport === 'file' ? file : 1, workload)
    const dest = transport === 'file' ? file : 1
    const logger = variant === 'sync' ? pino(pino.destination({ dest, sync: true })) : transport === 'file' ? pino(pino.destination(file)) : pino()
    const stream = logger[pino.symbols.streamSym]
    return {
      logger,
      log: fieldsFirstCall(logger, workload),
      async close () {
        await new Promise((resolve, reject) => {
          stream.once('close', resolve)
          stream.once('error', reject)
          stream.end()
        })
      }
    }
  }
}

// pino-syslog's README: a transport pipeline, pino-syslog (RFC 5424 formatting) into pino-socket
// (udp or tcp), running in pino's transport worker thread. pino-syslog ends messages with nothing
// unless `newline` is set; over TCP that would leave the stream unframed, so TCP gets
// newline: true (RFC 6587 newline framing). Closing: ending the transport stream makes the worker
// end the pipeline; the stream's 'close' comes when the worker has finished and exited.
async function syslogLogger (transport, host, port, workload) {
  const destination = pino.transport({
    pipeline: [
      { target: 'pino-syslog', options: transport === 'tcp' ? { newline: true } : {} },
      { target: 'pino-socket', options: { address: host, port, mode: transport } }
    ]
  })
  await once(destination, 'ready')
  return threadLogger(destination, workload)
}

// pino's docs/transports.md: pino.transport({ target: 'pino/file', options: { destination } })
// writes in a worker thread; destination 1 is stdout. Both paths close the same way.
async function workerThreadLogger (destination, workload) {
  const stream = pino.transport({ target: 'pino/file', options: { destination } })
  await once(stream, 'ready')
  return threadLogger(stream, workload)
}

// Ending a transport stream makes its worker end the pipeline; 'close' comes when the worker
// thread has finished and exited.
function threadLogger (destination, workload) {
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
