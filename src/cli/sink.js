import { UsageError } from '../errors.js'
import { payloadOfSize } from '../engine/message.js'
import { DEFAULT_HOST, nativeUdpReceiver, startSink } from '../sinks/embedded-sink.js'
import { eventCount, positiveInt } from './validate.js'
import { MAX_EVENTS } from '../sinks/verifier.js'

export const command = 'sink'
export const describe = 'Run the embedded syslog sink on its own: listen on UDP and/or TCP, verify every event, print the counts'

const REPORT_EVERY_MS = 1000

export function builder (yargs) {
  return yargs
    .option('udp', { type: 'string', describe: 'UDP port to listen on (0 for a free one)' })
    .option('tcp', { type: 'string', describe: 'TCP port to listen on (0 for a free one)' })
    .option('workers', { type: 'string', default: '8', describe: 'Worker ids to expect (w0 … w<n-1>); other ids count as corrupt' })
    .option('events', { type: 'string', default: '1000000', describe: `Events per worker to expect (sequence numbers 0 … n-1), at most ${MAX_EVENTS.toLocaleString('en-US')}` })
    .option('size', { type: 'string', describe: 'Payload size in bytes the senders use [default: the seed\'s "Hello, world!"]' })
    .example('$0 sink --udp 5514 --tcp 5514', 'then point a logger at 127.0.0.1:5514; Ctrl-C prints the final counts')
}

export function parseSinkOptions (argv) {
  if (argv.udp == null && argv.tcp == null) throw new UsageError('give --udp <port>, --tcp <port> or both')
  const port = (value, name) => (value == null ? null : String(value).trim() === '0' ? 0 : positiveInt(value, name, { max: 65535 }))
  return {
    host: DEFAULT_HOST,
    udpPort: port(argv.udp, 'udp'),
    tcpPort: port(argv.tcp, 'tcp'),
    workers: positiveInt(argv.workers, 'workers', { max: 256 }),
    events: eventCount(argv.events),
    payload: payloadOfSize(argv.size == null ? null : positiveInt(argv.size, 'size', { max: 1 << 20 }))
  }
}

export function formatCounts (counts) {
  return `frames ${counts.frames}, received ${counts.received}, corrupt ${counts.corrupt}, duplicates ${counts.duplicates}, tcp connections ${counts.connections}`
}

export async function handler (argv) {
  const options = parseSinkOptions(argv)
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
