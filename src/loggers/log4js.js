import log4js from 'log4js'
import { drained } from './flush.js'

// log4js's README: a `console` or `file` appender for the default category.
// disableClustering: by default log4js in a cluster worker ships every event over IPC to the
// primary and expects log4js to run there; our primary is the harness, so each worker writes itself.
export default {
  name: 'log4js',
  packageName: 'log4js',
  transports: ['console', 'file', 'udp'],
  unsupported: {
    tcp: 'log4js has no syslog appender of its own, and log4js-syslog-appender (the one that installs beside log4js 6) sends over UDP only'
  },
  async create ({ transport, file, host, port }) {
    const appender = transport === 'udp' ? syslogAppender(host, port) : transport === 'file' ? { type: 'file', filename: file } : { type: 'console' }
    log4js.configure({
      appenders: { out: appender },
      categories: { default: { appenders: ['out'], level: 'info' } },
      disableClustering: true
    })
    const logger = log4js.getLogger()
    return {
      logger,
      log (message) { logger.info(message) },
      async close () {
        await new Promise((resolve, reject) => log4js.shutdown((err) => (err ? reject(err) : resolve())))
        if (transport === 'console') await drained(process.stdout)
      }
    }
  }
}

// log4js has no syslog appender of its own. log4js-syslog-appender (what the seed used) is the one
// that installs next to log4js 6: RFC 3164 over UDP through ain2, and no TCP at all, so tcp is
// unsupported. log4js-qradar-syslog-appender (UDP and TCP) declares a peer dependency on log4js 3,
// so npm refuses to install it beside log4js 6. The appender has no shutdown hook: log4js.shutdown()
// cannot wait for its sends, and what it has not sent when the process exits is lost (counted).
function syslogAppender (host, port) {
  return { type: 'log4js-syslog-appender', transport: 'UDP', address: host, port }
}
