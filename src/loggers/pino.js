import pino from 'pino'

// pino's README: pino() writes to stdout; pino(pino.destination(path)) to a file. Both write through
// a SonicBoom stream; ending it is the library's own way to write out everything it still holds
// (logger.flush(cb) calls back at once when minLength is 0, before buffered lines are written).
export default {
  name: 'pino',
  packageName: 'pino',
  transports: ['console', 'file'],
  async create ({ transport, file }) {
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
