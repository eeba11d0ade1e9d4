import dgram from 'node:dgram'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { once } from 'node:events'
import { Writable } from 'node:stream'
import winston from 'winston'
import { Syslog } from 'winston-syslog'

// Plain scripts, outside the harness, for the causes the pages' Anomalies give
// (src/results/judge/known-causes.json, each entry's `reproduce`), each with the library alone:
//
// shift (winston-syslog, lib/winston-syslog.js): over UDP, every message logged before the socket's
//   'listening' event (a tight loop logs all of them before the event loop turns) waits in
//   `this.queue`, which the 'listening' handler empties with `this.queue.shift()`, one message at a
//   time. Past a few thousand elements V8 cannot trim an array from its front in place, so each
//   shift copies the rest of the queue: the drain is quadratic. This times the same loop over
//   queues of syslog lines of growing length.
// tcp (winston-syslog): over TCP, log() writes with `this.socket.write(msg, 'utf8', onError)`, and
//   onError lowers `this.inFlight`, which only the datagram paths raise: inFlight is never above 0,
//   so close() finds nothing in flight and destroys the socket at once, dropping what is still in
//   its write buffer. (A tight loop logs everything before the socket connects; 'connect' then
//   writes the whole queue joined into one string, which the kernel takes a buffer at a time.)
//   This logs N events to a TCP server on 127.0.0.1 that counts the lines it receives, closes the
//   logger as the log-bench adapter does (listen for 'closed', end, 'finish', close(); Syslog#close()
//   already ran on the transport's unpipe inside end) and prints what was
//   still buffered when the socket was destroyed, and what arrived.
// closed (winston-syslog's close(), winston-transport's 'unpipe' handler in modern.js): paced
//   logging sends every event long before the end, so when logger.end() ends the transport, Node's
//   pipe unpipes it on its 'finish' and winston-transport calls Syslog#close() right there, which,
//   with nothing queued and nothing counted in flight, destroys the socket and emits 'closed' at once,
//   before the logger's own 'finish': a listener added after 'finish' (log-bench's adapter before
//   its fix) never hears it. This logs N events at 10,000/s to a TCP server on 127.0.0.1, waits until
//   all have arrived, ends the logger and prints when close() ran and 'closed' came against 'finish'.
//   Then over UDP: the messages logged before the socket's 'listening' are sent by its handler with
//   `this.chunkMessage(msg)` and no callback, so `inFlight`, raised for each, is never lowered, and
//   close() waits its 6 retries (200 ms + 400 ms + ... + 1,200 ms) however long ago all arrived.
// queue (winston's File transport): logs N events in a tight loop and prints, before the loop
//   yields, how many wait in the logger's stream and how many bytes the file holds; then again
//   after 'finish'.
// disabled (winston, lib/winston/create-logger.js and logger.js): `logger.debug(msg)` on a logger at
//   level info builds the info object and writes it into the logger's stream all the same; the
//   stream runs the logger's format on it (logger.js `_transform`) and the level is first checked in
//   each transport's `_write` (winston-transport), which drops it. This counts, for N disabled
//   calls, how often the format ran and how often the transport logged, and times the loop until
//   'finish' against the same calls behind `logger.isDebugEnabled()`.
// writestream (the runtime's node:fs): N lines written with `fs.createWriteStream` in a tight loop,
//   then end(): the loop's and the end's times. Run it under Node and under Bun inside
//   `strace -f -c -e trace=write,writev` to count the write syscalls each makes.
//
// node benchmarks/anomalies.js [shift|tcp|closed|queue|disabled|writestream|all] [--quick]
const args = process.argv.slice(2)
const quick = args.includes('--quick')
const which = args.find((a) => !a.startsWith('--')) ?? 'all'
if (!['shift', 'tcp', 'closed', 'queue', 'disabled', 'writestream', 'all'].includes(which)) {
  process.stderr.write(`anomalies.js: expected shift, tcp, closed, queue, disabled, writestream or all, got "${which}"\n`)
  process.exit(2)
}
const want = (name) => which === 'all' || which === name

if (want('queue')) {
  const events = quick ? 2000 : 200000
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-bench-anomalies-'))
  const file = path.join(dir, 'winston.log')
  const logger = winston.createLogger({ transports: [new winston.transports.File({ filename: file })] })
  await new Promise((resolve) => setTimeout(resolve, 100))
  const heap = process.memoryUsage().heapUsed
  for (let seq = 0; seq < events; seq++) logger.info(`w0 ${seq}: Hello, world!`)
  const grown = process.memoryUsage().heapUsed - heap
  const size = () => (fs.existsSync(file) ? fs.statSync(file).size : 0)
  process.stdout.write(`queue: winston to a file, after a loop of ${events.toLocaleString('en-US')} calls, before it yields: ` +
    `${logger._writableState.length.toLocaleString('en-US')} events waiting in the logger's writable buffer, the file ${size().toLocaleString('en-US')} bytes, ` +
    `the heap ${(grown / 1e6).toFixed(0)} MB larger\n`)
  const finished = once(logger, 'finish')
  logger.end()
  await finished
  await new Promise((resolve) => setTimeout(resolve, 200))
  process.stdout.write(`queue: after 'finish': the file ${size().toLocaleString('en-US')} bytes\n`)
  fs.rmSync(dir, { recursive: true, force: true })
}

if (want('disabled')) {
  const events = quick ? 2000 : 100000
  let formatted = 0
  let logged = 0
  const counting = winston.format((info) => { formatted++; return info })
  const sink = new Writable({ write (chunk, encoding, callback) { logged++; callback() } })
  const logger = winston.createLogger({ level: 'info', format: winston.format.combine(counting(), winston.format.json()), transports: [new winston.transports.Stream({ stream: sink })] })
  const time = async (call) => {
    const start = performance.now()
    for (let seq = 0; seq < events; seq++) call(`w0 ${seq}: Hello, world!`)
    const loop = performance.now() - start
    // The stream's queue empties on later ticks: wait until it has.
    while (logger._writableState.length > 0) await new Promise((resolve) => setImmediate(resolve))
    return { loop, drained: performance.now() - start }
  }
  const guarded = await time((message) => { if (logger.isDebugEnabled()) logger.debug(message) })
  const plain = await time((message) => logger.debug(message))
  const ms = (v) => v.toFixed(1)
  process.stdout.write(`disabled: winston at level info, ${events.toLocaleString('en-US')} logger.debug() calls: the logger's format ran ${formatted.toLocaleString('en-US')} times and the transport logged ${logged}; ` +
    `the loop took ${ms(plain.loop)} ms and ${ms(plain.drained)} ms until the stream was empty; behind isDebugEnabled(): ${ms(guarded.loop)} ms, ${ms(guarded.drained)} ms\n`)
}

if (want('writestream')) {
  const lines = quick ? 2000 : 20000
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-bench-anomalies-'))
  const file = path.join(dir, 'lines.log')
  const stream = fs.createWriteStream(file)
  const start = performance.now()
  for (let seq = 0; seq < lines; seq++) stream.write(`w0 ${seq}: Hello, world!\n`)
  const loop = performance.now() - start
  await new Promise((resolve) => stream.end(resolve))
  const done = performance.now() - start
  const runtime = typeof globalThis.Bun !== 'undefined' ? `bun ${globalThis.Bun.version}` : `node ${process.versions.node}`
  process.stdout.write(`writestream: ${runtime}, ${lines.toLocaleString('en-US')} lines through fs.createWriteStream: the loop ${loop.toFixed(1)} ms, done ${done.toFixed(1)} ms, ${fs.statSync(file).size.toLocaleString('en-US')} bytes\n`)
  fs.rmSync(dir, { recursive: true, force: true })
}

if (want('shift')) {
  const sizes = quick ? [2000, 4000] : [25000, 50000, 100000, 200000]
  for (const n of sizes) {
    const queue = Array.from({ length: n }, (_, i) => `<14>1 2026-11-27T09:00:00.000Z vm node 1 - - w0 ${i}: Hello, world!`)
    const start = process.hrtime.bigint()
    let drained = 0
    for (let msg = queue.shift(); msg; msg = queue.shift()) drained++
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    process.stdout.write(`shift: ${n.toLocaleString('en-US')} queued messages drained with Array#shift in ${ms.toFixed(0)} ms (${drained === n ? 'all' : drained})\n`)
  }
}

if (want('closed')) {
  const events = quick ? 500 : 5000
  const rate = 10000
  let arrived = 0
  const server = net.createServer((socket) => socket.on('data', (chunk) => {
    for (const byte of chunk) if (byte === 10) arrived++
  }))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const transport = new Syslog({ host: '127.0.0.1', port: server.address().port, protocol: 'tcp4', eol: '\n' })
  const logger = winston.createLogger({ transports: [transport] })
  const start = performance.now()
  const since = () => (performance.now() - start).toFixed(1)
  let closeCall = null
  let closedAt = null
  const close = transport.close.bind(transport)
  transport.close = () => {
    closeCall = { at: since(), queued: transport.queue.length, inFlight: transport.inFlight }
    close()
  }
  transport.once('closed', () => { closedAt = since() })
  for (let seq = 0; seq < events;) {
    const due = Math.min(events, Math.floor((performance.now() - start) * rate / 1000) + 1)
    for (; seq < due; seq++) logger.info(`w0 ${seq}: Hello, world!`)
    await new Promise((resolve) => setImmediate(resolve))
  }
  const waitUntil = performance.now() + 5000
  while (performance.now() < waitUntil) {
    if (arrived >= events) break
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const endAt = since()
  // winston-syslog reconnects whenever its socket closes, its own close() included: not here.
  transport.socket.removeAllListeners('close')
  const finished = once(logger, 'finish')
  logger.end()
  await finished
  const finishAt = since()
  server.close()
  process.stdout.write(`closed: ${events.toLocaleString('en-US')} events paced at ${rate.toLocaleString('en-US')}/s, ${arrived.toLocaleString('en-US')} arrived before logger.end() at ${endAt} ms; ` +
    `Syslog#close() ran at ${closeCall?.at} ms with ${closeCall?.queued} queued and inFlight ${closeCall?.inFlight}, 'closed' came at ${closedAt} ms, the logger's 'finish' at ${finishAt} ms\n`)

  const receiver = dgram.createSocket('udp4')
  let datagrams = 0
  receiver.on('message', () => { datagrams++ })
  receiver.bind(0, '127.0.0.1')
  await once(receiver, 'listening')
  const udp = new Syslog({ host: '127.0.0.1', port: receiver.address().port, protocol: 'udp4' })
  const udpLogger = winston.createLogger({ transports: [udp] })
  for (let seq = 0; seq < events; seq++) {
    udpLogger.info(`w0 ${seq}: Hello, world!`)
    if (seq % 20 === 19) await new Promise((resolve) => setImmediate(resolve))
  }
  await new Promise((resolve) => setTimeout(resolve, 300))
  const before = { datagrams, queued: udp.queue.length, inFlight: udp.inFlight }
  const closing = performance.now()
  const udpClosed = once(udp, 'closed')
  udpLogger.end()
  await udpClosed
  receiver.close()
  process.stdout.write(`closed: over UDP, ${events.toLocaleString('en-US')} events logged 20 a turn, 300 ms later ${before.datagrams.toLocaleString('en-US')} had arrived, ` +
    `${before.queued} queued and inFlight ${before.inFlight}; 'closed' came ${(performance.now() - closing).toFixed(0)} ms after logger.end()\n`)
}

if (want('tcp')) {
  const events = quick ? 2000 : 200000
  let arrived = 0
  let partial = ''
  const server = net.createServer((socket) => {
    socket.on('data', (chunk) => {
      const lines = (partial + chunk).split('\n')
      partial = lines.pop()
      arrived += lines.length
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const transport = new Syslog({ host: '127.0.0.1', port: server.address().port, protocol: 'tcp4', eol: '\n' })
  const logger = winston.createLogger({ transports: [transport] })
  for (let seq = 0; seq < events; seq++) logger.info(`w0 ${seq}: Hello, world!`)
  const closed = once(transport, 'closed')
  const finished = once(logger, 'finish')
  logger.end()
  await finished
  let atDestroy = null
  const destroy = transport.socket.destroy.bind(transport.socket)
  transport.socket.destroy = (...a) => {
    const buffered = transport.socket.writableLength
    atDestroy = { inFlight: transport.inFlight, queued: transport.queue.length, buffered }
    return destroy(...a)
  }
  logger.close()
  await closed
  await new Promise((resolve) => setTimeout(resolve, 1000))
  server.close()
  process.stdout.write(`tcp: logged ${events.toLocaleString('en-US')}; when close() destroyed the socket, inFlight was ${atDestroy?.inFlight}, ` +
    `${atDestroy?.queued} queued, ${atDestroy?.buffered?.toLocaleString('en-US')} bytes still in the socket's write buffer; ` +
    `arrived ${arrived.toLocaleString('en-US')} (${((1 - arrived / events) * 100).toFixed(2)}% lost)\n`)
  // winston-syslog reconnects a closed TCP socket on a timer of its own, for ever: leave.
  process.exit(0)
}
