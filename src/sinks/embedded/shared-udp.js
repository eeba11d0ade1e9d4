import cluster from 'node:cluster'
import { answerConfigure, signalChild, spawnReason } from '../../engine/children.js'
import { receiveConfig } from '../../engine/child-side.js'
import { firstArrivals, mergeVerified, verifiedCounts } from '../verifier.js'
import { reportArrivals, SINK_PROCESS } from './arrivals.js'
import { startSink } from './listeners.js'
import { maxOf } from '../../stats.js'

// The node:dgram fallback's cluster readers (see native-udp.js): UDP through `receivers` cluster
// workers of the sink's process sharing one socket, each with its own bitset; TCP (if asked for) in
// the sink's process. counts({ exact }) merges the readers' bitsets: an event two readers both saw
// is a duplicate.
export async function startSharedUdpSink (config, receivers) {
  const tcp = config.tcpPort != null ? await startSink({ ...config, udpPort: null }) : null
  cluster.setupPrimary({ exec: SINK_PROCESS, serialization: 'advanced', silent: false })
  const readers = []
  for (let i = 0; i < receivers; i++) {
    const reader = cluster.fork({ LOG_BENCH_SINK_RECEIVER: '1' })
    answerConfigure(reader, { ...config, tcpPort: null, sharedUdp: true })
    readers.push(reader)
  }
  const close = async () => {
    await Promise.all(readers.filter((w) => !w.isDead()).map((w) => new Promise((resolve) => {
      w.once('exit', resolve)
      signalChild(w.process)
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
      w.on('error', (err) => { if (w.process.pid === undefined) reject(new Error(`a UDP reader of the sink could not be started: ${spawnReason(err)}`)) })
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
  const verified = exact && parts.length > 1
    ? mergeVerified(parts)
    : { received: sum(parts, 'received'), duplicates: sum(parts, 'duplicates'), corrupt: sum(parts, 'corrupt') }
  const arrivals = parts.map((part) => part.lastArrivalNs).filter((t) => t !== null).map(BigInt)
  return {
    ...verifiedCounts(sent, verified),
    frames: sum(parts, 'frames'),
    connections: sum(parts, 'connections'),
    lastArrivalNs: arrivals.length ? String(arrivals.reduce((a, b) => (b > a ? b : a))) : null,
    maxRssBytes: sum(parts, 'maxRssBytes'),
    udpQueuedBytesMax: maxOf(parts.map((part) => part.udpQueuedBytesMax ?? 0), 0),
    ...(exact ? { deliveryArrivals: firstArrivals(parts.map((part) => part.deliveryArrivals)) } : {})
  }
}

// A UDP reader (a cluster worker of the sink's process): reads the shared socket, answers count requests.
export async function runReader () {
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
