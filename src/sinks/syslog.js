import fs from 'node:fs'
import path from 'node:path'
import { RunFailure } from '../errors.js'
import { defaultUdpReceivers, spawnSink, UDP_RECEIVE_BUFFER_BYTES } from './embedded-sink.js'
import { parseSyslog } from './syslog-parse.js'
import { freePort, freshImpstats, readNewLines, requireRsyslogd, rsyslogConfig, startRsyslog } from './rsyslog.js'
import { udpSocketDrops } from './udp-drops.js'
import { dropRate, Verifier } from './verifier.js'

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
  if (options.syslogHost != null) return externalReceiver(protocol, options)
  if (options.syslog === 'rsyslog') return rsyslogReceiver(protocol, options)
  return embeddedReceiver(protocol, options)
}

function targetOf (protocol, host, port) {
  return () => ({ host, port, protocol })
}

async function embeddedReceiver (protocol, { workers, events, payload, quietMs = QUIET_MS.embedded }) {
  const sink = await spawnSink({
    udpPort: protocol === 'udp' ? 0 : null,
    tcpPort: protocol === 'tcp' ? 0 : null,
    workers,
    events,
    payload,
    receiveBufferBytes: UDP_RECEIVE_BUFFER_BYTES,
    udpReceivers: defaultUdpReceivers()
  })
  let died = null
  sink.exited.then((reason) => { died = reason })
  return {
    consumesStdout: false,
    sinkPid: sink.pid,
    target: targetOf(protocol, sink.host, protocol === 'udp' ? sink.udpPort : sink.tcpPort),
    attach () {},
    onFailure (callback) { sink.exited.then(callback) },
    async settle ({ sent }) {
      const ask = async (exact = false) => {
        if (died) throw new RunFailure(`${died} during the run`)
        return sink.counts({ exact }).catch((err) => { throw new RunFailure(`${err.message} during the run`) })
      }
      await untilQuiet(ask, (c) => c.frames, (c) => c.received >= sent, quietMs)
      const counts = await ask(true)
      return {
        ...pick(counts, sent),
        receiverSocketDrops: protocol === 'udp' ? udpSocketDrops(sink.udpPort) : null,
        lastArrivalNs: counts.lastArrivalNs === null ? null : BigInt(counts.lastArrivalNs),
        sinkMaxRssBytes: counts.maxRssBytes,
        sinkNice: sink.priority ?? null,
        sinkUdpQueuedBytesMax: protocol === 'udp' ? counts.udpQueuedBytesMax ?? null : null
      }
    },
    async stop () { await sink.stop() }
  }
}

// rsyslog's arrival time is when a line appears in its output file: the file is polled every
// POLL_MS from the start, so `done` for rsyslog is "written by rsyslog", within POLL_MS.
async function rsyslogReceiver (protocol, { workers, events, payload, dir, quietMs = QUIET_MS.rsyslog }) {
  const binary = requireRsyslogd()
  const rsyslogDir = path.join(dir, 'rsyslog')
  fs.mkdirSync(rsyslogDir, { recursive: true })
  const port = await freePort(protocol)
  const ports = { udpPort: protocol === 'udp' ? port : null, tcpPort: protocol === 'tcp' ? port : null }
  const configText = rsyslogConfig({ dir: rsyslogDir, receiveBufferBytes: UDP_RECEIVE_BUFFER_BYTES, ...ports })
  let rsyslog
  try {
    rsyslog = await startRsyslog({ binary, dir: rsyslogDir, configText, ...ports })
  } catch (err) {
    throw new RunFailure(err.message)
  }
  let died = null
  rsyslog.exited.then((reason) => { died = reason })
  const growth = { size: fileSize(rsyslog.outputFile), atNs: null }
  const poller = setInterval(() => {
    const size = fileSize(rsyslog.outputFile)
    if (size !== growth.size) {
      growth.size = size
      growth.atNs = process.hrtime.bigint()
    }
  }, POLL_MS)
  const verifier = new Verifier({ workers, events, payload })
  let offset = 0
  let probes = 0
  const onProbe = () => { probes++ }
  const onLine = (line) => {
    const parsed = parseSyslog(line)
    if (parsed === null) verifier.corrupt++
    else verifier.check(parsed.message)
  }
  return {
    consumesStdout: false,
    target: targetOf(protocol, '127.0.0.1', port),
    attach () {},
    onFailure (callback) { rsyslog.exited.then(callback) },
    async settle ({ sent }) {
      const ask = async () => {
        if (died) throw new RunFailure(`${died} during the run`)
        offset = readNewLines(rsyslog.outputFile, offset, onLine, () => verifier.corrupt++, onProbe)
        return { ...verifier.counts(sent), size: offset }
      }
      const counts = await untilQuiet(ask, (c) => c.size, (c) => c.received >= sent, quietMs)
      const receiverSocketDrops = protocol === 'udp' ? udpSocketDrops(port) : null
      return { ...pick(counts, sent), lastArrivalNs: growth.atNs, receiverSocketDrops, rsyslogStats: withoutProbes(await freshImpstats(rsyslog.impstatsFile), probes) }
    },
    async stop () {
      clearInterval(poller)
      await rsyslog.stop()
    }
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

// A server the user runs: the harness sends and cannot see what arrived. Unknown, never 0.
function externalReceiver (protocol, { syslogHost, syslogPort }) {
  return {
    consumesStdout: false,
    target: targetOf(protocol, syslogHost, syslogPort),
    attach () {},
    async settle ({ sent }) {
      return { sent, received: null, corrupt: null, duplicates: null, dropRate: null, lastArrivalNs: null }
    },
    async stop () {}
  }
}

// Polls until everything arrived, or until progress(counts) has not changed for quietMs.
async function untilQuiet (ask, progress, complete, quietMs) {
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

function fileSize (file) {
  try { return fs.statSync(file).size } catch { return 0 }
}
