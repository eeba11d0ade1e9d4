// The load generator, in a process of its own so that it never competes with the server's event
// loop: an autocannon warm-up (discarded), then the measured run, whose result goes back over IPC.
import autocannon from 'autocannon'
import { fail, failOnUncaught, leaveSignalsToPrimary, receiveConfig } from '../engine/child-side.js'

leaveSignalsToPrimary()
process.on('disconnect', () => process.exit(0))
failOnUncaught()
const config = await receiveConfig()

const request = {
  url: config.url,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: config.body,
  connections: config.connections,
  pipelining: config.pipelining,
  // Open loop (--rate): autocannon sends this many requests a second in all, whatever the answers' pace.
  ...(config.rate ? { overallRate: config.rate } : {})
}

try {
  // Counted runs warm up by a number of requests (warmupAmount), like their measured part; the others
  // for --warmup seconds. 0 of either: no warm-up.
  const warmup = config.warmupAmount != null ? { amount: config.warmupAmount } : { duration: config.warmupSeconds }
  if (warmup.amount > 0 || warmup.duration > 0) await autocannon({ ...request, ...warmup })
  process.send({ type: 'measuring' })
  // A counted run (--measure instructions) asks for a number of requests: a simulated server takes
  // longer than --duration to serve them, and the count's difference must be of known requests.
  const result = await autocannon({ ...request, ...(config.amount ? { amount: config.amount } : { duration: config.durationSeconds }) })
  process.send({ type: 'result', result }, () => process.exit(0))
} catch (err) {
  fail('load', err)
}
