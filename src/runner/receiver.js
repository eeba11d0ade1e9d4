import fs from 'node:fs'
import { RunFailure } from '../errors.js'
import { createReceiver } from '../sinks/index.js'

// Starts the transport's receiving end in the run's directory. One that cannot start (e.g.
// rsyslogd failing) is the run's failure with the reason, { error }, not the harness's; the
// directory is removed then. Shared by run and http.
export async function openReceiver (transport, options) {
  try {
    return { receiver: await createReceiver(transport, options), error: null }
  } catch (err) {
    fs.rmSync(options.dir, { recursive: true, force: true })
    if (!(err instanceof RunFailure)) throw err
    return { receiver: null, error: err.message }
  }
}

// After settle(): a receiver that refused what it was sent (the otlp and forward receivers'
// limits) and misses events says why, and that is the run's failure.
export async function failIfRefused (receiver, counts, sent) {
  if (counts.received == null || counts.received >= sent) return
  const cause = await receiver.failureCause?.()
  if (cause) throw new RunFailure(cause)
}
