import { fork } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { killChildren, trackChild } from '../engine/children.js'
import { MESSAGES } from '../engine/messages.js'
import { LoadFailure } from '../errors.js'

const LOAD_DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'load-driver.js')

// Starts the autocannon driver process against url. onMeasuring fires when the warm-up is over and
// the measured run begins; `result` resolves with the measured figures (see loadFigures).
export function startLoad ({ url, body, durationSeconds, warmupSeconds, connections, pipelining, rate = null, amount = null, warmupAmount = null, onMeasuring }) {
  const child = fork(LOAD_DRIVER, [], { execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
  const result = new Promise((resolve, reject) => {
    trackChild(child, {
      name: 'the load generator (autocannon)',
      messages: MESSAGES.loadDriver,
      config: { url, body, durationSeconds, warmupSeconds, connections, pipelining, rate, amount, warmupAmount },
      lastMessage: 'result',
      onMessage (msg) {
        if (msg.type === 'measuring') onMeasuring()
        else if (msg.type === 'result') resolve(loadFigures(msg.result))
      },
      onExit (failure, signal, kind) {
        if (failure) reject(new LoadFailure(failure, kind))
      }
    })
  })
  result.catch(() => {})
  return {
    result,
    pid: child.pid,
    kill: () => killChildren([child])
  }
}

const pick = (source, keys) => Object.fromEntries(keys.map((k) => [k, source?.[k] ?? null]))
const PER_SECOND = ['mean', 'stddev', 'min', 'max', 'p1', 'p2_5', 'p50', 'p97_5']
const LATENCY = ['p2_5', 'p50', 'p97_5', 'p99', 'mean', 'stddev', 'min', 'max']

// The figures of the seed's tables from an autocannon result: requests and bytes per second over the
// one-second samples, latency over every request (ms).
export function loadFigures (result) {
  return {
    requests: result.requests?.total ?? null,
    reqPerSec: pick(result.requests, PER_SECOND),
    bytesPerSec: pick(result.throughput, PER_SECOND),
    latencyMs: pick(result.latency, LATENCY),
    requestErrors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    loadSeconds: result.duration
  }
}
