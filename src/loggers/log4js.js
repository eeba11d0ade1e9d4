import { drained } from './flush.js'
import { workloadCall } from '../engine/workloads.js'
import { loadProjectLibrary } from '../engine/library.js'

// log4js's default layouts print an object through util.format, which spreads it over several
// lines (and cuts it at depth 0); context added with addContext() is printed by none of them. For
// structured workloads log4js's docs show a JSON layout (docs/layouts.md, "Adding your own
// layouts"): JSON.stringify of the whole event, which holds data and context. Its separator is ''
// here because the console and file appenders end each line themselves.
const STRUCTURED = ['object', 'deep', 'child']

// log4js's README: a `console` or `file` appender for the default category.
// disableClustering: by default log4js in a cluster worker ships every event over IPC to the
// primary and expects log4js to run there; our primary is the harness, so each worker writes itself.
// Workloads: extra arguments after the message (logger.info(msg, obj)), a logger with
// addContext() as the child, util.format interpolation, logger.debug for disabled.
// log4js 4 and 5 (--lib log4js@4) take the same configure({ appenders, categories,
// disableClustering }), addLayout, the console/file/fileSync appenders and shutdown(cb) (docs:
// https://github.com/log4js-node/log4js-node/tree/v4.5.1/docs and …/v5.3.0/docs); 3 and older are
// not handled.
export default {
  name: 'log4js',
  packageName: 'log4js',
  versions: '>=4',
  transports: ['console', 'file', 'udp'],
  // What its udp transport goes through besides log4js: the version goes beside the page's headline.
  transportPackages: { udp: ['log4js-syslog-appender'] },
  unsupported: {
    tcp: 'log4js has no syslog appender of its own, and log4js-syslog-appender (the one that installs beside log4js 6) sends over UDP only'
  },
  workloads: ['string', 'object', 'deep', 'child', 'interpolate', 'disabled'],
  unsupportedWorkloads: {
    error: 'log4js prints an Error through util.format over several lines (its stack), so one event is not one line, and the JSON layout its docs show writes an Error as {} (JSON.stringify), losing message and stack'
  },
  variants: {
    fileSync: {
      describe: "the fileSync appender: each line written with a blocking write, instead of the file appender's stream",
      docs: 'https://log4js-node.github.io/log4js-node/fileSync.html (Synchronous File Appender)',
      transports: ['file']
    }
  },
  async create ({ transport, file, host, port, workload, variant = 'default', load = loadProjectLibrary }) {
    const log4js = await load('log4js')
    log4js.addLayout('json', (config) => (logEvent) => JSON.stringify(logEvent) + config.separator)
    const appender = transport === 'udp' ? syslogAppender(host, port) : transport === 'file' ? { type: variant === 'fileSync' ? 'fileSync' : 'file', filename: file } : { type: 'console' }
    if (STRUCTURED.includes(workload)) appender.layout = { type: 'json', separator: '' }
    log4js.configure({
      appenders: { out: appender },
      categories: { default: { appenders: ['out'], level: 'info' } },
      disableClustering: true
    })
    const logger = log4js.getLogger()
    return {
      logger,
      log: log4jsCall(log4js, logger, workload),
      async close () {
        await new Promise((resolve, reject) => log4js.shutdown((err) => (err ? reject(err) : resolve())))
        if (transport === 'console') await drained(process.stdout)
      }
    }
  }
}

function log4jsCall (log4js, logger, workload) {
  return workloadCall(workload, {
    string: () => (message) => logger.info(message),
    fields: (fields) => (message) => logger.info(message, fields),
    child: (fields) => {
      const child = log4js.getLogger()
      for (const [key, value] of Object.entries(fields)) child.addContext(key, value)
      return (message) => child.info(message)
    },
    interpolate: ({ format, user, status }) => (message) => logger.info(format, message, user, status),
    disabled: () => (message) => logger.debug(message)
  })
}

// log4js has no syslog appender of its own. log4js-syslog-appender (what the seed used) is the one
// that installs next to log4js 6: RFC 3164 over UDP through ain2, and no TCP at all, so tcp is
// unsupported. log4js-qradar-syslog-appender (UDP and TCP) declares a peer dependency on log4js 3,
// so npm refuses to install it beside log4js 6. The appender has no shutdown hook: log4js.shutdown()
// cannot wait for its sends, and what it has not sent when the process exits is lost (counted).
function syslogAppender (host, port) {
  return { type: 'log4js-syslog-appender', transport: 'UDP', address: host, port }
}
