// The forked side of what src/engine/children.js follows: every process the harness forks takes its
// configuration, reports a failure and builds its logger the same way.
import { pathToFileURL } from 'node:url'
import { TERMINAL_SIGNALS } from '../errors.js'
import { libraryLoader } from './library.js'
import { DEFAULT_WORKLOAD } from './workloads.js'
import { lateWriteError, lateWrites, lateWritesWords } from './late-writes.js'

// A terminal signals its whole foreground process group (Ctrl-C, Ctrl-\\, closing it): the primary
// decides when a child stops (it records the run as interrupted, then ends the child).
export function leaveSignalsToPrimary () {
  for (const signal of TERMINAL_SIGNALS) process.on(signal, () => {})
}

// Asks the primary for this process's configuration (see trackChild in children.js). The answer
// also carries the primary's clock, which sets this process's offset (see now()).
export function receiveConfig () {
  return new Promise((resolve) => {
    const askedNs = process.hrtime.bigint()
    const onMessage = (msg) => {
      if (msg?.type !== 'config') return
      process.off('message', onMessage)
      setClockOffset(askedNs, process.hrtime.bigint(), msg.primaryNs)
      resolve(msg.config)
    }
    process.on('message', onMessage)
    process.send({ type: 'configure' })
  })
}

// Timestamps are compared with the primary's and the other workers'. Node's process.hrtime.bigint()
// is CLOCK_MONOTONIC, one clock for every process on the host; Bun's and Deno's count from their own
// start. Where this process's clock is evidently another one (more than a second apart), its
// timestamps are moved onto the primary's by the offset measured over the configure round trip,
// as NTP does (off by at most half the round trip, well under a millisecond over IPC).
let clockOffsetNs = 0n
const OTHER_CLOCK_NS = 1_000_000_000n
function setClockOffset (askedNs, answeredNs, primaryNs) {
  if (primaryNs == null) return
  const offset = BigInt(primaryNs) - (askedNs + answeredNs) / 2n
  clockOffsetNs = offset > OTHER_CLOCK_NS || offset < -OTHER_CLOCK_NS ? offset : 0n
}

// Now on the primary's clock, as a string (BigInt does not cross IPC).
export function now () {
  return String(process.hrtime.bigint() + clockOffsetNs)
}

// process.exit as it was before any adapter loaded: an adapter that replaces it (a no-op) cannot
// keep a finished worker alive, so that a run is not timed out "waiting for close()" after close() resolved.
export const exitProcess = process.exit.bind(process)

// Reports a failure as one line with the phase it happened in, then exits once the message is sent.
// The first failure is the one reported: a second (the close() that rejects after a background
// throw) would only race it.
let failed = false
export function fail (phase, err) {
  if (failed) return
  failed = true
  // A write after close() ended the logger's stream (or after its reader went) is named as that.
  const late = lateWriteError(err) ? ` (${lateWritesWords(lateWrites()) || 'the logger wrote after close() was called: close() must wait for its writes'})` : ''
  process.send({ type: 'error', phase, message: `${thrownText(err).split('\n')[0]}${late}` }, () => exitProcess(1))
}

// Ends a process whose work is done, once the event loop has turned once more. A logger can leave a
// failure for that turn (a setImmediate or a 0 ms timer that throws, or that rejects a promise nobody
// awaits), which would end a process that went on running; a close() whose writes are synchronous
// (stdout, a file) resolves before it. A failure in that turn is how the process ends (see fail).
// lastWord: a function giving what to send the primary before going, or null (the late writes
// seen in that turn); anything else (process.send's callback passes its error) is none.
export function exitAfterATurn (lastWord) {
  setTimeout(() => {
    if (failed) return
    const message = typeof lastWord === 'function' ? lastWord() : null
    if (message) process.send(message, () => exitProcess(0))
    else exitProcess(0)
  }, 0)
}

// What a logger threw, in words, whatever it threw: an Error's message; a string, number or null as
// it is; an object without a prototype (which String() cannot convert) or any other object as JSON.
export function thrownText (err) {
  try {
    if (err instanceof Error) return err.message
    if (err === null || (typeof err !== 'object' && typeof err !== 'function')) return String(err)
    if (typeof err.message === 'string') return err.message
    let json
    try { json = JSON.stringify(err) } catch {}
    const what = Object.getPrototypeOf(err) === null ? 'an object without a prototype' : typeof err === 'function' ? 'a function' : 'an object that is not an Error'
    return `it threw ${what}${json ? ` (${json.slice(0, 200)})` : ''}`
  } catch {
    return 'it threw a value that cannot be read'
  }
}

// Returns what undoes it (the run worker's --ending uncaught lets its own throw end the process).
export function failOnUncaught () {
  const onError = (err) => fail('uncaught', err)
  process.on('uncaughtException', onError)
  process.on('unhandledRejection', onError)
  return () => {
    process.off('uncaughtException', onError)
    process.off('unhandledRejection', onError)
  }
}

// Imports the library's adapter and builds its logger for this process's destination. libDir is
// where a versioned library was installed (null: the project's own); libVersion is its version, for
// adapters that follow an older major's API.
export async function createLogger ({ adapterFile, target, transport, workerId, events = null, workload = DEFAULT_WORKLOAD, variant = 'default', libDir = null, libVersion = null }) {
  const adapter = (await import(pathToFileURL(adapterFile).href)).default
  return adapter.create({
    ...target,
    transport,
    workerId,
    events,
    workload,
    variant,
    libVersion,
    load: libraryLoader(libDir)
  })
}
