import fs from 'node:fs'
import signale from 'signale'
// flush.js is imported for its helpers: drained() waits for stdout's write callback, endAndClose()
// for a file stream's 'close'; an outside adapter would write the same few lines.
import { drained, endAndClose } from './flush.js'
import { workloadCall } from '../engine/workloads.js'

const { Signale } = signale

// signale's README: the default instance, signale.info(), writes to process.stdout; the `stream`
// option takes any Writable stream, so a file is new Signale({ stream: fs.createWriteStream(path) }).
// Each line is badge, label and message; no colours when the stream is not a TTY.
// Workloads (README "Default Loggers", "Scoped Loggers"): signale has no structured fields; its
// arguments are formatted like util.format (objects and Errors through util.inspect, which
// spreads these objects and an Error's stack over several lines); the child is scope(), which
// binds names, not fields, so the two bound values are two scope names ("[svc-checkout] [node-7a1]").
export default {
  name: 'signale',
  packageName: 'signale',
  transports: ['console', 'file'],
  workloads: ['string', 'object', 'deep', 'child', 'interpolate', 'error'],
  unsupportedWorkloads: {
    disabled: "signale's levels rank debug above info (info, timer, debug, warn, error; README \"logLevel\"): at its default logLevel 'info' debug prints, and no level shows info while hiding debug"
  },
  async create ({ transport, file, workload }) {
    if (transport === 'file') {
      const stream = fs.createWriteStream(file, { flags: 'a' })
      const logger = new Signale({ stream })
      return {
        log: signaleCall(logger, workload),
        async close () { await endAndClose(stream) }
      }
    }
    return {
      log: signaleCall(signale, workload),
      async close () { await drained(process.stdout) }
    }
  }
}

function signaleCall (logger, workload) {
  return workloadCall(workload, {
    string: () => (message) => logger.info(message),
    fields: (fields) => (message) => logger.info(message, fields),
    child: ({ service, instance }) => {
      const child = logger.scope(service, instance)
      return (message) => child.info(message)
    },
    interpolate: ({ format, user, status }) => (message) => logger.info(format, message, user, status),
    error: (err) => (message) => logger.error(message, err)
  })
}
