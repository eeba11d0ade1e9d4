import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { payloadOfSize } from '../engine/message.js'
import { failIfRefused, openReceiver } from '../runner/receiver.js'
import { leftBehindReason } from '../engine/leftovers.js'
import { makeRunDir } from '../engine/run-dir.js'
import { startSampler } from '../engine/sampler.js'
import { watcher } from '../runner/watcher.js'
import { RunFailure } from '../errors.js'
import { HTTP_BASELINE } from '../engine/library-names.js'
import { HTTP_TYPE } from '../results/run-types/http.js'
import { startLoad, warmUpOneByOne } from './load.js'
import { cpusOf, pin, pinPrimary, placementRecord } from './placement.js'
import { measureThenRestore } from '../engine/affinity.js'
import { startServer } from './server.js'
import { freePort } from '../sinks/rsyslog.js'
import { REACHED_RATE_SHARE } from '../engine/pacing.js'

// Requests a counted server answers one at a time before the load (see warmUpOneByOne).
const WARM_UP_REQUESTS = 200

// One run of one cell in fresh processes: start the server, put it under load (warm-up, then the
// measured run), stop it, and count at the receiving end every event it logged. A failure of the
// server, its logger or the load generator becomes { ok: false, error }; only an interrupt throws.
// Every process started here is gone when this returns. With a placement (src/http/placement.js) this
// process, and so the receiving end and autocannon, runs on the load's CPUs and the server's workers
// on theirs; the record says where each one ran. settings: the cell's (src/http/matrix.js), with
// amount and warmupAmount where the load is a number of requests (src/http/counted.js).
export async function runHttpOnce (settings, { signal = null } = {}) {
  let primary
  try {
    primary = await pinPrimary(settings)
  } catch (err) {
    if (err instanceof RunFailure) return { ...HTTP_TYPE.empty(), placement: placementRecord(settings), ok: false, status: 'failed', error: err.message }
    throw err
  }
  return measureThenRestore(primary, () => measure(settings, signal))
}

async function measure (settings, signal) {
  const { mode, logsPerRequest, size, rate = null, amount = null, timeoutMs } = settings
  const counted = settings.measure === 'instructions'
  const alternating = settings.alternate != null
  const pinned = Boolean(settings.taskset)
  const observed = pinned ? { primary: cpusOf(process.pid) } : {}
  const failed = (error) => ({ ...HTTP_TYPE.empty(), placement: placementRecord(settings, observed), ok: false, status: 'failed', error })
  let dir
  try {
    dir = makeRunDir(os.tmpdir(), 'log-bench-http-')
  } catch (err) {
    return failed(err.message)
  }
  const { receiver, error } = await receiverFor(settings, dir)
  if (error) {
    fs.rmSync(dir, { recursive: true, force: true })
    return failed(error)
  }
  const guard = watcher(signal, timeoutMs)
  let server = null
  let twin = null
  let loader = null
  let sampler = null
  try {
    server = startServer(settings, { receiver, countDir: dir })
    server.failed.catch((err) => guard.fail(err.message, err.failure))
    if (pinned) observed.server = await Promise.all(server.pids.map((pid, i) => pin(settings, pid, settings.serverCpus, `server worker ${i}`)))
    const { port: boundPort } = await guard.race(server.listening, 'starting the server')
    const url = `http://127.0.0.1:${boundPort}/logging`
    const body = JSON.stringify({ logsPerRequest: mode === 'route' ? logsPerRequest : 0, size })
    // --alternate: the app without logging beside it, on the same CPUs, its own receiving end.
    if (alternating) {
      twin = await startTwin(settings, { dir, guard, pinned, observed })
      await guard.race(warmUpOneByOne(twin.url, JSON.stringify({ logsPerRequest: 0, size }), 1), 'waiting for the baseline server\'s first answer')
    }
    // Under the simulator the first requests compile the app's code, seconds each: one request at a
    // time until it answers promptly, so that the load finds it warm (both counted runs do the same).
    if (counted) await guard.race(warmUpOneByOne(url, body, WARM_UP_REQUESTS), 'warming the counted server up')
    // Listening is not answering: a server's first request loads and compiles express's body parser
    // and the route, over a second on a busy machine, which took the whole of a --duration 1 (no
    // request completed). The load starts once the server has answered one request (logging none).
    else await guard.race(warmUpOneByOne(url, JSON.stringify({ logsPerRequest: 0, size }), 1), 'waiting for the server\'s first answer')
    loader = startLoad({
      ...settings,
      url,
      body,
      baselineUrl: twin?.url ?? null,
      onMeasuring () {
        server.measure()
        twin?.server.measure()
        sampler = startSampler({ pids: server.pids, startNs: process.hrtime.bigint(), heapOf: () => null })
      }
    })
    loader.result.catch((err) => guard.fail(err.message, err.failure))
    if (pinned) observed.load = cpusOf(loader.pid)
    const figures = await guard.race(loader.result, 'under load')
    const sample = sampler.stop()
    const closed = await guard.race(server.stop(), 'closing the server and its logger')
    const leftBehind = server.endLeftovers()
    if (leftBehind.length) throw new RunFailure(leftBehindReason(leftBehind))
    const baseline = twin ? await twin.close(figures.baseline, guard) : null
    const counts = await guard.race(receiver.settle({ sent: closed.logged }), 'verifying the events')
    await failIfRefused(receiver, counts, closed.logged)
    const verified = settings.verify !== false
    const reachedRate = rate && figures.loadSeconds > 0 ? figures.requests / figures.loadSeconds : null
    // Counted runs (amount) serve a number of requests at the simulator's pace: "up to" the rate.
    const shortOfRate = reachedRate != null && amount == null && reachedRate < REACHED_RATE_SHARE * rate
    // A run in which no request completed measured nothing: not a rate of 0.
    const unanswered = figures.requests === 0
      ? `no request completed in ${settings.durationSeconds} s of load (${figures.timeouts ?? 0} timed out, ${figures.requestErrors ?? 0} errors)`
      : baseline && !(baseline.requests > 0)
        ? `the baseline server (the app without logging) completed no request in its ${settings.durationSeconds} s of load (${baseline.timeouts ?? 0} timed out, ${baseline.requestErrors ?? 0} errors)`
        : null
    const error = unanswered ?? (shortOfRate ? `reached ${Math.round(reachedRate).toLocaleString('en-US')} of ${rate.toLocaleString('en-US')} requests/s` : null)
    return {
      ok: error === null,
      status: error === null ? 'ok' : 'failed',
      error,
      reachedRate,
      placement: placementRecord(settings, observed),
      ...figures,
      serverCpuUserMs: closed.cpuUserMs,
      serverCpuSystemMs: closed.cpuSystemMs,
      serverCpuPct: serverCpuPct(closed, twin ? figures.loadSeconds : null),
      serverCpuUsPerRequest: cpuPerRequest(closed, figures.requests),
      ...(counted
        ? {
            instructions: closed.instructions,
            compilerInstructions: closed.compilerInstructions,
            served: closed.served
          }
        : {}),
      maxRssBytes: closed.maxRssBytes,
      eventLoopDelayNs: closed.eventLoopDelayNs,
      totalRssPeakBytes: sample.peakRssBytes || null,
      sent: closed.logged,
      received: verified ? counts.received : null,
      corrupt: verified ? counts.corrupt : null,
      duplicates: verified ? counts.duplicates : null,
      dropRate: verified ? counts.dropRate : null,
      ...(baseline ? { baseline } : {}),
      timeseries: sample.series
    }
  } catch (err) {
    if (err instanceof RunFailure) return failed(err.message)
    throw err
  } finally {
    guard.dispose()
    sampler?.stop()
    await loader?.kill()
    await server?.kill()
    await twin?.kill()
    await receiver.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// The receiving end of a server's events (its workers' targets), its files in dir.
function receiverFor (settings, dir) {
  return openReceiver(
    settings.transport,
    { workers: settings.cpus, events: null, payload: payloadOfSize(settings.size), dir, ...settings.receiver }
  )
}

// The server's CPU use while measured (100 = one core). Under --alternate the server idles while the
// load is on the baseline's slices: its use is over its own slices' time (loadSeconds), else half the
// run would read as a server waiting for its load.
function serverCpuPct (closed, ownLoadSeconds) {
  const ms = ownLoadSeconds != null ? ownLoadSeconds * 1000 : closed.measuredMs
  return ms > 0 ? ((closed.cpuUserMs + closed.cpuSystemMs) / ms) * 100 : null
}

// The server's CPU time (user and system, every worker) over the requests autocannon completed
// while it was measured: its work per request, where requests/s is also the machine's speed.
function cpuPerRequest (closed, requests) {
  return requests > 0 ? ((closed.cpuUserMs + closed.cpuSystemMs) * 1000) / requests : null
}

// --alternate: a second server, the app without logging (the `none` baseline's settings: no adapter),
// started beside the library's on the same CPUs, with a receiving end of its own (it logs nothing;
// what arrives there is counted all the same). close(figures) stops it and returns the record's
// `baseline`: the load's figures of its slices and its CPU time per request.
// On a port of its own: both servers are node:cluster workers of this process, and workers that
// listen on the same address and port (port 0 included: a cluster hands every worker the same
// "random" port) share one listening socket, whose connections the primary deals out among all of
// them: each slice's connections would reach both servers, and each side would measure the two mixed.
async function startTwin (settings, { dir, guard, pinned, observed }) {
  const { libRange, adapterProblem, ...rest } = settings
  let port
  try {
    port = await freePort('tcp')
  } catch (err) {
    throw new RunFailure(`no free port on 127.0.0.1 for the baseline server: ${err.message}`)
  }
  const twinSettings = {
    ...rest,
    lib: HTTP_BASELINE,
    libVersion: null,
    adapterFile: null,
    libDir: null,
    port,
    middleware: null,
    middlewareVersion: null
  }
  const twinDir = path.join(dir, 'baseline')
  fs.mkdirSync(twinDir)
  const { receiver, error } = await receiverFor(settings, twinDir)
  if (error) throw new RunFailure(`the baseline server's receiving end: ${error}`)
  let server
  try {
    server = startServer(twinSettings, { receiver })
    server.failed.catch((err) => guard.fail(`the baseline server (the app without logging): ${err.message}`, err.failure))
    const pinWorker = (pid, i) => pin(settings, pid, settings.serverCpus, `baseline server worker ${i}`)
    if (pinned) observed.baselineServer = await Promise.all(server.pids.map(pinWorker))
    const { port } = await guard.race(server.listening, 'starting the baseline server')
    return twinHandle(server, receiver, `http://127.0.0.1:${port}/logging`)
  } catch (err) {
    await server?.kill()
    await receiver.stop()
    throw err
  }
}

function twinHandle (server, receiver, url) {
  return {
    server,
    url,
    async close (figures, guard) {
      const closed = await guard.race(server.stop(), 'closing the baseline server')
      const counts = await guard.race(receiver.settle({ sent: closed.logged }), 'verifying the baseline server\'s events')
      await failIfRefused(receiver, counts, closed.logged)
      if (closed.logged > 0 || counts.received > 0) {
        throw new RunFailure(`the baseline server (the app without logging) logged ${closed.logged} events and ${counts.received} arrived: it must log none`)
      }
      return {
        lib: HTTP_BASELINE,
        requests: figures.requests,
        loadSeconds: figures.loadSeconds,
        slices: figures.slices,
        reqPerSec: figures.reqPerSec,
        latencyMs: figures.latencyMs,
        requestErrors: figures.requestErrors,
        timeouts: figures.timeouts,
        non2xx: figures.non2xx,
        serverCpuUsPerRequest: cpuPerRequest(closed, figures.requests)
      }
    },
    async kill () {
      await server.kill()
      await receiver.stop()
    }
  }
}
