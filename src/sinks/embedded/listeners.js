import dgram from 'node:dgram'
import net from 'node:net'
import { datagramText, parseSyslog, TcpFramer } from '../syslog-parse.js'
import { Verifier } from '../verifier.js'
import { listen } from './listen.js'
import { nativeUdpReceiver, openNativeUdp } from './native-udp.js'
import { SINK_NICE } from './priority.js'
import { slowReader, slowReading } from '../slow-reader.js'

// The embedded sink's listeners: UDP and/or TCP on 127.0.0.1 that parse every message and check
// its event in a bitset (the Verifier), in the process that calls startSink: the sink's own process
// (sink-process.js), one UDP reader of a shared socket (shared-udp.js), or `log-bench sink`.

export const DEFAULT_HOST = '127.0.0.1'
// Asked for, not promised: Linux caps SO_RCVBUF at net.core.rmem_max (and reports it doubled).
export const UDP_RECEIVE_BUFFER_BYTES = 32 * 1024 * 1024
// Above any --size the harness sends (1 MiB payload plus headers); larger frames are hostile.
export const MAX_FRAME_BYTES = 2 * 1024 * 1024

// Starts listening in this process. udpPort/tcpPort: a port number, 0 for a free one, null for none.
export async function startSink ({
  host = DEFAULT_HOST,
  udpPort = null,
  tcpPort = null,
  workers,
  events,
  payload,
  workload,
  maxFrameBytes = MAX_FRAME_BYTES,
  receiveBufferBytes = UDP_RECEIVE_BUFFER_BYTES,
  sharedUdp = false,
  udpNice = SINK_NICE,
  receiverRate = null,
  receiverStallMs = null
}) {
  const verifier = new Verifier({ workers, events, payload, workload })
  const stats = { frames: 0, connections: 0, lastArrivalNs: null, stallEndNs: null }
  const accept = (text) => {
    stats.frames++
    const parsed = parseSyslog(text)
    if (parsed === null) verifier.corrupt++
    else verifier.check(parsed.message)
  }
  const onCorrupt = () => { verifier.corrupt++ }
  const closers = []
  const slowed = { open: () => 0, release () {} }
  const sink = { host, udpPort: null, tcpPort: null, udpReceiveBufferBytes: null, udpReceiverNice: null }
  let native = null
  try {
    if (udpPort != null && !sharedUdp && nativeUdpReceiver()) {
      native = await openNativeUdp({ host, udpPort, receiveBufferBytes, nice: udpNice, stats, accept })
      // A datagram arrived when the native thread received its batch, not when this loop checks it
      // (UDP alone: TCP's arrivals are this loop's).
      if (tcpPort == null) verifier.arrivalClock = () => Number(stats.lastArrivalNs)
      closers.push(native.close)
      sink.udpPort = native.port
      sink.udpReceiveBufferBytes = native.bufferBytes
      sink.udpReceiverNice = native.nice
    } else if (udpPort != null) {
      const socket = dgram.createSocket({ type: 'udp4', recvBufferSize: receiveBufferBytes })
      socket.on('message', (buffer) => {
        stats.lastArrivalNs = process.hrtime.bigint()
        accept(datagramText(buffer))
      })
      await listen(socket, () => socket.bind({ port: udpPort, address: host, exclusive: !sharedUdp }), 'listening', `${host}:${udpPort}/udp`)
      socket.on('error', () => {})
      closers.push(() => new Promise((resolve) => socket.close(resolve)))
      sink.udpPort = socket.address().port
      sink.udpReceiveBufferBytes = socket.getRecvBufferSize()
    }
    if (tcpPort != null) {
      const sockets = new Set()
      // The slowed connections still open: they hold unread bytes (or the sender is still there), so
      // the count is not final while any remains; released at once when the run fails or is stopped.
      const braked = new Map()
      slowed.open = () => braked.size
      slowed.release = () => { for (const brake of braked.values()) brake.release() }
      const server = net.createServer((socket) => {
        stats.connections++
        sockets.add(socket)
        // --receiver-rate, --receiver-stall: each connection read slowly (one per worker, as loggers connect).
        const slow = slowReading({ receiverRate, receiverStallMs, events })
        const reader = { bytes: 0, lines: 0, lastDataNs: null, stallEndNs: null }
        const brake = slow ? slowReader(socket, reader, slow) : null
        if (brake) braked.set(socket, brake)
        const onFrame = slow ? (text) => { reader.lines++; accept(text) } : accept
        const framer = new TcpFramer({ onFrame, onCorrupt, maxFrameBytes })
        socket.on('data', (chunk) => {
          stats.lastArrivalNs = process.hrtime.bigint()
          framer.push(chunk)
          if (!brake) return
          reader.bytes += chunk.length
          brake()
          if (reader.lastDataNs > stats.lastArrivalNs) stats.lastArrivalNs = reader.lastDataNs
          if (reader.stallEndNs > (stats.stallEndNs ?? 0n)) stats.stallEndNs = reader.stallEndNs
        })
        // A reset connection still delivered what came before the reset; only the rest is lost.
        socket.on('error', () => {})
        socket.once('close', () => {
          framer.end()
          sockets.delete(socket)
          braked.delete(socket)
        })
      })
      await listen(server, () => server.listen(tcpPort, host), 'listening', `${host}:${tcpPort}/tcp`)
      // After listening, errors are per-connection trouble (e.g. too many open files): keep serving.
      server.on('error', () => {})
      closers.push(() => new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(resolve)
      }))
      sink.tcpPort = server.address().port
    }
  } catch (err) {
    await Promise.all(closers.map((close) => close()))
    throw err
  }
  return {
    ...sink,
    arrivals: () => stats.frames,
    // exact (the final count): with the sampled events' arrival times (delivery latency).
    counts ({ withBits = false, exact = withBits } = {}) {
      return {
        ...verifier.counts(verifier.workers * verifier.events),
        frames: stats.frames,
        connections: stats.connections,
        slowedOpen: slowed.open(),
        lastArrivalNs: stats.lastArrivalNs === null ? null : String(stats.lastArrivalNs),
        stallEndNs: stats.stallEndNs === null ? null : String(stats.stallEndNs),
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
        udpQueuedBytesMax: native ? native.maxQueuedBytes() : 0,
        ...(withBits ? { bits: verifier.bits } : {}),
        ...(exact ? { deliveryArrivals: verifier.deliveryArrivals() } : {})
      }
    },
    // --receiver-rate, --receiver-stall: the run failed or was stopped, read the rest at full speed.
    release () { slowed.release() },
    async close () { await Promise.all(closers.map((close) => close())) }
  }
}

// What the kernel grants when the sink asks for its UDP receive buffer (recorded with the results).
export function probeUdpReceiveBuffer (requested = UDP_RECEIVE_BUFFER_BYTES) {
  const binding = nativeUdpReceiver()
  if (binding) {
    const handle = binding.open(DEFAULT_HOST, 0, requested, 0, () => {})
    const granted = binding.bufferBytes(handle)
    binding.close(handle)
    return Promise.resolve(granted)
  }
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket({ type: 'udp4', recvBufferSize: requested })
    socket.once('error', reject)
    socket.bind(0, DEFAULT_HOST, () => {
      const granted = socket.getRecvBufferSize()
      socket.close(() => resolve(granted))
    })
  })
}
