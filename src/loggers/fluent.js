import { once } from 'node:events'

// fluent-logger (the fluent organisation's forward client) as its README shows it: a sender to
// host and port; with requireAckResponse every message carries a chunk id and the sender waits for
// the server's ack before it calls back. Libraries that write to a stream get sender.toStream(label)
// (README "stream": each line one record { message }), whose write callback comes once the record
// is sent (acked, with requireAckResponse).
export async function fluentSender ({ host, port, ack = false }) {
  const { default: fluent } = await import('fluent-logger')
  return fluent.createFluentSender('log-bench', { host, port, timeout: 3.0, requireAckResponse: ack })
}

// Ending the stream waits for every write's callback (each record sent), then the sender closes its
// socket: sender.end() alone closes at once and loses what is still queued.
export async function endStreamAndSender (stream, sender) {
  const finished = once(stream, 'finish')
  stream.end()
  await finished
  await new Promise((resolve) => sender.end(null, null, resolve))
}

export const FORWARD_ACK_VARIANT = {
  describe: 'forward with requireAckResponse: each message waits for the server\'s ack (chunk/ack)',
  docs: 'https://github.com/fluent/fluent-logger-node#options (requireAckResponse)',
  transports: ['forward']
}
