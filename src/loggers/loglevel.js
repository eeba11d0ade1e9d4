import log from 'loglevel'
// flush.js is imported for its one helper, drained(): an outside adapter would write the same few
// lines to wait for stdout's write callback.
import { drained } from './flush.js'
import { workloadCall } from '../engine/workloads.js'

// loglevel's README: `log.info(...)` on the default logger, whose methods are console's own, bound
// (info → console.info → process.stdout). Its default level is "warn", which drops info; log.warn
// would go to console.warn, i.e. stderr, which is not the console transport. So the level is set
// to "info" with log.setLevel, the README's way to enable lower levels.
// Workloads: loglevel's methods are console's, so extra arguments are console's: objects through
// util.inspect (over several lines for these objects, console's default), format strings through
// util.format; log.debug is below info and is a no-op.
export default {
  name: 'loglevel',
  packageName: 'loglevel',
  transports: ['console'],
  workloads: ['string', 'object', 'deep', 'interpolate', 'disabled'],
  unsupportedWorkloads: {
    child: 'loglevel\'s named loggers (log.getLogger(name)) carry only their own level: they print neither the name nor any bound field unless a methodFactory plugin of your own adds it',
    error: 'log.error is console.error, which writes to stderr, and the console transport receives stdout'
  },
  unsupported: {
    file: 'loglevel writes only to the console object; its README says it does not let you reconfigure appenders (a file needs a methodFactory plugin of your own)'
  },
  async create ({ workload }) {
    log.setLevel('info')
    return {
      log: loglevelCall(workload),
      async close () { await drained(process.stdout) }
    }
  }
}

function loglevelCall (workload) {
  return workloadCall(workload, {
    string: () => (message) => log.info(message),
    fields: (fields) => (message) => log.info(message, fields),
    interpolate: ({ format, user, status }) => (message) => log.info(format, message, user, status),
    disabled: () => (message) => log.debug(message)
  })
}
