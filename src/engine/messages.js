// What a forked process may tell the primary. Every message is untrusted input: the adapter runs in
// the same process as our worker code and can call process.send itself, so a message of a known
// type is checked field by field before any of it is used (a timestamp becomes a BigInt, a figure
// enters the results). A message of a type the primary does not use is ignored (log4js, for one,
// talks to its cluster master over the same channel). A bad message fails that run only.

import { describeValue } from '../escape.js'
import { amount, object } from './checks.js'
import { DELIVERY_SAMPLES } from './message.js'
import { invalidMeasures } from './worker-measures.js'

const MAX_TIMESTAMP = 2n ** 64n - 1n
const MAX_TEXT = 500

const timestamp = (v) => typeof v === 'string' && /^\d{1,20}$/.test(v) && BigInt(v) <= MAX_TIMESTAMP
const count = (v) => Number.isSafeInteger(v) && v >= 0
const text = (v) => typeof v === 'string'
const port = (v) => Number.isInteger(v) && v >= 1 && v <= 65535
// The sampled calls' times (delivery latency): at most DELIVERY_SAMPLES of them.
const stamps = (v) => Array.isArray(v) && v.length <= DELIVERY_SAMPLES && v.every(amount)

const EXPECT = new Map([
  [timestamp, 'a hrtime string of digits'],
  [amount, 'a finite number >= 0'],
  [count, 'a whole number >= 0'],
  [text, 'a string'],
  [port, 'a port number'],
  [object, 'an object'],
  [stamps, `an array of at most ${DELIVERY_SAMPLES} finite numbers >= 0`]
])

// Each wrapper is a new function: its expectation is registered with it.
function nullable (check) {
  const wrapped = (v) => v === null || v === undefined || check(v)
  EXPECT.set(wrapped, `${EXPECT.get(check)} or null`)
  return wrapped
}
const optional = nullable

const closedFigures = { cpuUserMs: amount, cpuSystemMs: amount, maxRssBytes: amount }

// src/engine/late-writes.js: { afterEnd, afterClose }, each { writes, bytes, to }.
const tally = (v) => object(v) && count(v.writes) && count(v.bytes) && (v.to == null || ['its file', 'stdout', 'a stream'].includes(v.to))
const lateWrites = (v) => object(v) && tally(v.afterEnd) && tally(v.afterClose)
EXPECT.set(lateWrites, 'the writes after close() ({ afterEnd, afterClose }, each { writes, bytes, to })')

// run --profile: per profiled thread { thread, file, samples, fromMs, until } or { thread, file: null,
// note } (src/engine/profiler.js). Which files the primary reads it decides itself (src/run/profiles.js).
const MAX_PROFILED_THREADS = 64
const profileReport = (r) => object(r) && text(r.thread) && r.thread.length <= MAX_TEXT &&
  (r.file === null || (text(r.file) && count(r.samples))) &&
  (r.note == null || (text(r.note) && r.note.length <= MAX_TEXT)) &&
  (r.fromMs == null || amount(r.fromMs)) && (r.until == null || r.until === 'closed' || r.until === 'close-called')
const profileReports = (v) => Array.isArray(v) && v.length >= 1 && v.length <= MAX_PROFILED_THREADS &&
  v.every(profileReport)
EXPECT.set(profileReports, `an array of 1 to ${MAX_PROFILED_THREADS} profiled threads ({ thread, file, samples, fromMs, until } or { thread, file: null, note })`)

// A run worker's last message, whether it closed its logger or ends by --ending: the same figures.
const runWorkerEnd = {
  at: timestamp,
  ...closedFigures,
  heapPeakBytes: amount,
  gcCount: count,
  gcPauseMs: amount,
  costs: optional(object),
  profiles: optional(profileReports),
  // Writes after close() was called (src/engine/late-writes.js), or null.
  late: optional(nullable(lateWrites)),
  // The measures it took besides time (src/engine/worker-measures.js).
  $: (m) => invalidMeasures(m.costs)
}

// Per process kind: message type → { field: check }, and optionally a check across fields.
export const MESSAGES = {
  runWorker: {
    configure: {},
    ready: {},
    error: { phase: text, message: text },
    heap: { heapBytes: amount },
    unblocked: { at: timestamp, startedAt: timestamp, loopReturnedAt: nullable(timestamp), heldNs: nullable(timestamp), longestHeldNs: optional(timestamp), callStamps: nullable(stamps), $: (m) => (BigInt(m.at) < BigInt(m.startedAt) ? 'its "at" is before its "startedAt"' : null) },
    closed: runWorkerEnd,
    // Sent instead of 'closed' right before a worker ends by --ending (exit, a throw, a signal…).
    ended: runWorkerEnd,
    // Writes the logger made in the turn after close() resolved, right before the worker ends.
    late: { late: lateWrites }
  },
  serverWorker: {
    configure: {},
    error: { phase: text, message: text },
    listening: { port },
    closed: { logged: count, ...closedFigures, measuredMs: amount, served: optional(count) }
  },
  loadDriver: {
    configure: {},
    error: { phase: text, message: text },
    measuring: {},
    result: { result: object }
  }
}

// Why msg is not a valid message for `kinds`, or null. Messages of other types are not judged.
export function invalidMessage (kinds, msg) {
  if (typeof msg.type !== 'string' || !Object.hasOwn(kinds, msg.type)) return null
  const fields = kinds[msg.type]
  for (const [name, check] of Object.entries(fields)) {
    if (name === '$') continue
    if (!check(msg[name])) return `its "${name}" is ${describeValue(msg[name])}, not ${EXPECT.get(check)}`
  }
  return fields.$?.(msg) ?? null
}

// A failure text from a child, as one line of bounded length.
export function oneLine (message) {
  const line = String(message).split('\n')[0]
  return line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT)}…` : line
}
