import { fork } from 'node:child_process'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { killChildren, trackChild } from '../engine/children.js'
import { MESSAGES } from '../engine/messages.js'
import { LoadFailure, RunFailure } from '../errors.js'

const LOAD_DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'load-driver.js')

// What the driver is told (src/http/load-driver.js): the cell's load settings and the run's URLs.
const CONFIG = [
  'url', 'body', 'durationSeconds', 'warmupSeconds', 'connections', 'pipelining',
  'rate', 'amount', 'warmupAmount', 'alternate', 'baselineUrl'
]

// Starts the autocannon driver process against url. onMeasuring fires when the warm-up is over and
// the measured run begins; `result` resolves with the measured figures (see loadFigures). With
// alternate (seconds, --alternate) the load turns between baselineUrl and url in slices of that
// length, and the figures have the baseline's as `baseline`.
export function startLoad ({ onMeasuring, ...options }) {
  const config = Object.fromEntries(CONFIG.map((key) => [key, options[key] ?? null]))
  const { warmupAmount, alternate } = config
  const child = fork(LOAD_DRIVER, [], { execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
  const result = new Promise((resolve, reject) => {
    trackChild(child, {
      name: 'the load generator (autocannon)',
      messages: MESSAGES.loadDriver,
      config,
      lastMessage: 'result',
      onMessage (msg) {
        if (msg.type === 'measuring') onMeasuring()
        else if (msg.type === 'result') {
          // --alternate: the library's slices, and the baseline's (the app without logging) beside them.
          resolve({
            ...loadFigures(msg.result, warmupAmount ?? 0),
            ...(alternate ? { baseline: baselineFigures(msg.baseline) } : {})
          })
        }
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

// The baseline's slices under --alternate (a result of the same shape), with how many there were.
function baselineFigures (result) {
  return { ...loadFigures(result ?? {}), slices: result?.slices ?? null }
}

const pick = (source, keys) => Object.fromEntries(keys.map((k) => [k, source?.[k] ?? null]))
const PER_SECOND = ['mean', 'stddev', 'min', 'max', 'p1', 'p2_5', 'p50', 'p97_5']
const LATENCY = ['p2_5', 'p50', 'p97_5', 'p99', 'mean', 'stddev', 'min', 'max']

// The figures of the seed's tables from an autocannon result: requests and bytes per second over the
// one-second samples, latency over every request (ms). warmupRequests: how many of the run's requests
// were its warm-up (a counted run sends both in one run), not counted in `requests`.
export function loadFigures (result, warmupRequests = 0) {
  const total = result.requests?.total
  return {
    requests: total == null ? null : Math.max(0, total - warmupRequests),
    reqPerSec: pick(result.requests, PER_SECOND),
    bytesPerSec: pick(result.throughput, PER_SECOND),
    latencyMs: pick(result.latency, LATENCY),
    requestErrors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    loadSeconds: result.duration
  }
}

// The counted server's warm-up, sent so that the server sees the same events in the same order in
// every run: one keep-alive connection, one request at a time, the last one asking the server to
// close it (Connection: close), and the load starts only once that connection is closed. fetch's
// pool kept its connection open until an idle timer closed it from the client's side, during the
// load, at whichever request the simulator's pace had reached: the server's code for a closing
// socket then ran at a different point of its tiering in each run, and V8 deoptimized and
// recompiled differently (a winston run counted 154 million instructions more than its twin, in
// V8's compilers and in the inline caches of code running unoptimized meanwhile).
export async function warmUpOneByOne (url, body, requests) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const send = (last) => new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(last ? { connection: 'close' } : {}) }
    const request = http.request(url, { method: 'POST', agent, headers }, (response) => {
      response.resume()
      response.on('error', reject)
      if (response.statusCode !== 200) reject(new RunFailure(`the server answered ${response.statusCode} to a warm-up request`))
      else if (!last) response.on('end', resolve)
      else request.socket.once('close', resolve)
    })
    request.on('error', (err) => reject(new RunFailure(`a warm-up request to the server failed: ${err.message}`)))
    request.end(body)
  })
  try {
    for (let i = 1; i <= requests; i++) await send(i === requests)
  } finally {
    agent.destroy()
  }
}
