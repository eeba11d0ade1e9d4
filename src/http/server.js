import cluster from 'node:cluster'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { exitReason } from '../bench/run-once.js'

const SERVER_WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server-worker.js')
const STDERR_TAIL_BYTES = 4096

export class ServerFailure extends Error {}

const PHASES = { setup: 'building the logger', listen: 'starting to listen', close: 'closing the logger', uncaught: 'serving requests (uncaught error)' }

// Forks the server's cluster workers (stdout and stderr are pipes to this process, read by the
// receiver like `run` reads its workers). `listening` resolves with the port once every worker
// listens; `failed` rejects with the reason as soon as a worker fails or exits before it was stopped.
export function startServer ({ libName, adapterFile, mode, transport, cpus, port, size, receiver }) {
  let reportFailure
  const failed = new Promise((resolve, reject) => { reportFailure = (reason) => reject(new ServerFailure(reason)) })
  failed.catch(() => {})
  const entries = []
  let announce
  const listening = new Promise((resolve) => { announce = resolve })
  for (let workerId = 0; workerId < cpus; workerId++) {
    const config = { libName, adapterFile, mode, transport, workerId, port, size, target: receiver.target(workerId) }
    cluster.setupPrimary({ exec: SERVER_WORKER, args: [], execArgv: [], stdio: ['ignore', receiver.stdoutFor?.(workerId) ?? 'pipe', 'pipe', 'ipc'] })
    const worker = cluster.fork({ LOG_BENCH_HTTP_SERVER: JSON.stringify(config) })
    receiver.forked?.(workerId)
    const entry = { worker, workerId, port: null, closed: null, exited: false, error: null, stderrTail: '', onClosed: null }
    const child = worker.process
    child.stderr.on('data', (chunk) => { entry.stderrTail = (entry.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES) })
    if (receiver.consumesStdout) receiver.attach(workerId, child)
    else child.stdout?.resume()
    worker.on('message', (msg) => {
      if (msg?.type === 'listening') {
        entry.port = msg.port
        if (entries.every((e) => e.port !== null)) announce({ port: msg.port })
      } else if (msg?.type === 'closed') {
        entry.closed = msg
      } else if (msg?.type === 'error') {
        entry.error = `server worker ${workerId} failed while ${PHASES[msg.phase] ?? msg.phase}: ${msg.message}`
      }
    })
    worker.on('exit', (code, signal) => {
      entry.exited = true
      if (entry.closed) entry.onClosed?.()
      else reportFailure(entry.error ?? `server ${exitReason(workerId, code, signal, entry.stderrTail)}`)
    })
    entries.push(entry)
  }
  return {
    listening,
    failed,
    pids: entries.map((e) => e.worker.process.pid),
    measure () {
      for (const e of entries) e.worker.send({ type: 'measure' })
    },
    // Asks every worker to close its server and logger; resolves once each has reported and exited.
    async stop () {
      await Promise.all(entries.map((e) => new Promise((resolve) => {
        e.onClosed = resolve
        e.worker.send({ type: 'stop' })
      })))
      const closed = entries.map((e) => e.closed)
      const sum = (key) => closed.reduce((total, c) => total + c[key], 0)
      return {
        logged: sum('logged'),
        cpuUserMs: sum('cpuUserMs'),
        cpuSystemMs: sum('cpuSystemMs'),
        measuredMs: Math.max(...closed.map((c) => c.measuredMs)),
        maxRssBytes: Math.max(...closed.map((c) => c.maxRssBytes))
      }
    },
    async kill () {
      await Promise.all(entries.filter((e) => !e.exited).map((e) => new Promise((resolve) => {
        e.worker.once('exit', resolve)
        e.worker.process.kill('SIGKILL')
      })))
    }
  }
}
