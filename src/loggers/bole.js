import fs from 'node:fs'
import bole from 'bole'
// flush.js is imported for its helpers: drained() waits for stdout's write callback, endAndClose()
// for a file stream's 'close'; an outside adapter would write the same few lines.
import { drained, endAndClose } from './flush.js'
import { workloadCall } from '../engine/workloads.js'

// bole's README: bole.output({ level: 'info', stream: process.stdout }) once for the application,
// then bole(name).info(); its file example is { stream: fs.createWriteStream('app.log') }.
// One JSON line per event, written straight to the stream.
// Workloads (README "API"): an object first, its properties placed on the output, then the
// message; an Error first (name, message, stack); console.log-style format strings; the child is a
// sub-logger, logger(name), which appends a name ("log-bench:svc-checkout:node-7a1"), not fields;
// debug is below the output's level.
export default {
  name: 'bole',
  packageName: 'bole',
  transports: ['console', 'file'],
  workloads: ['string', 'object', 'deep', 'child', 'interpolate', 'error', 'disabled'],
  async create ({ transport, file, workload }) {
    const stream = transport === 'file' ? fs.createWriteStream(file, { flags: 'a' }) : process.stdout
    bole.output({ level: 'info', stream })
    const logger = bole('log-bench')
    return {
      log: boleCall(logger, workload),
      async close () {
        if (transport === 'file') await endAndClose(stream)
        else await drained(process.stdout)
      }
    }
  }
}

function boleCall (logger, workload) {
  return workloadCall(workload, {
    string: () => (message) => logger.info(message),
    fields: (fields) => (message) => logger.info(fields, message),
    child: ({ service, instance }) => {
      const child = logger(service)(instance)
      return (message) => child.info(message)
    },
    interpolate: ({ format, user, status }) => (message) => logger.info(format, message, user, status),
    error: (err) => (message) => logger.error(err, message),
    disabled: () => (message) => logger.debug(message)
  })
}
