import dgram from 'node:dgram'
import { fork } from 'node:child_process'
import net from 'node:net'
import { fileURLToPath } from 'node:url'
import { datagramText, parseSyslog, TcpFramer } from './syslog-parse.js'
import { Verifier } from './verifier.js'

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

// Starts listening in this process. udpPort/tcpPort: a port number, 0 for a free one, null for none.
export async function startSink ({ host = DEFAULT_HOST, udpPort = null, tcpPort = null, workers, events, payload, maxFrameBytes = MAX_FRAME_BYTES, receiveBufferBytes = UDP_RECEIVE_BUFFER_BYTES }) {
  const verifier = new Verifier({ workers, events, payload })
  const stats = { frames: 0, connections: 0, lastArrivalNs: null }
  const accept = (text) => {
    stats.frames++
    const parsed = parseSyslog(text)
    if (parsed === null) verifier.corrupt++
    else verifier.check(parsed.message)
  }
  const onCorrupt = () => { verifier.corrupt++ }
  const closers = []
  const sink = { host, udpPort: null, tcpPort: null, udpReceiveBufferBytes: null }
  try {
    if (udpPort != null) {
      const socket = dgram.createSocket({ type: 'udp4', recvBufferSize: receiveBufferBytes })
      socket.on('message', (buffer) => {
        stats.lastArrivalNs = process.hrtime.bigint()
        accept(datagramText(buffer))
      })
      await listen(socket, () => socket.bind(udpPort, host), 'listening', `${host}:${udpPort}/udp`)
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
    counts () {
      return {
        ...verifier.counts(verifier.workers * verifier.events),
        frames: stats.frames,
        connections: stats.connections,
        lastArrivalNs: stats.lastArrivalNs === null ? null : String(stats.lastArrivalNs)
      }
    },
    async close () { await Promise.all(closers.map((close) => close())) }
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
export async function spawnSink (options) {
  const child = fork(SELF, [], {
    env: { ...process.env, LOG_BENCH_SINK: JSON.stringify(options) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc']
  })
  let stderrTail = ''
  child.stderr.on('data', (chunk) => { stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES) })
  let stopping = false
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(sinkExitReason(child.pid, code, signal, stderrTail, stopping)))
  })
  const pending = new Map()
  let nextId = 0
  child.on('message', (msg) => {
    if (msg?.type === 'counts' && pending.has(msg.id)) {
      pending.get(msg.id).resolve(msg.counts)
      pending.delete(msg.id)
    }
  })
  exited.then((reason) => {
    for (const request of pending.values()) request.reject(new Error(reason))
    pending.clear()
  })
  const started = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the embedded syslog sink did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS)
    child.once('message', (msg) => {
      clearTimeout(timer)
      if (msg?.type === 'listening') resolve(msg.sink)
      else reject(new Error(msg?.message ?? 'the embedded syslog sink failed to start'))
    })
    exited.then((reason) => { clearTimeout(timer); reject(new Error(reason)) })
  }).catch(async (err) => {
    await stopChild()
    throw err
  })

  async function stopChild () {
    stopping = true
    if (child.exitCode !== null || child.signalCode !== null) return
    if (child.connected) child.send({ type: 'stop' })
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
    await exited
    clearTimeout(timer)
  }

  return {
    ...started,
    pid: child.pid,
    exited,
    counts () {
      if (!child.connected) return exited.then((reason) => { throw new Error(reason) })
      return new Promise((resolve, reject) => {
        const id = nextId++
        pending.set(id, { resolve, reject })
        child.send({ type: 'counts', id })
      })
    },
    stop: stopChild
  }
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
  let sink
  try {
    sink = await startSink(JSON.parse(process.env.LOG_BENCH_SINK))
  } catch (err) {
    process.send({ type: 'error', message: err.message }, () => process.exit(1))
    return
  }
  const leave = async () => {
    await sink.close()
    process.exit(0)
  }
  process.on('message', (msg) => {
    if (msg?.type === 'counts') process.send({ type: 'counts', id: msg.id, counts: sink.counts() })
    else if (msg?.type === 'stop') leave()
  })
  process.once('disconnect', leave)
  const { host, udpPort, tcpPort, udpReceiveBufferBytes } = sink
  process.send({ type: 'listening', sink: { host, udpPort, tcpPort, udpReceiveBufferBytes } })
}

if (process.argv[1] === SELF && process.env.LOG_BENCH_SINK) runChild()
