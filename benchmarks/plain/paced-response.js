import bunyan from 'bunyan'
import pino from 'pino'

// A library's calls to the console paced at a fixed rate, each timed from its intended time (the
// first call's time + seq / rate) to its return, as log-bench's responseLatencyNs is; the pacer is
// log-bench's (the event loop turned with setImmediate between batches, every event due logged).
// It prints where the calls slower than 1 ms were: how many, and when (ms after the first call),
// to tell a cost spread over the run from one paid once at its start.
//   node benchmarks/plain/paced-response.js <bunyan|pino|noop> <rate> <events> | cat > /dev/null
const LIBS = {
  bunyan: () => bunyan.createLogger({ name: 'log-bench' }),
  pino: () => pino(),
  noop: () => ({ info () {} })
}
const [lib, rateText, eventsText] = process.argv.slice(2)
const rate = Number(rateText)
const events = Number(eventsText)
if (!LIBS[lib] || !(rate > 0) || !Number.isSafeInteger(events) || events < 1) {
  process.stderr.write('usage: node benchmarks/plain/paced-response.js <bunyan|pino|noop> <rate> <events> | cat > /dev/null\n')
  process.exit(2)
}
const logger = LIBS[lib]()
// log-bench's workers start logging after a start barrier, well after their start: so does this.
await new Promise((resolve) => setTimeout(resolve, 500))
const response = new Float64Array(events)
const start = performance.now()
let seq = 0
while (seq < events) {
  const due = Math.min(events, Math.floor((performance.now() - start) * rate / 1000) + 1)
  for (; seq < due; seq++) {
    logger.info('w0 ' + seq + ': Hello, world!')
    response[seq] = performance.now() - (start + seq * 1000 / rate)
  }
  await new Promise((resolve) => setImmediate(resolve))
}
const sorted = Float64Array.from(response).sort()
const slow = []
for (let i = 0; i < events; i++) if (response[i] > 1) slow.push(i)
const at = (i) => Math.round(i * 1000 / rate)
process.stderr.write(JSON.stringify({
  lib,
  rate,
  events,
  responseP99Ms: +sorted[Math.ceil(events * 0.99) - 1].toFixed(3),
  over1Ms: slow.length,
  over1MsInFirst100Ms: slow.filter((i) => at(i) < 100).length,
  over1MsAtMs: [...new Set(slow.map(at))].slice(0, 40)
}) + '\n')
