import cluster from 'node:cluster'
import dgram from 'node:dgram'
import { fork } from 'node:child_process'
import os from 'node:os'
import net from 'node:net'
import { fileURLToPath } from 'node:url'
import { answerConfigure } from '../engine/children.js'
import { receiveConfig } from '../engine/child-side.js'
import { datagramText, parseSyslog, TcpFramer } from './syslog-parse.js'
import { RunFailure } from '../errors.js'
import { loadNative, nativeAbsence } from '../native.js'
import { dropRate, mergeVerified, Verifier } from './verifier.js'

// The embedded syslog sink: UDP and/or TCP listeners on 127.0.0.1 that parse every message and
// check its event in a bitset. It runs in its own process (spawnSink) so that receiving never
// competes with the harness's primary for an event loop; `log-bench sink` runs it in the foreground.

const SELF = fileURLToPath(import.meta.url)
export const DEFAULT_HOST = '127.0.0.1'
// Asked for, not promised: Linux caps SO_RCVBUF at net.core.rmem_max (and reports it doubled).
export const UDP_RECEIVE_BUFFER_BYTES = 32 * 1024 * 1024
// Above any --size the harness sends (1 MiB payload plus headers); larger frames are hostile.
export const MAX_FRAME_BYTES = 2 * 1024 * 1024
const START_TIMEOUT_MS = 10_000
const STOP_GRACE_MS = 2_000
const STDERR_TAIL_BYTES = 2048

// UDP is read by the native receiver (native/udp_receiver.c, built by npm install): a thread that
// drains the socket with recvmmsg(2) and hands batches to this process's event loop, so the kernel
// buffer never waits for JavaScript. Without it (not Linux, no compiler, LOG_BENCH_UDP_READER=dgram),
// node:dgram is the fallback: one Node process cannot take datagrams as fast as one raw sender sends
// them (each costs a 'message' event), so then UDP is received by several processes reading one
// shared socket (cluster shares the handle; the kernel hands each datagram to one reader), with
// their bitsets merged.
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

// Starts listening in this process. udpPort/tcpPort: a port number, 0 for a free one, null for none.
export async function startSink ({ host = DEFAULT_HOST, udpPort = null, tcpPort = null, workers, events, payload, workload, maxFrameBytes = MAX_FRAME_BYTES, receiveBufferBytes = UDP_RECEIVE_BUFFER_BYTES, sharedUdp = false, udpNice = SINK_NICE }) {
  const verifier = new Verifier({ workers, events, payload, workload })
  const stats = { frames: 0, connections: 0, lastArrivalNs: null }
  const accept = (text) => {
    stats.frames++
    const parsed = parseSyslog(text)
    if (parsed === null) verifier.corrupt++
    else verifier.check(parsed.message)
  }
  const onCorrupt = () => { verifier.corrupt++ }
  const closers = []
  const sink = { host, udpPort: null, tcpPort: null, udpReceiveBufferBytes: null, udpReceiverNice: null }
  let native = null
  try {
    if (udpPort != null && !sharedUdp && nativeUdpReceiver()) {
      native = await openNativeUdp({ host, udpPort, receiveBufferBytes, nice: udpNice, stats, accept })
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
      const server = net.createServer((socket) => {
        stats.connections++
        sockets.add(socket)
        const framer = new TcpFramer({ onFrame: accept, onCorrupt, maxFrameBytes })
        socket.on('data', (chunk) => {
          stats.lastArrivalNs = process.hrtime.bigint()
          framer.push(chunk)
        })
        // A reset connection still delivered what came before the reset; only the rest is lost.
        socket.on('error', () => {})
        socket.once('close', () => {
          framer.end()
          sockets.delete(socket)
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
    counts ({ withBits = false } = {}) {
      return {
        ...verifier.counts(verifier.workers * verifier.events),
        frames: stats.frames,
        connections: stats.connections,
        lastArrivalNs: stats.lastArrivalNs === null ? null : String(stats.lastArrivalNs),
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
        udpQueuedBytesMax: native ? native.maxQueuedBytes() : 0,
        ...(withBits ? { bits: verifier.bits } : {})
      }
    },
    async close () { await Promise.all(closers.map((close) => close())) }
  }
}

// The native receiver's batches: [u32 LE length][datagram] records; lastArrivalNs is when the
// thread received the batch's last datagram (CLOCK_MONOTONIC, the clock of process.hrtime).
async function openNativeUdp ({ host, udpPort, receiveBufferBytes, nice, stats, accept }) {
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

function listen (emitter, start, event, where) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      emitter.off(event, onListening)
      reject(listenError(err, where))
    }
    const onListening = () => {
      emitter.off('error', onError)
      resolve()
    }
    emitter.once('error', onError)
    emitter.once(event, onListening)
    start()
  })
}

export function listenError (err, where) {
  if (err.code === 'EADDRINUSE') return new Error(`port ${where} is already in use: choose another port, or 0 for a free one`)
  if (err.code === 'EACCES') return new Error(`no permission to listen on ${where} (ports below 1024 need root)`)
  return new Error(`cannot listen on ${where}: ${err.message}`)
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

// Starts the sink in a child process and resolves once it listens. The handle's counts() asks the
// child for its counters; exited resolves with a reason when the child ends for any cause.
// The sink failing or dying, whenever it happens (starting, a counts request in flight or asked
// of a dead sink), rejects with a RunFailure: the run's failure with its reason, not the harness's.
export async function spawnSink (options) {
  // The options go over IPC when the child asks (the payload can be 1 MiB: too large for the environment).
  const child = fork(SELF, [], {
    env: { ...process.env, LOG_BENCH_SINK: '1' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc']
  })
  answerConfigure(child, options)
  let stderrTail = ''
  child.stderr.on('data', (chunk) => { stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES) })
  let stopping = false
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(sinkExitReason(child.pid, code, signal, stderrTail, stopping)))
  })
  const pending = new Map()
  let nextId = 0
  let arrivedFrames = 0
  child.on('message', (msg) => {
    if (msg?.type === 'arrivals') arrivedFrames = msg.frames
    if (msg?.type === 'counts' && pending.has(msg.id)) {
      pending.get(msg.id).resolve(msg.counts)
      pending.delete(msg.id)
    }
  })
  exited.then((reason) => {
    for (const request of pending.values()) request.reject(new RunFailure(reason))
    pending.clear()
  })
  const started = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new RunFailure(`the embedded syslog sink did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS)
    const onMessage = (msg) => {
      if (msg?.type !== 'listening' && msg?.type !== 'error') return
      clearTimeout(timer)
      child.off('message', onMessage)
      if (msg.type === 'listening') resolve(msg.sink)
      else reject(new RunFailure(msg.message ?? 'the embedded syslog sink failed to start'))
    }
    child.on('message', onMessage)
    exited.then((reason) => { clearTimeout(timer); reject(new RunFailure(`${reason} while starting`)) })
  }).catch(async (err) => {
    await stopChild()
    throw err
  })

  async function stopChild () {
    stopping = true
    if (child.exitCode !== null || child.signalCode !== null) return
    // A sink that died but is not reaped yet still looks connected: the send then fails (EPIPE),
    // which without a callback would be an uncaught 'error'. Its exit is awaited either way.
    if (child.connected) child.send({ type: 'stop' }, () => {})
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
    await exited
    clearTimeout(timer)
  }

  return {
    ...started,
    pid: child.pid,
    exited,
    // Frames (messages) received so far as last reported, within ARRIVALS_EVERY_MS.
    arrivals: () => arrivedFrames,
    counts ({ exact = false } = {}) {
      if (!child.connected) return exited.then((reason) => { throw new RunFailure(reason) })
      return new Promise((resolve, reject) => {
        const id = nextId++
        pending.set(id, { resolve, reject })
        // The sink can die between the check above and this send: report why it died, not EPIPE.
        child.send({ type: 'counts', id, exact }, (err) => {
          if (!err) return
          pending.delete(id)
          exited.then((reason) => reject(new RunFailure(reason)))
        })
      })
    },
    stop: stopChild
  }
}

// Frames received so far, sent to the parent when they change, for live progress: one small
// message every ARRIVALS_EVERY_MS instead of a counts request, which walks the bitsets.
const ARRIVALS_EVERY_MS = 250
function reportArrivals (arrivals) {
  let last = -1
  setInterval(() => {
    const frames = arrivals()
    if (frames === last || !process.connected) return
    last = frames
    process.send({ type: 'arrivals', frames })
  }, ARRIVALS_EVERY_MS).unref()
}

function sinkExitReason (pid, code, signal, stderrTail, stopping) {
  if (stopping && code === 0) return 'the embedded syslog sink was stopped'
  const lastLine = stderrTail.trim().split('\n').filter(Boolean).pop()
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`
  return `the embedded syslog sink (pid ${pid}) ${how}${lastLine ? `: ${lastLine}` : ''}`
}

// Child side: listen, report where, answer count requests, and leave when told or when the
// harness is gone (the IPC channel closes when the primary dies, however it dies).
async function runChild () {
  const config = await receiveConfig()
  // The whole sink process gets the priority when it receives UDP (see raisePriority).
  if (config.udpPort != null) raisePriority()
  let sink
  try {
    const receivers = config.udpReceivers ?? 1
    sink = config.udpPort != null && receivers > 1 ? await startSharedUdpSink(config, receivers) : await startSink(config)
  } catch (err) {
    process.send({ type: 'error', message: err.message }, () => process.exit(1))
    return
  }
  const leave = async () => {
    await sink.close()
    process.exit(0)
  }
  process.on('message', async (msg) => {
    if (msg?.type === 'counts') process.send({ type: 'counts', id: msg.id, counts: await sink.counts({ exact: msg.exact }) })
    else if (msg?.type === 'stop') leave()
  })
  process.once('disconnect', leave)
  reportArrivals(() => sink.arrivals())
  const { host, udpPort, tcpPort, udpReceiveBufferBytes } = sink
  // The priority of what receives UDP (null over TCP alone, which runs at the default).
  const priority = udpPort == null ? null : sink.udpReceiverNice ?? os.getPriority()
  process.send({ type: 'listening', sink: { host, udpPort, tcpPort, udpReceiveBufferBytes, priority } })
}

// The instrument before what it measures: with many senders on few cores, a UDP receiver on an
// equal share of CPU falls behind and the kernel drops datagrams that were sent fine. So a sink that
// receives UDP asks for a higher scheduling priority, nice SINK_NICE, for all of its threads (the
// native receiver's thread sets it on itself too; node:dgram reader processes inherit it). Raising
// only the receiving thread was tried: it loses nothing either, but checking then lags behind in
// memory (100 MB queued for 8 × 100,000 bunyan events, so growing with the events), for no
// measurable gain to the senders. Only root may; otherwise it stays 0 and the run records that
// (sinkNice). TCP needs none: flow control slows a sender, it never loses.
export const SINK_NICE = -10
function raisePriority () {
  try {
    os.setPriority(SINK_NICE)
  } catch {}
}

// UDP through `receivers` cluster workers sharing one socket; TCP (if asked for) in this process.
// counts({ exact }) merges the workers' bitsets: an event two readers both saw is a duplicate.
async function startSharedUdpSink (config, receivers) {
  const tcp = config.tcpPort != null ? await startSink({ ...config, udpPort: null }) : null
  cluster.setupPrimary({ exec: SELF, serialization: 'advanced', silent: false })
  const readers = []
  for (let i = 0; i < receivers; i++) {
    const reader = cluster.fork({ LOG_BENCH_SINK_RECEIVER: '1' })
    answerConfigure(reader, { ...config, tcpPort: null, sharedUdp: true })
    readers.push(reader)
  }
  const close = async () => {
    await Promise.all(readers.filter((w) => !w.isDead()).map((w) => new Promise((resolve) => {
      w.once('exit', resolve)
      w.process.kill('SIGKILL')
    })))
    if (tcp) await tcp.close()
  }
  let started
  try {
    started = await Promise.all(readers.map((w) => new Promise((resolve, reject) => {
      w.on('message', (msg) => {
        if (msg?.type === 'listening') resolve(msg.sink)
        else if (msg?.type === 'error') reject(new Error(msg.message ?? 'a UDP reader failed to start'))
      })
      w.once('exit', () => reject(new Error('a UDP reader of the sink exited while starting')))
    })))
  } catch (err) {
    await close()
    throw err
  }
  // A reader that dies takes its counts with it: the sink as a whole has failed.
  for (const w of readers) w.once('exit', () => process.exit(1))
  const readerArrivals = readers.map(() => 0)
  readers.forEach((w, i) => w.on('message', (msg) => { if (msg?.type === 'arrivals') readerArrivals[i] = msg.frames }))
  let nextId = 0
  const ask = (w, withBits) => new Promise((resolve) => {
    const id = nextId++
    const onMessage = (msg) => {
      if (msg?.type !== 'counts' || msg.id !== id) return
      w.off('message', onMessage)
      resolve(msg.counts)
    }
    w.on('message', onMessage)
    w.send({ type: 'counts', id, withBits })
  })
  return {
    host: started[0].host,
    udpPort: started[0].udpPort,
    tcpPort: tcp?.tcpPort ?? null,
    udpReceiveBufferBytes: started[0].udpReceiveBufferBytes,
    arrivals: () => readerArrivals.reduce((a, b) => a + b, 0) + (tcp ? tcp.arrivals() : 0),
    async counts ({ exact = false } = {}) {
      const parts = await Promise.all(readers.map((w) => ask(w, exact)))
      if (tcp) parts.push(tcp.counts({ withBits: exact }))
      const merged = mergeCounts(parts, exact)
      // The readers' peaks plus this coordinating process's own, unless it was counted as the TCP part.
      if (!tcp) merged.maxRssBytes += process.resourceUsage().maxRSS * 1024
      return merged
    },
    close
  }
}

const sum = (parts, key) => parts.reduce((total, part) => total + part[key], 0)

export function mergeCounts (parts, exact) {
  const sent = parts[0].sent
  const { received, duplicates, corrupt } = exact && parts.length > 1
    ? mergeVerified(parts)
    : { received: sum(parts, 'received'), duplicates: sum(parts, 'duplicates'), corrupt: sum(parts, 'corrupt') }
  const arrivals = parts.map((part) => part.lastArrivalNs).filter((t) => t !== null).map(BigInt)
  return {
    sent,
    received,
    corrupt,
    duplicates,
    dropRate: dropRate(sent, received),
    frames: sum(parts, 'frames'),
    connections: sum(parts, 'connections'),
    lastArrivalNs: arrivals.length ? String(arrivals.reduce((a, b) => (b > a ? b : a))) : null,
    maxRssBytes: sum(parts, 'maxRssBytes'),
    udpQueuedBytesMax: Math.max(0, ...parts.map((part) => part.udpQueuedBytesMax ?? 0))
  }
}


// A UDP reader (cluster worker of the sink): reads the shared socket, answers count requests.
async function runReader () {
  let sink
  try {
    sink = await startSink(await receiveConfig())
  } catch (err) {
    process.send({ type: 'error', message: err.message }, () => process.exit(1))
    return
  }
  process.on('message', (msg) => {
    if (msg?.type === 'counts') process.send({ type: 'counts', id: msg.id, counts: sink.counts({ withBits: msg.withBits }) })
  })
  process.once('disconnect', () => process.exit(0))
  reportArrivals(() => sink.arrivals())
  const { host, udpPort, udpReceiveBufferBytes } = sink
  process.send({ type: 'listening', sink: { host, udpPort, udpReceiveBufferBytes } })
}

if (cluster.isWorker && process.env.LOG_BENCH_SINK_RECEIVER) runReader()
else if (process.argv[1] === SELF && process.env.LOG_BENCH_SINK) runChild()
