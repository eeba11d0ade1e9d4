import fs from 'node:fs'
import signale from 'signale'
// flush.js is imported for its helpers: drained() waits for stdout's write callback, endAndClose()
// for a file stream's 'close'; an outside adapter would write the same few lines.
import { drained, endAndClose } from './flush.js'

const { Signale } = signale

// signale's README: the default instance, signale.info(), writes to process.stdout; the `stream`
// option takes any Writable stream, so a file is new Signale({ stream: fs.createWriteStream(path) }).
// Each line is badge, label and message; no colours when the stream is not a TTY.
export default {
  name: 'signale',
  packageName: 'signale',
  transports: ['console', 'file'],
  workloads: ['string'],
  async create ({ transport, file }) {
    if (transport === 'file') {
      const stream = fs.createWriteStream(file, { flags: 'a' })
      const logger = new Signale({ stream })
      return {
        log (message) { logger.info(message) },
        async close () { await endAndClose(stream) }
      }
    }
    return {
      log (message) { signale.info(message) },
      async close () { await drained(process.stdout) }
    }
  }
}
