import net from 'node:net'
import { createRequire } from 'node:module'
import { RunFailure } from '../errors.js'
import { untilQuiet } from './syslog.js'
import { dropRate, Verifier } from './verifier.js'

// The forward transport's receiving end: a Fluent forward protocol server (msgpack over TCP) on
// 127.0.0.1 and a free port. Messages are decoded and told apart by the fluent organisation's own
// protocol module (@fluent-org/logger's protocol.js, the one its FluentServer runs): Message,
// Forward, PackedForward and CompressedPackedForward modes, each `chunk` option answered with its
// ack. FluentServer itself closes a connection that sends garbage without a word; this loop is
// FluentServer's, with the count it lacks: a message that is no transport message, or bytes that
// are not msgpack, end that connection and count as malformedMessages; a connection that ends in
// the middle of a message counts as cutConnections; the receiver goes on with the others.
// The msgpack stream decoder drops a partial message at the end of its input without a word, so
// the connection's bytes are followed by an end marker (a msgpack string of our own): decoded
// whole, the connection ended between messages; swallowed into a partial message, it was cut.
const require = createRequire(import.meta.url)
const protocol = require('@fluent-org/logger/build/src/protocol.js')
const QUIET_MS = 500
const END_OF_STREAM = 'log-bench: end of the connection'
const END_MARKER = Buffer.from(protocol.encode(END_OF_STREAM))

async function * withEndMarker (socket, state) {
  try {
    for await (const chunk of socket) yield chunk
  } catch {
    // A reset connection ends like a closed one: the marker tells whether a message was cut.
  }
  state.inputEnded = true
  yield END_MARKER
}

// What the verifier reads of one record: the record as JSON, so the message ("w0 1: …" under
// `message`, `msg` or a whole JSON line) and any fields are found wherever the client put them.
function recordText (record) {
  try {
    return JSON.stringify(record)
  } catch {
    return ''
  }
}

export async function createForwardReceiver ({ workers, events, payload, workload, quietMs = QUIET_MS }) {
  const verifier = new Verifier({ workers, events, payload, workload })
  const stats = { connections: 0, messages: 0, entries: 0, acks: 0, malformedMessages: 0, cutConnections: 0 }
  let lastArrivalNs = null
  const sockets = new Set()
  const server = net.createServer((socket) => {
    stats.connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    serve(socket)
  })

  async function serve (socket) {
    let ended = false
    const state = { inputEnded: false }
    try {
      for await (const message of protocol.decodeClientStream(withEndMarker(socket, state))) {
        if (message === END_OF_STREAM) {
          ended = true
          break
        }
        // The decoder yields every whole message of a chunk before it takes the next, so anything it
        // yields once the marker was taken was completed by the marker's bytes: a cut message.
        if (state.inputEnded) break
        if (!protocol.isClientTransportMessage(message)) {
          stats.malformedMessages++
          socket.destroy()
          return
        }
        const { entries, chunk } = protocol.parseTransport(message)
        stats.messages++
        for (const [, record] of entries) verifier.check(recordText(record))
        stats.entries += entries.length
        lastArrivalNs = process.hrtime.bigint()
        if (chunk) {
          socket.write(protocol.encodeMessage(protocol.generateAck(chunk)))
          stats.acks++
        }
      }
      if (!ended) stats.cutConnections++
    } catch {
      // Bytes that are not msgpack, or a partial message that the end marker completed into nonsense.
      if (state.inputEnded) stats.cutConnections++
      else stats.malformedMessages++
      socket.destroy()
    }
  }

  await new Promise((resolve, reject) => {
    server.once('error', (err) => reject(new RunFailure(`the forward receiver could not listen on 127.0.0.1: ${err.message}`)))
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address()
  return {
    consumesStdout: false,
    doneMeans: 'the last forward message the embedded receiver decoded',
    target () { return { host: '127.0.0.1', port, protocol: 'forward' } },
    attach () {},
    progress () { return { arrived: verifier.received } },
    async settle ({ sent }) {
      const ask = async () => ({ received: verifier.received, arrivals: stats.entries + stats.malformedMessages + stats.cutConnections })
      await untilQuiet(ask, (c) => c.arrivals, (c) => c.received >= sent, quietMs)
      const { received, corrupt, duplicates } = verifier
      return { sent, received, corrupt, duplicates, dropRate: dropRate(sent, received), lastArrivalNs, receiverStats: { ...stats } }
    },
    stats () { return { ...stats, received: verifier.received, corrupt: verifier.corrupt, duplicates: verifier.duplicates } },
    async stop () {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}
