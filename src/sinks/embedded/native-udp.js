import os from 'node:os'
import { loadNative, nativeAbsence } from '../../native.js'
import { datagramText } from '../syslog-parse.js'
import { listenError } from './listen.js'

// UDP is read by the native receiver (native/udp_receiver.c, built by npm install): a thread that
// drains the socket with recvmmsg(2) and hands batches to this process's event loop, so the kernel
// buffer never waits for JavaScript. Without it (not Linux, no compiler, LOG_BENCH_UDP_READER=dgram),
// node:dgram is the fallback: one Node process cannot take datagrams as fast as one raw sender sends
// them (each costs a 'message' event), so then UDP is received by several processes reading one
// shared socket (cluster shares the handle; the kernel hands each datagram to one reader), with
// their bitsets merged (shared-udp.js).
const udpReaderSwitchedOff = () => process.env.LOG_BENCH_UDP_READER === 'dgram'

export function nativeUdpReceiver () {
  return loadNative('udp_receiver', { disabled: udpReaderSwitchedOff() })
}

// Why UDP is read by node:dgram, or null when the native receiver reads it.
export function udpReaderAbsence () {
  return nativeAbsence('udp_receiver', { disabledBy: udpReaderSwitchedOff() ? 'LOG_BENCH_UDP_READER=dgram' : null })
}

export function defaultUdpReceivers () {
  if (nativeUdpReceiver()) return 1
  return Math.max(1, Math.min(4, os.availableParallelism()))
}

// How the embedded sink reads UDP, as the results and `log-bench list` record it.
export function udpReaderName () {
  return nativeUdpReceiver() ? 'native (recvmmsg thread)' : `node:dgram (${defaultUdpReceivers()} processes)`
}

// The native receiver's batches: [u32 LE length][datagram] records; lastArrivalNs is when the
// thread received the batch's last datagram (CLOCK_MONOTONIC, the clock of process.hrtime).
export async function openNativeUdp ({ host, udpPort, receiveBufferBytes, nice, stats, accept }) {
  const binding = nativeUdpReceiver()
  let handle
  try {
    handle = binding.open(host, udpPort, receiveBufferBytes, nice, (batch, lastArrivalNs) => {
      stats.lastArrivalNs = lastArrivalNs
      for (let offset = 0; offset < batch.length;) {
        const length = batch.readUInt32LE(offset)
        const start = offset + 4
        offset = start + length
        accept(datagramText(batch, start, offset))
      }
    })
  } catch (err) {
    throw listenError(err, `${host}:${udpPort}/udp`)
  }
  // After close() the native side frees the receiver: the handle must not be used again.
  let closed = false
  let lastMaxQueuedBytes = 0
  return {
    port: binding.port(handle),
    bufferBytes: binding.bufferBytes(handle),
    nice: binding.nice(handle),
    maxQueuedBytes: () => (closed ? lastMaxQueuedBytes : binding.stats(handle)[2]),
    async close () {
      if (closed) return
      lastMaxQueuedBytes = binding.stats(handle)[2]
      closed = true
      binding.close(handle)
    }
  }
}
