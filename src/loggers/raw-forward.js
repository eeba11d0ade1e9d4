import net from 'node:net'
import { once } from 'node:events'
import { encode, decodeMultiStream } from '@msgpack/msgpack'
import { rawLine } from '../engine/workloads.js'

// raw over forward: the plainest Fluent forward writer: records { message } gathered into Forward
// mode messages ([tag, [[time, record], …], options]) of 512 entries, msgpack-encoded and written
// to one TCP connection as soon as each is full. With acknowledgements (the ack variant) each
// message carries a `chunk` id and close waits until the server has acked every one.
const BATCH_ENTRIES = 512
const TAG = 'log-bench'

export async function createRawForward ({ host, port, workload, ack = false }) {
  const line = rawLine(workload)
  const socket = net.connect(port, host)
  await once(socket, 'connect')
  const unacked = new Set()
  let closing = false
  let onAllAcked = null
  // The acks are read until the connection ends (leaving a for-await early would destroy the socket).
  const reading = ack
    ? (async () => {
        for await (const answer of decodeMultiStream(socket)) {
          unacked.delete(answer?.ack)
          if (closing && unacked.size === 0) onAllAcked?.()
        }
      })()
    : null
  let nextChunk = 0
  let entries = []
  const send = () => {
    const options = ack ? { chunk: `c${nextChunk++}` } : undefined
    if (options) unacked.add(options.chunk)
    socket.write(encode(options ? [TAG, entries, options] : [TAG, entries]))
    entries = []
  }
  const log = (message) => {
    entries.push([Math.floor(Date.now() / 1000), { message: line(message) }])
    if (entries.length === BATCH_ENTRIES) send()
  }
  return {
    log: line === null ? () => {} : log,
    async close () {
      if (entries.length) send()
      closing = true
      if (ack && unacked.size > 0) {
        await Promise.race([new Promise((resolve) => { onAllAcked = resolve }), reading])
        if (unacked.size > 0) throw new Error(`the forward receiver closed the connection with ${unacked.size} messages unacknowledged`)
      }
      const closed = once(socket, 'close')
      socket.end()
      await closed
      await reading
    }
  }
}
