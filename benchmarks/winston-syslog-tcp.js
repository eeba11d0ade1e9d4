import net from 'node:net'
import winston from 'winston'
import { Syslog } from 'winston-syslog'

// A plain script, outside the harness, for the loss the seed and durability pages report for
// winston over syslog TCP: winston-syslog (its README's options, eol '\n' so that lines can be
// counted) sending to a bare TCP server in the same process that counts the lines it receives, fed
// by one tight loop, then closed the way its README closes a logger (logger.close()) and given time
// to deliver. `node benchmarks/winston-syslog-tcp.js [events]` (default 200,000) prints what was
// logged, what arrived, and the transport's own inFlight counter, which winston-syslog decrements
// for every TCP write but never increments (winston-syslog#160): it is far below 0 at close(), so
// close() destroys the socket at once, and whatever Node still held for it is lost.
const events = Number(process.argv[2] ?? 200000)
let arrived = 0
let tail = ''
const server = net.createServer((socket) => {
  socket.setEncoding('utf8')
  socket.on('data', (text) => {
    const lines = (tail + text).split('\n')
    tail = lines.pop()
    arrived += lines.length
  })
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const transport = new Syslog({ host: '127.0.0.1', port: server.address().port, protocol: 'tcp4', eol: '\n' })
const logger = winston.createLogger({ transports: [transport] })
for (let seq = 0; seq < events; seq++) logger.info(`w0 ${seq}: Hello, world!`)
// Everything handed to winston has reached the transport once the logger's stream has finished.
await new Promise((resolve) => { logger.on('finish', resolve); logger.end() })
const inFlight = transport.inFlight
// logger.close() unpipes the transport, which calls its close() (as log-bench's winston adapter does).
const closed = new Promise((resolve) => transport.once('closed', resolve))
logger.close()
await closed
// The receiver gets two seconds to read what the kernel still holds.
await new Promise((resolve) => setTimeout(resolve, 2000))
server.close()
process.stdout.write(`logged ${events}, arrived ${arrived} (${((1 - arrived / events) * 100).toFixed(2)}% lost); winston-syslog's inFlight at close(): ${inFlight}\n`)
