import { fork } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const LOAD_DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'load-driver.js')
const STDERR_TAIL_BYTES = 4096

export class LoadFailure extends Error {}

// Starts the autocannon driver process against url. onMeasuring fires when the warm-up is over and
// the measured run begins; `result` resolves with the measured figures (see loadFigures).
export function startLoad ({ url, body, durationSeconds, warmupSeconds, connections, pipelining, onMeasuring }) {
  const child = fork(LOAD_DRIVER, [], {
    env: { ...process.env, LOG_BENCH_HTTP_LOAD: JSON.stringify({ url, body, durationSeconds, warmupSeconds, connections, pipelining }) },
    execArgv: [],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc']
  })
  let stderrTail = ''
  let exited = false
  child.stderr.on('data', (chunk) => { stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES) })
  const result = new Promise((resolve, reject) => {
    let error = null
    child.on('message', (msg) => {
      if (msg?.type === 'measuring') onMeasuring()
      else if (msg?.type === 'result') resolve(loadFigures(msg.result))
      else if (msg?.type === 'error') error = msg.message
    })
    child.on('exit', (code, signal) => {
      exited = true
      const lastLine = stderrTail.trim().split('\n').filter(Boolean).pop()
      reject(new LoadFailure(`the load generator (autocannon) ${error ? `failed: ${error}` : `exited (${signal ?? `code ${code}`})${lastLine ? `: ${lastLine}` : ''}`}`))
    })
  })
  result.catch(() => {})
  return {
    result,
    async kill () {
      if (exited) return
      await new Promise((resolve) => {
        child.once('exit', resolve)
        child.kill('SIGKILL')
      })
    }
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
