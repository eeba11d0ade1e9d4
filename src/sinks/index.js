import { TRANSPORTS } from '../engine/transports.js'
import { udpReaderAbsence, udpReaderName } from './embedded-sink.js'
import { createFileReceiver } from './file.js'
import { createForwardReceiver } from './forward.js'
import { createOtlpReceiver } from './otlp.js'
import { createPipeReceiver, pipeReaderAbsence, pipeReaderName } from './pipe.js'
import { createSyslogReceiver } from './syslog.js'

// The receiving end of each transport (src/engine/transports.js lists them). A receiver hands each
// worker its destination (target), may read the worker's stdout (attach), and after the run counts
// what arrived (settle). What every receiver provides, and what the runners of `run`
// (src/run/run-once.js) and `http` (src/http/) call, in the order they call it:

/**
 * A receiving end of one run, made by createReceiver(transport, options): started (listening, its
 * files created) when the promise resolves; a failure to start rejects with a RunFailure.
 * @typedef {object} Receiver
 * @property {(workerId: number) => object} target  where worker `workerId` sends its events, handed
 *   to the adapter as config.target: `{ file }` (file), `{ host, port, protocol }` (udp, tcp, forward; otlp adds
 *   `url`), `{}` (console: stdout)
 * @property {boolean} consumesStdout  true when attach() reads the workers' stdout (console)
 * @property {(workerId: number, child: import('node:child_process').ChildProcess) => void} attach
 *   given each forked worker (a no-op for the receivers that do not read stdout)
 * @property {(workerId: number) => (number|'pipe')} [stdoutFor]  the worker's stdout, when the
 *   receiver makes it (the console's native pipe: a file descriptor)
 * @property {(workerId: number) => void} [forked]  the worker is forked: close the parent's copy of stdoutFor's
 *   descriptor
 * @property {(callback: (reason: string) => void) => void} [onFailure]  the receiving end died during the run (a sink
 *   or rsyslogd process)
 * @property {() => { arrived: (number|null), bytes?: number }} [progress]  live figures, polled about every
 *   0.5 s: events (or frames, lines) arrived so far; null with bytes where they are counted only after close (file)
 * @property {(run: { sent: number }) => Promise<ReceiverCounts>} settle  after every logger closed: wait
 *   until everything arrived or nothing more arrives, then verify and count
 * @property {() => Promise<(string|null)>} [failureCause]  why a failed run failed, when the receiver caused it (the
 *   console capture's disk full)
 * @property {() => void} [release]  the run failed or was stopped: stop slowing down or stalling (--receiver-rate,
 *   --receiver-stall), read the rest at once
 * @property {string} doneMeans  what `done` measures up to with this receiver, recorded with the run
 * @property {() => Promise<void>} stop  stop everything it started; called once per run, after a failure too
 */

/**
 * What settle() resolves to: counted event by event at the receiving end, never from the logger's word.
 * received, corrupt, duplicates and dropRate are null where nothing can be counted (a syslog server of the user's).
 * @typedef {object} ReceiverCounts
 * @property {number} sent
 * @property {(number|null)} received
 * @property {(number|null)} corrupt
 * @property {(number|null)} duplicates
 * @property {(number|null)} dropRate
 * @property {(bigint|null)} lastArrivalNs  when the last event arrived (process.hrtime clock), the end of `done`; null
 *   where unknown
 * @property {(number[][]|null)} [deliveryArrivals]  per worker, the first arrival (ns) of each sampled event (0: not
 *   arrived), for delivery latency
 * @property {string} [deliveryNote]  where arrivals are not timed (no deliveryArrivals), why
 *   (further fields are the receiver's own and recorded with the run: receiverSocketDrops, sinkMaxRssBytes,
 *   rsyslogStats, …)
 */
const RECEIVERS = {
  console: createPipeReceiver,
  file: createFileReceiver,
  udp: (options) => createSyslogReceiver('udp', options),
  tcp: (options) => createSyslogReceiver('tcp', options),
  otlp: createOtlpReceiver,
  forward: createForwardReceiver
}

export { TRANSPORTS }

/** @returns {Promise<Receiver>} */
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

// Which reader reads each receiving end of a plan that has a choice, as \`log-bench list\` says it:
// "readers: console native (a pipe per worker, drained by a thread), embedded UDP node:dgram"; ''
// where the plan uses none of them.
const READERS = {
  pipe: () => `console ${pipeReaderName() === 'native' ? 'native (a pipe per worker, drained by a thread)' : "node's streams"}`,
  'embedded-udp': () => `embedded UDP ${udpReaderName()}`
}

export function readersLine (sinks) {
  const used = Object.entries(READERS).filter(([sink]) => sinks.includes(sink)).map(([, name]) => name())
  return used.length ? `readers: ${used.join(', ')}` : ''
}
