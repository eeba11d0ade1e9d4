import { once } from 'node:events'
import pino from 'pino'

// pino.transport to stdout (pino/file's target, counting sonic-boom's EAGAIN retries) paced at a
// fixed rate, as log-bench's --rate does: each turn of the event loop logs the events due by then.
// Why pino:transport's paced console runs fall into two groups of done times (issue 56): when the
// reader of the stdout pipe falls behind for a moment, the worker's sonic-boom finds the 64 KiB pipe
// full (EAGAIN) and waits 100 ms before it writes again, each time; done = the last call + the
// worker's backlog. One JSON line on stderr from the worker (eagain: the retries), one from here.
//   node benchmarks/plain/pino-transport-paced.js <events> <rate> | cat > /dev/null
// A reader that takes a break after each read (a reader that is sometimes late, as on a busy
// machine), to see the waits without depending on the machine's load:
//   ... | node benchmarks/plain/pino-transport-paced.js read <ms>
if (process.argv[2] === 'read') {
  const pauseMs = Number(process.argv[3] ?? 0)
  process.stdin.on('data', () => {
    process.stdin.pause()
    setTimeout(() => process.stdin.resume(), pauseMs)
  })
  await once(process.stdin, 'end')
  process.exit(0)
}
const events = Number(process.argv[2] ?? 100000)
const rate = Number(process.argv[3] ?? 100000)
if (!Number.isSafeInteger(events) || events < 1 || !(rate > 0)) {
  process.stderr.write('usage: node benchmarks/plain/pino-transport-paced.js <events> <rate> | cat > /dev/null\n')
  process.exit(2)
}
const stream = pino.transport({ target: new URL('./pino-transport-eagain-target.js', import.meta.url).href, options: { destination: 1 } })
await once(stream, 'ready')
const logger = pino(stream)
const start = performance.now()
let seq = 0
while (seq < events) {
  const due = Math.min(events, Math.floor((performance.now() - start) * rate / 1000) + 1)
  for (; seq < due; seq++) logger.info('w0 ' + seq + ': Hello, world!')
  await new Promise((resolve) => setImmediate(resolve))
}
const loggingMs = performance.now() - start
const keepAlive = setInterval(() => {}, 1000)
const closed = once(stream, 'close')
stream.end()
await closed
clearInterval(keepAlive)
const doneMs = performance.now() - start
process.stderr.write(JSON.stringify({ events, rate, firstCallAt: Math.round(performance.timeOrigin + start), loggingMs: Math.round(loggingMs), doneMs: Math.round(doneMs) }) + '\n')
