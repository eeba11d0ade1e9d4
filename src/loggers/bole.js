import fs from 'node:fs'
import bole from 'bole'
// flush.js is imported for its helpers: drained() waits for stdout's write callback, endAndClose()
// for a file stream's 'close'; an outside adapter would write the same few lines.
import { drained, endAndClose } from './flush.js'

// bole's README: bole.output({ level: 'info', stream: process.stdout }) once for the application,
// then bole(name).info(); its file example is { stream: fs.createWriteStream('app.log') }.
// One JSON line per event, written straight to the stream.
export default {
  name: 'bole',
  packageName: 'bole',
  transports: ['console', 'file'],
  workloads: ['string'],
  async create ({ transport, file }) {
    const stream = transport === 'file' ? fs.createWriteStream(file, { flags: 'a' }) : process.stdout
    bole.output({ level: 'info', stream })
    const logger = bole('log-bench')
    return {
      log (message) { logger.info(message) },
      async close () {
        if (transport === 'file') await endAndClose(stream)
        else await drained(process.stdout)
      }
    }
  }
}
