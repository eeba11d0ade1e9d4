import fs from 'node:fs'
import path from 'node:path'
import { RunFailure } from '../errors.js'
import { defaultUdpReceivers, spawnSink, UDP_RECEIVE_BUFFER_BYTES } from './embedded-sink.js'
import { parseSyslog } from './syslog-parse.js'
import { freePort, freshImpstats, LOCAL_SOCKET, readNewLines, requireRsyslogd, rsyslogConfig, startRsyslog } from './rsyslog.js'
import { dropCounter, udpReceiveBuffer, udpSocketDrops } from './udp-drops.js'
import { dropRate, Verifier } from './verifier.js'
import { transportIs } from '../engine/transports.js'

// Receivers for the udp and tcp transports. Where the events go is chosen by receiverOptions:
//   syslog: 'embedded' (default) — our own sink process, counting every event;
//   syslog: 'rsyslog'            — a real rsyslogd started for the run, verified from its output file;
//   syslogHost/syslogPort        — a server the user runs: nothing can be counted there.

// How long nothing new may arrive, after every adapter has closed, before the count is final.
// UDP has no end-of-stream and TCP senders may hold data in their kernel buffers a little longer.
export const QUIET_MS = { embedded: 500, rsyslog: 1500 }
const POLL_MS = 20

export function sinkName (transport, { syslog = 'embedded', syslogHost = null } = {}) {
  if (syslogHost != null) return `external-${transport}`
  return `${syslog}-${transport}`
}

export async function createSyslogReceiver (protocol, options) {
  // A library that writes through syslog(3) (bunyan:sys) sends to the local socket, whatever --syslog says.
  if (options.localSocket) return rsyslogReceiver('local', options)
  if (options.syslogHost != null) return externalReceiver(protocol, options)
  if (options.syslog === 'rsyslog') return rsyslogReceiver(protocol, options)
  return embeddedReceiver(protocol, options)
}

function targetOf (protocol, host, port) {
  return () => ({ host, port, protocol })
}

// --receiver-rate and --receiver-stall slow the sink's TCP reading (src/sinks/slow-reader.js): the
// quiet period that ends settle() then outlasts the stall, in which nothing arrives by design.
async function embeddedReceiver (
  protocol,
  { workers, events, payload, workload, quietMs = QUIET_MS.embedded, receiverRate = null, receiverStallMs = null }
) {
  const slow = transportIs(protocol, 'slowable') && (receiverRate || receiverStallMs) ? { receiverRate, receiverStallMs } : {}
  if (slow.receiverStallMs) quietMs += slow.receiverStallMs
  const sink = await spawnSink({
    ...slow,
    udpPort: protocol === 'udp' ? 0 : null,
    tcpPort: protocol === 'tcp' ? 0 : null,
    workers,
    events,
    payload,
    workload,
    receiveBufferBytes: UDP_RECEIVE_BUFFER_BYTES,
    udpReceivers: defaultUdpReceivers()
  })
  let died = null
  sink.exited.then((reason) => { died = reason })
  const drops = dropCounter(protocol === 'udp' ? sink.udpPort : null)
  return {
    consumesStdout: false,
    doneMeans: `the last ${protocol === 'udp' ? 'datagram' : 'frame'} the embedded sink received`,
    sinkPid: sink.pid,
    target: targetOf(protocol, sink.host, protocol === 'udp' ? sink.udpPort : sink.tcpPort),
    attach () {},
    progress () { return { arrived: sink.arrivals() } },
    onFailure (callback) { sink.exited.then(callback) },
    async settle ({ sent }) {
      const ask = async (exact = false) => {
        if (died) throw new RunFailure(`${died} during the run`)
        return sink.counts({ exact }).catch((err) => { throw new RunFailure(`${err.message} during the run`) })
      }
      // A slowed connection still open holds bytes not read yet: nothing arriving then is the brake,
      // not the end (the run's time limit bounds the wait; release() then reads the rest at once).
      if (slow.receiverRate || slow.receiverStallMs) await untilDrained(ask, sent)
      await untilQuiet(ask, (c) => c.frames, (c) => c.received >= sent, quietMs)
      const counts = await ask(true)
      return {
        ...pick(counts, sent),
        receiverSocketDrops: transportIs(protocol, 'socketDrops', 'counter') ? udpSocketDrops(sink.udpPort) : null,
        receiverDrops: drops.after(),
        // What the sink's own socket got (getRecvBufferSize, or the native reader's SO_RCVBUF).
        receiveBufferBytes: protocol === 'udp' ? sink.udpReceiveBufferBytes ?? null : null,
        lastArrivalNs: counts.lastArrivalNs === null ? null : BigInt(counts.lastArrivalNs),
        sinkMaxRssBytes: counts.maxRssBytes,
        deliveryArrivals: counts.deliveryArrivals ?? null,
        sinkNice: sink.priority ?? null,
        sinkUdpQueuedBytesMax: protocol === 'udp' ? counts.udpQueuedBytesMax ?? null : null,
        afterStallMs: counts.stallEndNs != null && counts.lastArrivalNs != null
          ? Math.max(0, Number(BigInt(counts.lastArrivalNs) - BigInt(counts.stallEndNs)) / 1e6)
          : null,
        // When the (last) stall ended: what the workers logged during it (src/results/judge/overload.js).
        stallEndNs: counts.stallEndNs == null ? null : BigInt(counts.stallEndNs)
      }
    },
    release () { sink.release() },
    async stop () { await sink.stop() }
  }
}

async function untilDrained (ask, sent) {
  for (let counts = await ask(); counts.slowedOpen > 0 && counts.received < sent; counts = await ask()) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

// rsyslog's arrival time is when a line appears in its output file: the file is polled every
// POLL_MS from the start, so `done` for rsyslog is "written by rsyslog", within POLL_MS.
async function rsyslogReceiver (protocol, { workers, events, payload, workload, dir, quietMs = QUIET_MS.rsyslog }) {
  const binary = requireRsyslogd()
  const rsyslogDir = path.join(dir, 'rsyslog')
  fs.mkdirSync(rsyslogDir, { recursive: true })
  const local = protocol === 'local'
  if (local) claimLocalSocket()
  const port = local ? null : await freePort(protocol)
  const ports = { udpPort: protocol === 'udp' ? port : null, tcpPort: protocol === 'tcp' ? port : null }
  const localSocket = local ? LOCAL_SOCKET : null
  const asked = { receiveBufferBytes: UDP_RECEIVE_BUFFER_BYTES, localSocket }
  const configText = rsyslogConfig({ dir: rsyslogDir, ...asked, ...ports })
  let rsyslog
  try {
    // rsyslogd removes its socket when it ends; the supervisor removes it if rsyslogd is killed first.
    const removeOnOrphan = [dir, ...(local ? [LOCAL_SOCKET] : [])]
    rsyslog = await startRsyslog({ binary, dir: rsyslogDir, configText, ...ports, localSocket, removeOnOrphan })
  } catch (err) {
    throw new RunFailure(err.message)
  }
  let died = null
  rsyslog.exited.then((reason) => { died = reason })
  // rsyslogd's socket: its drops over the run, and the buffer the kernel gave it for the rcvbufSize
  // the configuration asks (read from outside: ss, while rsyslogd listens).
  const drops = dropCounter(ports.udpPort)
  const receiveBufferBytes = ports.udpPort == null ? null : udpReceiveBuffer(ports.udpPort)
  // Progress counts from where the start-up probes end; the verifier reads from the start and
  // tells the probes apart (rsyslog's own counters include them).
  const output = followOutput(
    rsyslog.outputFile,
    { workers, events, payload, workload, quietMs, startOffset: 0, progressOffset: fileSize(rsyslog.outputFile) }
  )
  return {
    consumesStdout: false,
    doneMeans: `the last line rsyslogd wrote to its output file${local ? ` from ${LOCAL_SOCKET}` : ''} (polled every 20 ms)`,
    target: local ? () => ({ socket: LOCAL_SOCKET }) : targetOf(protocol, '127.0.0.1', port),
    attach () {},
    onFailure (callback) { rsyslog.exited.then(callback) },
    progress: output.progress,
    async settle ({ sent }) {
      const counts = await output.settle(sent, () => { if (died) throw new RunFailure(`${died} during the run`) })
      const receiverSocketDrops = transportIs(protocol, 'socketDrops', 'counter') ? udpSocketDrops(port) : null
      return { ...counts, receiverSocketDrops, receiverDrops: drops.after(), receiveBufferBytes, rsyslogStats: withoutProbes(await freshImpstats(rsyslog.impstatsFile), output.probes()), deliveryNote: 'rsyslog\'s output file is read after the run: arrivals are not timed' }
    },
    async stop () {
      output.stop()
      await rsyslog.stop()
      // The socket was free when the run claimed it: what rsyslogd left (killed after its grace) goes.
      if (local) fs.rmSync(LOCAL_SOCKET, { force: true })
    }
  }
}

// syslog(3) writes only to /dev/log (glibc's _PATH_LOG): the harness serves it with rsyslogd where it
// is free and it may create it (root, or a writable /dev), and never replaces the system's syslog.
function claimLocalSocket () {
  let stat = null
  try { stat = fs.lstatSync(LOCAL_SOCKET) } catch {}
  if (stat !== null) throw new RunFailure(`bunyan:sys writes through syslog(3), which sends only to ${LOCAL_SOCKET}, and ${LOCAL_SOCKET} is taken (the system's syslog, or a socket left behind): log-bench serves it only where it is free; stop the system's syslog daemon for the run, or run in a container without one`)
  try {
    fs.accessSync(path.dirname(LOCAL_SOCKET), fs.constants.W_OK)
  } catch {
    throw new RunFailure(`bunyan:sys writes through syslog(3), which sends only to ${LOCAL_SOCKET}, and log-bench cannot create it here (${path.dirname(LOCAL_SOCKET)} is not writable: run as root, e.g. in a container)`)
  }
}

// Follows a syslog server's output file (rsyslog's omfile with log-bench's template: one raw
// message per line) from startOffset on. A line's arrival time is when the file was seen to grow,
// polled every POLL_MS from the start, so `done` is "written by the server", within POLL_MS.
function followOutput (
  file,
  { workers, events, payload, workload, quietMs, startOffset, progressOffset = startOffset }
) {
  const growth = { size: fileSize(file), atNs: null }
  const poller = setInterval(() => {
    const size = fileSize(file)
    if (size !== growth.size) {
      growth.size = size
      growth.atNs = process.hrtime.bigint()
    }
  }, POLL_MS)
  const verifier = new Verifier({ workers, events, payload, workload })
  let offset = startOffset
  let probes = 0
  const onProbe = () => { probes++ }
  const onLine = (line) => {
    const parsed = parseSyslog(line)
    if (parsed === null) verifier.corrupt++
    else verifier.check(parsed.message)
  }
  const lines = newlineCounter(file, progressOffset)
  return {
    probes: () => probes,
    // Lines in the output file since progressOffset, counted incrementally.
    progress: () => ({ arrived: lines() }),
    async settle (sent, checkAlive) {
      const ask = async () => {
        checkAlive()
        offset = readNewLines(file, offset, onLine, () => verifier.corrupt++, onProbe)
        return { ...verifier.counts(sent), size: offset }
      }
      const counts = await untilQuiet(ask, (c) => c.size, (c) => c.received >= sent, quietMs)
      return { ...pick(counts, sent), lastArrivalNs: growth.atNs }
    },
    stop () { clearInterval(poller) }
  }
}

// rsyslog's counters less the harness's probes, which passed through the same input and output.
function withoutProbes (stats, probes) {
  if (stats === null) return null
  return {
    ...stats,
    submitted: Math.max(0, stats.submitted - probes),
    outputWritten: stats.outputWritten === null ? null : Math.max(0, stats.outputWritten - probes)
  }
}

// A server the user runs: the harness sends and cannot see what arrived (unknown, never 0) unless
// the server writes log-bench's output file where the harness can read it (--syslog-output: an
// rsyslog using docker/rsyslog.conf, with its output directory shared through a volume). Only what
// it appends after the run starts is counted.
function externalReceiver (
  protocol,
  { syslogHost, syslogPort, syslogOutput = null, workers, events, payload, workload }
) {
  if (syslogOutput != null) {
    const output = followOutput(
      syslogOutput,
      { workers, events, payload, workload, quietMs: QUIET_MS.rsyslog, startOffset: fileSize(syslogOutput) }
    )
    return {
      consumesStdout: false,
      doneMeans: `the last line your syslog server wrote to ${syslogOutput} (polled every 20 ms)`,
      target: targetOf(protocol, syslogHost, syslogPort),
      attach () {},
      progress: output.progress,
      async settle ({ sent }) {
        return { ...await output.settle(sent, () => {}), deliveryNote: 'your syslog server\'s output file is read after the run: arrivals are not timed' }
      },
      async stop () { output.stop() }
    }
  }
  return {
    consumesStdout: false,
    doneMeans: 'every logger\'s close() resolved (your syslog server: arrivals are not seen)',
    target: targetOf(protocol, syslogHost, syslogPort),
    attach () {},
    async settle ({ sent }) {
      return { sent, received: null, corrupt: null, duplicates: null, dropRate: null, lastArrivalNs: null, deliveryNote: 'your syslog server: arrivals are not seen' }
    },
    async stop () {}
  }
}

// Polls until everything arrived, or until progress(counts) has not changed for quietMs.
export async function untilQuiet (ask, progress, complete, quietMs) {
  let counts = await ask()
  let last = progress(counts)
  let quietSince = Date.now()
  while (!complete(counts) && Date.now() - quietSince < quietMs) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    counts = await ask()
    if (progress(counts) !== last) {
      last = progress(counts)
      quietSince = Date.now()
    }
  }
  return counts
}

function pick (counts, sent) {
  const { received, corrupt, duplicates } = counts
  return { sent, received, corrupt, duplicates, dropRate: dropRate(sent, received) }
}

// Counts newlines in a growing file, reading only what was added since the last call (at most
// COUNT_CHUNK_BYTES × COUNT_CHUNKS per call, so a call stays short; the rest is counted next time).
const COUNT_CHUNK_BYTES = 1 << 20
const COUNT_CHUNKS = 16
export function newlineCounter (file, startOffset = 0) {
  const buffer = Buffer.allocUnsafe(COUNT_CHUNK_BYTES)
  let offset = startOffset
  let lines = 0
  return () => {
    let fd
    try {
      fd = fs.openSync(file, 'r')
    } catch {
      return lines
    }
    try {
      for (let chunk = 0; chunk < COUNT_CHUNKS; chunk++) {
        const read = fs.readSync(fd, buffer, 0, COUNT_CHUNK_BYTES, offset)
        if (read === 0) break
        offset += read
        for (let i = buffer.indexOf(10, 0); i !== -1 && i < read; i = buffer.indexOf(10, i + 1)) lines++
      }
    } finally {
      fs.closeSync(fd)
    }
    return lines
  }
}

function fileSize (file) {
  try { return fs.statSync(file).size } catch { return 0 }
}
