import dgram from 'node:dgram'
import { once } from 'node:events'
import net from 'node:net'
import { rawLine } from '../engine/workloads.js'

// The raw baseline for syslog: the smallest valid RFC 5424 header (every field nil) in front of
// the message. UDP: one datagram per event on a connected socket, as RFC 5426 wants. TCP: newline
// framing (RFC 6587), lines batched into 64 KiB writes on one connection (each: one write per line).
const HEADER = '<14>1 - - - - - - '
const BATCH_BYTES = 64 * 1024

export async function createRawSyslog ({ transport, host, port, workload, each = false }) {
  const line = rawLine(workload)
  const sender = transport === 'udp' ? await rawUdp(host, port, line) : await rawTcp(host, port, line, each ? 0 : BATCH_BYTES)
  return line === null ? { ...sender, log () {} } : sender
}

async function rawUdp (host, port, line) {
  const socket = dgram.createSocket('udp4')
  // connect hands a failed lookup (a host that does not resolve) to its callback, not to 'error'.
  await new Promise((resolve, reject) => {
    socket.connect(port, host, (err) => {
      if (!err) return resolve()
      socket.close()
      reject(err)
    })
  })
  let inFlight = 0
  let failure = null
  let allSent = null
  // Callbacks come in send order; the one that brings inFlight to 0 means every datagram left.
  const onSent = (err) => {
    if (err) failure ??= err
    if (--inFlight === 0 && allSent) allSent()
  }
  return {
    log (message) {
      inFlight++
      socket.send(HEADER + line(message), onSent)
    },
    async close () {
      if (inFlight > 0) await new Promise((resolve) => { allSent = resolve })
      await new Promise((resolve) => socket.close(resolve))
      if (failure) throw failure
    }
  }
}

async function rawTcp (host, port, line, batchBytes) {
  const socket = net.connect(port, host)
  await once(socket, 'connect')
  let pending = ''
  return {
    log (message) {
      pending += HEADER + line(message) + '\n'
      if (pending.length >= batchBytes) {
        socket.write(pending)
        pending = ''
      }
    },
    async close () {
      const closed = once(socket, 'close')
      socket.end(pending)
      const [hadError] = await closed
      if (hadError) throw new Error('the TCP connection to the syslog receiver failed before everything was sent')
    }
  }
}
