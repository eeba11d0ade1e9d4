import { createFileReceiver } from './file.js'
import { createPipeReceiver } from './pipe.js'
import { createSyslogReceiver } from './syslog.js'

// The receiving end of each transport. A receiver hands each worker its destination (target),
// may read the worker's stdout (attach), and after the run counts what arrived (settle).
const RECEIVERS = {
  console: createPipeReceiver,
  file: createFileReceiver,
  udp: (options) => createSyslogReceiver('udp', options),
  tcp: (options) => createSyslogReceiver('tcp', options)
}

export const TRANSPORTS = Object.keys(RECEIVERS)

export async function createReceiver (transport, options) {
  return RECEIVERS[transport](options)
}
