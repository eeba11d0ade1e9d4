import { createFileReceiver } from './file.js'
import { createPipeReceiver } from './pipe.js'

// The receiving end of each transport. A receiver hands each worker its destination (target),
// may read the worker's stdout (attach), and after the run counts what arrived (settle).
const RECEIVERS = {
  console: createPipeReceiver,
  file: createFileReceiver
}

export const TRANSPORTS = Object.keys(RECEIVERS)

export async function createReceiver (transport, options) {
  return RECEIVERS[transport](options)
}
