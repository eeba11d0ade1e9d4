import { configure, dispose, getConsoleSink, getLogger } from '@logtape/logtape'
import { getFileSink } from '@logtape/file'
// flush.js is imported for its one helper, drained(): an outside adapter would write the same few
// lines to wait for stdout's write callback.
import { drained } from './flush.js'
import { workloadCall } from '../engine/workloads.js'

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
// Workloads (logtape.org "Structured logging", "Contexts"): properties as the second argument
// (logger.info(message, properties)); the child is logger.with(properties); interpolation is a
// message template with named placeholders filled from the properties ("{message} user={user}
// status={status}"; its docs prefer these to template literals, which carry no structured data);
// an Error goes into the template as a property ("{message} {error}"). The default text formatter
// (console and file sinks alike) prints the rendered message only: properties that are not
// placeholders are kept on the record but not written, and placeholder values are rendered with
// util.inspect (strings quoted, an Error as its stack over several lines).
export default {
  name: 'logtape',
  packageName: '@logtape/logtape',
  transports: ['console', 'file', 'otlp'],
  workloads: ['string', 'object', 'deep', 'child', 'interpolate', 'error', 'disabled'],
  unsupportedWorkloads: {
    error: { console: "LogTape's console sink writes error records with console.error, to stderr, and the console transport receives stdout" }
  },
  unsupported: {
    udp: 'LogTape\'s syslog sink is a separate package, @logtape/syslog, which log-bench does not measure yet',
    tcp: 'LogTape\'s syslog sink is a separate package, @logtape/syslog, which log-bench does not measure yet',
    forward: 'LogTape has no Fluent forward sink of its own (its collector path is OpenTelemetry, @logtape/otel: the otlp transport)'
  },
  async create ({ transport, file, url, workload }) {
    await configure({
      sinks: { out: transport === 'otlp' ? await otelSink(url) : transport === 'file' ? getFileSink(file) : getConsoleSink() },
      loggers: [
        { category: 'log-bench', lowestLevel: 'info', sinks: ['out'] },
        { category: ['logtape', 'meta'], lowestLevel: 'warning', sinks: ['out'] }
      ]
    })
    const logger = getLogger('log-bench')
    return {
      log: logtapeCall(logger, workload),
      async close () {
        await dispose()
        if (transport === 'console') await drained(process.stdout)
      }
    }
  }
}

// @logtape/otel's README: getOpenTelemetrySink({ otlpExporterConfig: { url } }), on its defaults
// (OTLP/HTTP with JSON bodies unless OTEL_EXPORTER_OTLP_PROTOCOL says otherwise, the SDK's batch
// processor); dispose() shuts its LoggerProvider down, exporting what is left.
async function otelSink (url) {
  const { getOpenTelemetrySink } = await import('@logtape/otel')
  return getOpenTelemetrySink({ serviceName: 'log-bench', otlpExporterConfig: { url } })
}

function logtapeCall (logger, workload) {
  return workloadCall(workload, {
    string: () => (message) => logger.info(message),
    fields: (fields) => (message) => logger.info(message, fields),
    child: (fields) => {
      const child = logger.with(fields)
      return (message) => child.info(message)
    },
    interpolate: ({ user, status }) => (message) => logger.info('{message} user={user} status={status}', { message, user, status }),
    error: (error) => (message) => logger.error('{message} {error}', { message, error }),
    disabled: () => (message) => logger.debug(message)
  })
}
