import { serializeError } from 'serialize-error'
// flush.js is imported for its one helper, drained(): an outside adapter would write the same few
// lines to wait for stdout's write callback.
import { drained } from './flush.js'
import { workloadCall } from '../engine/workloads.js'

// roarr's README: in Node.js, logging is disabled by default and is enabled by starting the program
// with ROARR_LOG=true; "all logs will be written to stdout", one JSON object per line, through
// process.stdout.write. roarr reads ROARR_LOG once, when it is first imported, so the adapter sets
// it in its own process and only then imports roarr: the same as `ROARR_LOG=true node app.js`.
// Workloads (README "API", "Logging errors"): the context object first, then the message
// (log.info(context, message)); log.child(context); the message formatted with printf; an Error
// in the context serialised with serialize-error, as the README tells (unserialised, roarr writes
// it as {}).
export default {
  name: 'roarr',
  packageName: 'roarr',
  transports: ['console'],
  workloads: ['string', 'object', 'deep', 'child', 'interpolate', 'error'],
  unsupportedWorkloads: {
    disabled: 'roarr has no level threshold in the process: with ROARR_LOG=true it writes every level, debug included; its README leaves filtering by level to the consumer (@roarr/cli, roarr --filter)'
  },
  unsupported: {
    file: 'roarr writes to stdout (or stderr with ROARR_STREAM) and leaves files to the shell; its README calls replacing ROARR.write in Node.js an anti-pattern'
  },
  async create ({ workload }) {
    process.env.ROARR_LOG = 'true'
    const { Roarr: log } = await import('roarr')
    return {
      log: roarrCall(log, workload),
      async close () { await drained(process.stdout) }
    }
  }
}

function roarrCall (log, workload) {
  return workloadCall(workload, {
    string: () => (message) => log.info(message),
    fields: (fields) => (message) => log.info(fields, message),
    child: (fields) => {
      const child = log.child(fields)
      return (message) => child.info(message)
    },
    interpolate: ({ format, user, status }) => (message) => log.info(format, message, user, status),
    error: (err) => (message) => log.error({ error: serializeError(err) }, message)
  })
}
