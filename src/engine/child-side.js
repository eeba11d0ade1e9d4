// The forked side of what src/engine/children.js follows: every process the harness forks takes its
// configuration, reports a failure and builds its logger the same way.
import { pathToFileURL } from 'node:url'
import { TERMINAL_SIGNALS } from '../errors.js'

// A terminal signals its whole foreground process group (Ctrl-C, Ctrl-\\, closing it): the primary
// decides when a child stops (it records the run as interrupted, then ends the child).
export function leaveSignalsToPrimary () {
  for (const signal of TERMINAL_SIGNALS) process.on(signal, () => {})
}
import { libraryLoader } from './library.js'

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

// Reports a failure as one line with the phase it happened in, then exits once the message is sent.
export function fail (phase, err) {
  const message = err instanceof Error ? err.message : String(err)
  process.send({ type: 'error', phase, message: message.split('\n')[0] }, () => process.exit(1))
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
export async function createLogger ({ adapterFile, target, transport, workerId, events = null, workload = 'string', variant = 'default', libDir = null, libVersion = null }) {
  const adapter = (await import(pathToFileURL(adapterFile).href)).default
  return adapter.create({ ...target, transport, workerId, events, workload, variant, libVersion, load: libraryLoader(libDir) })
}
