import cluster from 'node:cluster'
import os from 'node:os'
import { leaveSignalsToPrimary, receiveConfig } from '../../engine/child-side.js'
import { reportArrivals, SINK_PROCESS } from './arrivals.js'
import { startSink } from './listeners.js'
import { raisePriority } from './priority.js'
import { runReader, startSharedUdpSink } from './shared-udp.js'

// The embedded sink's own process, forked by spawnSink (handle.js): listen, report where, answer
// count requests, and leave when told or when the harness is gone (the IPC channel closes when the
// primary dies, however it dies). With the node:dgram fallback the same file runs each UDP reader
// (a cluster worker of this process, see shared-udp.js).
async function runSink () {
  const config = await receiveConfig()
  // The whole sink process gets the priority when it receives UDP (see priority.js).
  if (config.udpPort != null) raisePriority()
  let sink
  try {
    const receivers = config.udpReceivers ?? 1
    sink = config.udpPort != null && receivers > 1
      ? await startSharedUdpSink(config, receivers)
      : await startSink(config)
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
    else if (msg?.type === 'release') sink.release?.()
    else if (msg?.type === 'stop') leave()
  })
  process.once('disconnect', leave)
  reportArrivals(() => sink.arrivals())
  const { host, udpPort, tcpPort, udpReceiveBufferBytes } = sink
  // The priority of what receives UDP (null over TCP alone, which runs at the default).
  const priority = udpPort == null ? null : sink.udpReceiverNice ?? os.getPriority()
  process.send({ type: 'listening', sink: { host, udpPort, tcpPort, udpReceiveBufferBytes, priority } })
}

if (cluster.isWorker && process.env.LOG_BENCH_SINK_RECEIVER) {
  leaveSignalsToPrimary()
  runReader()
} else if (process.argv[1] === SINK_PROCESS && process.env.LOG_BENCH_SINK) {
  leaveSignalsToPrimary()
  runSink()
}
