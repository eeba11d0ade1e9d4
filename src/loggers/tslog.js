import { Logger } from 'tslog'
import { fileTransport } from 'tslog/transports/file'
// flush.js is imported for its one helper, drained(): an outside adapter would write the same few
// lines to wait for stdout's write callback.
import { drained } from './flush.js'

// tslog's README: new Logger() prints "pretty" lines through console.log (stdout), uncoloured when
// piped; info is a console.log level. Its file destination is fileTransport({ path }) from
// tslog/transports/file, attached with attachTransport. A Logger keeps printing to the console
// beside its transports unless its type is "hidden" (the README's "type: 'hidden' plus a
// transport"), so the file cell uses that: otherwise it would also measure a console it does not use.
// The file transport writes JSON lines through an fs.WriteStream; close is the transport's own
// documented order: logger.flush() (every write confirmed), then its asyncDispose (the stream ended).
export default {
  name: 'tslog',
  packageName: 'tslog',
  transports: ['console', 'file'],
  workloads: ['string'],
  async create ({ transport, file }) {
    if (transport === 'file') {
      const logger = new Logger({ type: 'hidden' })
      const sink = fileTransport({ path: file })
      logger.attachTransport(sink)
      return {
        log (message) { logger.info(message) },
        async close () {
          await logger.flush()
          await sink[Symbol.asyncDispose]()
        }
      }
    }
    const logger = new Logger()
    return {
      log (message) { logger.info(message) },
      async close () {
        await logger.flush()
        await drained(process.stdout)
      }
    }
  }
}
