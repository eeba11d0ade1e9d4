// flush.js is imported for its one helper, drained(): an outside adapter would write the same few
// lines to wait for stdout's write callback.
import { drained } from './flush.js'

// roarr's README: in Node.js, logging is disabled by default and is enabled by starting the program
// with ROARR_LOG=true; "all logs will be written to stdout", one JSON object per line, through
// process.stdout.write. roarr reads ROARR_LOG once, when it is first imported, so the adapter sets
// it in its own process and only then imports roarr: the same as `ROARR_LOG=true node app.js`.
export default {
  name: 'roarr',
  packageName: 'roarr',
  transports: ['console'],
  workloads: ['string'],
  unsupported: {
    file: 'roarr writes to stdout (or stderr with ROARR_STREAM) and leaves files to the shell; its README calls replacing ROARR.write in Node.js an anti-pattern'
  },
  async create () {
    process.env.ROARR_LOG = 'true'
    const { Roarr: log } = await import('roarr')
    return {
      log (message) { log.info(message) },
      async close () { await drained(process.stdout) }
    }
  }
}
