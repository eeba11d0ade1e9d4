// What a forked process may tell the primary. Every message is untrusted input: the adapter runs in
// the same process as our worker code and can call process.send itself, so a message of a known
// type is checked field by field before any of it is used (a timestamp becomes a BigInt, a figure
// enters the results). A message of a type the primary does not use is ignored (log4js, for one,
// talks to its cluster master over the same channel). A bad message fails that run only.

const MAX_TIMESTAMP = 2n ** 64n - 1n
const MAX_TEXT = 500

const timestamp = (v) => typeof v === 'string' && /^\d{1,20}$/.test(v) && BigInt(v) <= MAX_TIMESTAMP
const amount = (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0
const count = (v) => Number.isSafeInteger(v) && v >= 0
const text = (v) => typeof v === 'string'
const port = (v) => Number.isInteger(v) && v >= 1 && v <= 65535
const object = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

const EXPECT = new Map([
  [timestamp, 'a hrtime string of digits'],
  [amount, 'a finite number >= 0'],
  [count, 'a whole number >= 0'],
  [text, 'a string'],
  [port, 'a port number'],
  [object, 'an object']
])

const closedFigures = { cpuUserMs: amount, cpuSystemMs: amount, maxRssBytes: amount }

// Per process kind: message type → { field: check }, and optionally a check across fields.
export const MESSAGES = {
  runWorker: {
    configure: {},
    ready: {},
    error: { phase: text, message: text },
    heap: { heapBytes: amount },
    unblocked: { at: timestamp, startedAt: timestamp, $: (m) => (BigInt(m.at) < BigInt(m.startedAt) ? 'its "at" is before its "startedAt"' : null) },
    closed: { at: timestamp, ...closedFigures, heapPeakBytes: amount, gcCount: count, gcPauseMs: amount }
  },
  serverWorker: {
    configure: {},
    error: { phase: text, message: text },
    listening: { port },
    closed: { logged: count, ...closedFigures, measuredMs: amount }
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

// A value from a foreign message, short enough for one line of an error.
function describeValue (value) {
  if (value === undefined) return 'missing'
  let shown
  try { shown = typeof value === 'bigint' ? `${value}n` : JSON.stringify(value) ?? String(value) } catch { shown = typeof value }
  return shown.length > 40 ? `${shown.slice(0, 40)}…` : shown
}

// A failure text from a child, as one line of bounded length.
export function oneLine (message) {
  const line = String(message).split('\n')[0]
  return line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT)}…` : line
}
