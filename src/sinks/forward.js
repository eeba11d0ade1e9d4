import net from 'node:net'
import { createRequire } from 'node:module'
import { createCollector } from './collector.js'
import { gunzipWithin, msgpackExtent, msgpackStart, sizeText } from './receiver-limits.js'

// The forward transport's receiving end: a Fluent forward protocol server (msgpack over TCP) on
// 127.0.0.1 and a free port. Messages are decoded and told apart by the fluent organisation's own
// protocol module (@fluent-org/logger's protocol.js, the one its FluentServer runs): Message,
// Forward, PackedForward and CompressedPackedForward modes, each `chunk` option answered with its
// ack. FluentServer itself closes a connection that sends garbage without a word; this loop is
// FluentServer's, with the count it lacks: a message that is no transport message, or bytes that
// are not msgpack, end that connection and count as malformedMessages; a connection that ends in
// the middle of a message counts as cutConnections; the receiver goes on with the others.
// Each message is delimited on its bytes before it is decoded (msgpackExtent), so that what the
// limits refuse (receiver-limits.js: a message's size, what its entries inflate to, the values it
// decodes into) closes the connection at once, counted as refusedMessages with its cause kept:
// the run's failure when events are missing. What it shares with the other collectors is in
// src/sinks/collector.js.
const require = createRequire(import.meta.url)
const protocol = require('@fluent-org/logger/build/src/protocol.js')

// What the verifier reads of one record: the record as JSON, so the message ("w0 1: …" under
// `message`, `msg` or a whole JSON line) and any fields are found wherever the client put them.
function recordText (record) {
  try {
    return JSON.stringify(record)
  } catch {
    return ''
  }
}

// One whole message's bytes through the protocol module's stream decoder, which reads a
// PackedForward's entries sent as a msgpack str (as fluentd does) as bytes.
async function decodeMessage (bytes) {
  return (await protocol.decodeClientStream([bytes]).next()).value
}

export async function createForwardReceiver (options) {
  const stats = {
    connections: 0,
    messages: 0,
    entries: 0,
    acks: 0,
    malformedMessages: 0,
    cutConnections: 0,
    refusedMessages: 0
  }
  const collector = createCollector({ who: 'the forward receiver', stats, recordsCounter: 'entries', ...options })
  const { limits } = collector
  const sockets = new Set()
  // Half-open: a client that ends its side right after its last message still gets the acks that
  // are written once that message is inflated and decoded.
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    stats.connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    serve(socket)
  })

  // The messages of one connection, in order. The bytes of a message still arriving are kept in
  // a buffer that doubles as needed and scanned once (msgpackExtent resumes where it stopped).
  // Messages in progress hold at most maxBytes on a connection, maxBytes × maxRequests on all.
  let heldBytes = 0
  async function serve (socket) {
    let buffer = Buffer.alloc(0)
    let length = 0
    let state = msgpackStart()
    try {
      for await (const chunk of socket) {
        if (length + chunk.length > buffer.length) {
          const bigger = Buffer.allocUnsafe(Math.max(2 * buffer.length, length + chunk.length))
          buffer.copy(bigger, 0, 0, length)
          buffer = bigger
        }
        chunk.copy(buffer, length)
        length += chunk.length
        heldBytes += chunk.length
        let offset = 0
        for (;;) {
          const extent = msgpackExtent(buffer.subarray(0, length), state, limits)
          if (extent.incomplete) break
          if (extent.malformed) return malformed(socket)
          if (extent.refused) return refuse(socket, `a forward message ${extent.refused}`)
          // A whole message may arrive in one read: its size is checked here, not only while it is partial.
          if (extent.end - offset > limits.maxBytes) return refuse(socket, `a forward message of ${sizeText(extent.end - offset)} runs past ${sizeText(limits.maxBytes)}`)
          // A view, not a copy: take() is done with it before this loop reads on and reuses the buffer.
          if (!await take(socket, buffer.subarray(offset, extent.end))) return
          offset = extent.end
          state = msgpackStart(offset)
        }
        if (offset > 0) {
          buffer.copy(buffer, 0, offset, length)
          length -= offset
          heldBytes -= offset
          state.pos -= offset
        }
        if (length > limits.maxBytes) return refuse(socket, `a forward message runs past ${sizeText(limits.maxBytes)}`)
        if (heldBytes > limits.maxBytes * limits.maxRequests) return refuse(socket, `forward messages in progress hold more than ${sizeText(limits.maxBytes * limits.maxRequests)} on all connections`)
      }
    } catch {
      // A reset connection ends like a closed one: what was pending was cut.
    } finally {
      heldBytes -= length
    }
    if (length > 0) stats.cutConnections++
  }

  // Decodes and verifies one whole message; false when the connection was closed for it.
  async function take (socket, bytes) {
    let message
    try {
      message = await decodeMessage(bytes)
    } catch {
      return malformed(socket)
    }
    if (!protocol.isClientTransportMessage(message)) return malformed(socket)
    const packed = protocol.isPackedForwardMode(message) || protocol.isCompressedPackedForwardMode(message)
    let entries
    let chunk
    if (packed) {
      chunk = message[2]?.chunk
      const inflated = protocol.isCompressedPackedForwardMode(message) ? await gunzipWithin(message[1], limits.maxBytes, 'a CompressedPackedForward message\'s entries inflate') : { bytes: message[1] }
      if (inflated.refused) return refuse(socket, inflated.refused)
      if (inflated.malformed) return malformed(socket)
      const values = packedValues(inflated.bytes, limits)
      if (values.refused) return refuse(socket, `a PackedForward message ${values.refused} in its entries`)
      try {
        entries = protocol.decodeEntries(inflated.bytes)
      } catch {
        return malformed(socket)
      }
    } else ({ entries, chunk } = protocol.parseTransport(message))
    stats.messages++
    collector.accept(entries, ([, record]) => recordText(record))
    if (chunk) {
      socket.write(protocol.encodeMessage(protocol.generateAck(chunk)))
      stats.acks++
    }
    return true
  }

  function malformed (socket) {
    stats.malformedMessages++
    socket.destroy()
    return false
  }

  function refuse (socket, cause) {
    collector.refuse('refusedMessages', `closed a connection: ${cause}`)
    socket.destroy()
    return false
  }

  await collector.listen(server)
  return collector.receiver({
    doneMeans: 'the last forward message the embedded receiver decoded',
    target: { protocol: 'forward' },
    arrivals: () => stats.entries + stats.malformedMessages + stats.cutConnections + stats.refusedMessages,
    async stop () {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    }
  })
}

// The values a PackedForward's entries (msgpack values one after another) decode into: { values }
// or { refused }.
function packedValues (bytes, { maxBytes, maxValues }) {
  let values = 0
  for (let offset = 0; offset < bytes.length;) {
    const extent = msgpackExtent(bytes, msgpackStart(offset, values), { maxBytes, maxValues })
    if (extent.refused) return extent
    // Incomplete or malformed entries are the decoder's to refuse; what is counted so far is bounded.
    if (!extent.end) return { values }
    values = extent.values
    offset = extent.end
  }
  return { values }
}
