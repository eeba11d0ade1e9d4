import { TRANSPORTS } from '../engine/transports.js'
import { udpReaderAbsence } from './embedded-sink.js'
import { createFileReceiver } from './file.js'
import { createPipeReceiver, pipeReaderAbsence } from './pipe.js'
import { createSyslogReceiver } from './syslog.js'

// The receiving end of each transport (src/engine/transports.js lists them). A receiver hands each
// worker its destination (target), may read the worker's stdout (attach), and after the run counts
// what arrived (settle).
const RECEIVERS = {
  console: createPipeReceiver,
  file: createFileReceiver,
  udp: (options) => createSyslogReceiver('udp', options),
  tcp: (options) => createSyslogReceiver('tcp', options)
}

export { TRANSPORTS }

// Names people try that are not transports, with what they mean here.
export const TRANSPORT_HINTS = {
  syslog: 'syslog goes over udp or tcp: give --transport udp, tcp or udp,tcp (--syslog chooses the receiving end)',
  stdout: 'stdout is the console transport: give --transport console',
  fs: 'give --transport file'
}

export async function createReceiver (transport, options) {
  return RECEIVERS[transport](options)
}

// Receiving ends that are read by a slower fallback when the native readers are not built, with what
// the fallback costs; given the sinks a plan uses (a cell's `sink`), one line for each in use.
const FALLBACKS = {
  pipe: { absence: pipeReaderAbsence, what: 'the console transport is read by node\'s streams, not the native pipe reader, which can slow a fast logger down' },
  'embedded-udp': { absence: udpReaderAbsence, what: 'the embedded sink reads UDP with node:dgram, not the native receiver, and drops datagrams that a fast logger sends' }
}

export function fallbackReaderNotes (sinks) {
  return Object.entries(FALLBACKS)
    .filter(([sink]) => sinks.includes(sink))
    .map(([, { absence, what }]) => [what, absence()])
    .filter(([, why]) => why)
    .map(([what, why]) => `${what}: ${why}`)
}
