import { UsageError } from '../errors.js'
import { payloadOfSize } from '../engine/message.js'
import { SINK_OPTIONS } from '../api/option-tables.js'
import { addOptions, parseOptions } from '../api/options.js'

export const command = 'sink'
export const describe = 'Run the embedded syslog sink on its own: listen on UDP and/or TCP, verify every event, print the counts'

const REPORT_EVERY_MS = 1000

export function builder (yargs) {
  return addOptions(yargs, SINK_OPTIONS)
    .example('$0 sink --udp 5514 --tcp 5514', 'then point a logger at 127.0.0.1:5514; Ctrl-C prints the final counts')
}

export function parseSinkOptions (argv) {
  if (argv.udp == null && argv.tcp == null) throw new UsageError('give --udp <port>, --tcp <port> or both')
  const given = parseOptions(SINK_OPTIONS, argv)
  return {
    udpPort: given.udp,
    tcpPort: given.tcp,
    workers: given.workers,
    events: given.events,
    payload: payloadOfSize(given.size)
  }
}

export function formatCounts (counts) {
  return `frames ${counts.frames}, received ${counts.received}, corrupt ${counts.corrupt}, duplicates ${counts.duplicates}, tcp connections ${counts.connections}`
}

// The sink is imported when it runs, so that --help and --version start at once.
export async function handler (argv) {
  const options = parseSinkOptions(argv)
  const { nativeUdpReceiver, startSink } = await import('../sinks/embedded-sink.js')
  let sink
  try {
    sink = await startSink(options)
  } catch (err) {
    throw new UsageError(err.message)
  }
  const where = [sink.udpPort != null && `udp ${sink.host}:${sink.udpPort} (receive buffer ${sink.udpReceiveBufferBytes} bytes, read by ${nativeUdpReceiver() ? 'the native recvmmsg thread' : 'node:dgram'})`, sink.tcpPort != null && `tcp ${sink.host}:${sink.tcpPort}`].filter(Boolean)
  process.stderr.write(`log-bench sink listening on ${where.join(', ')}; Ctrl-C to stop\n`)
  let lastFrames = 0
  const timer = setInterval(() => {
    const counts = sink.counts()
    if (counts.frames === lastFrames) return
    lastFrames = counts.frames
    process.stderr.write(`${formatCounts(counts)}\n`)
  }, REPORT_EVERY_MS)
  await new Promise((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  clearInterval(timer)
  const counts = sink.counts()
  await sink.close()
  process.stdout.write(`${formatCounts(counts)}\n`)
}
