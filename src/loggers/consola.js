import { consola } from 'consola'
// flush.js is imported for its one helper, drained(): an outside adapter would write the same few
// lines to wait for stdout's write callback.
import { drained } from './flush.js'
import { workloadCall } from '../engine/workloads.js'

// consola's README: the global `consola` instance ("recommended to use everywhere"), consola.info().
// Its reporters write levels 2 and up (log, info, success, ...) to process.stdout and 0-1 (error,
// warn, fatal) to process.stderr, so info lands on stdout. On a non-TTY it prints no colours; the
// fancy reporter puts an icon before the message, the basic one (CI or TEST set) "[info]".
// consola's defaults depend on the environment: with NODE_ENV=test or TEST set, its level is warn
// and info prints nothing (every event is then counted lost).
// Workloads (README "Getting Started", "withTag(tag)"): extra arguments after the message, which
// consola formats like util.format (objects through util.inspect, which at consola's defaults
// spreads these objects over several lines); the child is withTag(), consola's scoped instance,
// which binds a tag (a name), not fields, so the two bound values are two chained tags
// ("[svc-checkout:node-7a1]"); consola.debug is level 4, above the default level 3.
export default {
  name: 'consola',
  packageName: 'consola',
  transports: ['console'],
  workloads: ['string', 'object', 'deep', 'child', 'interpolate', 'disabled'],
  unsupportedWorkloads: {
    error: 'consola writes error-level records (levels 0 and 1: fatal, error, warn) to process.stderr, and the console transport receives stdout'
  },
  unsupported: {
    file: 'consola documents terminal output only (its reporters write to process.stdout and process.stderr); logging elsewhere means writing a reporter of your own'
  },
  async create ({ workload }) {
    return {
      log: consolaCall(workload),
      async close () { await drained(process.stdout) }
    }
  }
}

function consolaCall (workload) {
  return workloadCall(workload, {
    string: () => (message) => consola.info(message),
    fields: (fields) => (message) => consola.info(message, fields),
    child: ({ service, instance }) => {
      const child = consola.withTag(service).withTag(instance)
      return (message) => child.info(message)
    },
    interpolate: ({ format, user, status }) => (message) => consola.info(format, message, user, status),
    disabled: () => (message) => consola.debug(message)
  })
}
