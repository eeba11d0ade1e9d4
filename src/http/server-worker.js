// One server process: a node:cluster worker of the harness. Builds the logger (through the library's
// adapter, as `run` does) and the express app, listens on 127.0.0.1, and on 'stop' closes the server
// and the logger, then reports how many events it logged, the CPU it used and how long its event loop
// waited (monitorEventLoopDelay) while measured.
import http from 'node:http'
import v8 from 'node:v8'
import vm from 'node:vm'
import { createLogger, exitAfterATurn, exitProcess, fail, failOnUncaught, leaveSignalsToPrimary, receiveConfig } from '../engine/child-side.js'
import { startLoopDelay } from '../engine/costs.js'
import { createApp, createEventSource } from './app.js'
import { REQUEST_LOGGERS } from './request-loggers.js'

// Without a harness there is nothing to serve.
leaveSignalsToPrimary()
process.on('disconnect', () => exitProcess(0))
failOnUncaught()
// The cell's settings (src/http/matrix.js) under their own names, plus this worker's workerId and target.
const config = await receiveConfig()

async function main () {
  const events = createEventSource(config.workerId)
  let logger = null
  let requestLogger = null
  if (config.adapterFile) {
    logger = await createLogger(config)
    if (config.mode === 'middleware') {
      if (!logger.logger) throw new Error(`the ${config.lib} adapter exposes no logger object for ${config.transport}, which its request logger needs`)
      requestLogger = await REQUEST_LOGGERS[config.lib].create(logger.logger, () => events.next(config.size))
    }
  }
  const log = logger && config.mode === 'route' ? (message) => logger.log(message) : null
  const server = http.createServer(createApp({ events, log, requestLogger }))
  // Requests this worker answered, warm-up included: a counted run's denominator (src/http/counted.js).
  let served = 0
  server.on('request', () => { served++ })
  server.once('error', (err) => fail('listen', err.code === 'EADDRINUSE' ? `port ${config.port} on 127.0.0.1 is already in use (EADDRINUSE)` : err))
  server.listen(config.port, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }))

  // Counted (--measure instructions), no 10 ms timer: its ticks would add instructions in proportion
  // to the simulated run's length, not to its requests.
  const loopDelay = () => (config.measure === 'instructions' ? null : startLoopDelay())
  let measure = { cpu: process.cpuUsage(), fromNs: process.hrtime.bigint(), loopDelay: loopDelay() }
  process.on('message', (msg) => {
    if (msg?.type === 'measure') {
      measure.loopDelay?.stop()
      measure = { cpu: process.cpuUsage(), fromNs: process.hrtime.bigint(), loopDelay: loopDelay() }
    } else if (msg?.type === 'stop') {
      const cpu = process.cpuUsage(measure.cpu)
      const measuredMs = Number(process.hrtime.bigint() - measure.fromNs) / 1e6
      const eventLoopDelayNs = measure.loopDelay?.stop() ?? null
      stop(server, logger, events, cpu, measuredMs, eventLoopDelayNs, served).catch((err) => fail('close', err))
    }
  })
}

async function stop (server, logger, events, cpu, measuredMs, eventLoopDelayNs, served) {
  server.close()
  server.closeAllConnections()
  await logger?.close()
  if (config.measure === 'instructions') collectEverything()
  process.send({
    type: 'closed',
    logged: events.logged,
    cpuUserMs: cpu.user / 1000,
    cpuSystemMs: cpu.system / 1000,
    measuredMs,
    eventLoopDelayNs,
    served,
    maxRssBytes: process.resourceUsage().maxRSS * 1024
  }, exitAfterATurn)
}

// Counted: one full collection of the heap, so that the count holds collecting what the requests left
// in an old generation that was not collected while they were served (COUNTED_SERVER_NODE_FLAGS in
// src/engine/instructions.js). V8's gc() taken from a fresh context: no global gc for the libraries to see.
function collectEverything () {
  v8.setFlagsFromString('--expose-gc')
  vm.runInNewContext('gc')()
}

main().catch((err) => fail('setup', err))
