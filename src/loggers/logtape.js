import { configure, dispose, getConsoleSink, getLogger } from '@logtape/logtape'
import { getFileSink } from '@logtape/file'
// flush.js is imported for its one helper, drained(): an outside adapter would write the same few
// lines to wait for stdout's write callback.
import { drained } from './flush.js'

// LogTape's manual: configure({ sinks, loggers }) once, then getLogger(category).info(). The console
// sink, getConsoleSink(), calls console.info for info records (stdout); the file sink is
// getFileSink(path) from @logtape/file, LogTape's own file package, on its defaults (blocking
// writes, an 8192-character buffer; but a record under 200 bytes that finds the buffer empty is
// written and fsynced at once, so the seed's short lines cost a write and an fsync each, which is
// what its defaults do and what is measured). dispose() flushes and closes every
// sink. LogTape's meta logger (its own diagnostics) is configured at "warning", as its manual
// recommends: left unconfigured, LogTape prints an info line about it to the console on every
// configure(), which would be one stray line per worker. Its warnings go to the same sink, where
// the verifier would count them.
export default {
  name: 'logtape',
  packageName: '@logtape/logtape',
  transports: ['console', 'file'],
  workloads: ['string'],
  unsupported: {
    udp: 'LogTape\'s syslog sink is a separate package, @logtape/syslog, which log-bench does not measure yet',
    tcp: 'LogTape\'s syslog sink is a separate package, @logtape/syslog, which log-bench does not measure yet'
  },
  async create ({ transport, file }) {
    await configure({
      sinks: { out: transport === 'file' ? getFileSink(file) : getConsoleSink() },
      loggers: [
        { category: 'log-bench', lowestLevel: 'info', sinks: ['out'] },
        { category: ['logtape', 'meta'], lowestLevel: 'warning', sinks: ['out'] }
      ]
    })
    const logger = getLogger('log-bench')
    return {
      log (message) { logger.info(message) },
      async close () {
        await dispose()
        if (transport === 'console') await drained(process.stdout)
      }
    }
  }
}
