import log from 'loglevel'
// flush.js is imported for its one helper, drained(): an outside adapter would write the same few
// lines to wait for stdout's write callback.
import { drained } from './flush.js'

// loglevel's README: `log.info(...)` on the default logger, whose methods are console's own, bound
// (info → console.info → process.stdout). Its default level is "warn", which drops info; log.warn
// would go to console.warn, i.e. stderr, which is not the console transport. So the level is set
// to "info" with log.setLevel, the README's way to enable lower levels.
export default {
  name: 'loglevel',
  packageName: 'loglevel',
  transports: ['console'],
  workloads: ['string'],
  unsupported: {
    file: 'loglevel writes only to the console object; its README says it does not let you reconfigure appenders (a file needs a methodFactory plugin of your own)'
  },
  async create () {
    log.setLevel('info')
    return {
      log (message) { log.info(message) },
      async close () { await drained(process.stdout) }
    }
  }
}
