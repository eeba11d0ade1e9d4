// The plain program log-bench's `grows` is checked against (npm run bench:latency -- overload): pino
// on its defaults logs to stdout in a tight loop, and reports on stderr, as one JSON line, how far
// its heap's and its RSS's peaks rose above their values at the first call, as log-bench's worker
// measures them (the heap every 100 ms while the loop is free and at the end of the loop; the RSS
// from the kernel's high-water mark). Run with a reader that does not read for a while:
//   node benchmarks/plain/pino-memory.js <events> <payload bytes> | (sleep 2; cat > /dev/null)
import pino from 'pino'

const [events, size] = process.argv.slice(2).map(Number)
if (!Number.isSafeInteger(events) || events < 1 || !Number.isSafeInteger(size) || size < 1) {
  process.stderr.write('usage: node pino-memory.js <events> <payload bytes>\n')
  process.exit(2)
}
const payload = 'x'.repeat(size)
const logger = pino()
const stream = logger[pino.symbols.streamSym]
const { heapUsed, rss } = process.memoryUsage()
const atStart = { heap: heapUsed, rss, maxRss: process.resourceUsage().maxRSS * 1024 }
let heapPeak = atStart.heap
const sample = () => { heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed) }
const timer = setInterval(sample, 100)
for (let seq = 0; seq < events; seq++) logger.info('w0 ' + seq + ': ' + payload)
sample()
await new Promise((resolve, reject) => {
  stream.once('close', resolve)
  stream.once('error', reject)
  stream.end()
})
clearInterval(timer)
sample()
const maxRss = process.resourceUsage().maxRSS * 1024
process.stderr.write(JSON.stringify({
  heapRiseBytes: heapPeak - atStart.heap,
  rssRiseBytes: maxRss > atStart.maxRss ? maxRss - atStart.rss : 0
}) + '\n')
