import { once } from 'node:events'
import pino from 'pino'

// pino's README: pino() writes to stdout; pino(pino.destination(path)) to a file. Both write through
// a SonicBoom stream; ending it is the library's own way to write out everything it still holds
// (logger.flush(cb) calls back at once when minLength is 0, before buffered lines are written).
export default {
  name: 'pino',
  packageName: 'pino',
  transports: ['console', 'file', 'udp', 'tcp'],
  async create ({ transport, file, host, port }) {
    if (transport === 'udp' || transport === 'tcp') return syslogLogger(transport, host, port)
    const logger = transport === 'file' ? pino(pino.destination(file)) : pino()
    const stream = logger[pino.symbols.streamSym]
    return {
      logger,
      log (message) { logger.info(message) },
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
async function syslogLogger (transport, host, port) {
  const destination = pino.transport({
    pipeline: [
      { target: 'pino-syslog', options: transport === 'tcp' ? { newline: true } : {} },
      { target: 'pino-socket', options: { address: host, port, mode: transport } }
    ]
  })
  await once(destination, 'ready')
  const logger = pino(destination)
  return {
    log (message) { logger.info(message) },
    async close () {
      const closed = once(destination, 'close')
      destination.end()
      await closed
    }
  }
}
