// The forked side of what src/engine/children.js follows: every process the harness forks takes its
// configuration, reports a failure and builds its logger the same way.
import { pathToFileURL } from 'node:url'

// Asks the primary for this process's configuration (see trackChild in children.js).
export function receiveConfig () {
  return new Promise((resolve) => {
    const onMessage = (msg) => {
      if (msg?.type !== 'config') return
      process.off('message', onMessage)
      resolve(msg.config)
    }
    process.on('message', onMessage)
    process.send({ type: 'configure' })
  })
}

// Reports a failure as one line with the phase it happened in, then exits once the message is sent.
export function fail (phase, err) {
  const message = err instanceof Error ? err.message : String(err)
  process.send({ type: 'error', phase, message: message.split('\n')[0] }, () => process.exit(1))
}

export function failOnUncaught () {
  process.on('uncaughtException', (err) => fail('uncaught', err))
  process.on('unhandledRejection', (err) => fail('uncaught', err))
}

// Imports the library's adapter and builds its logger for this process's destination.
export async function createLogger ({ adapterFile, target, transport, workerId, events = null, workload = 'string', variant = 'default' }) {
  const adapter = (await import(pathToFileURL(adapterFile).href)).default
  return adapter.create({ ...target, transport, workerId, events, workload, variant })
}
