import assert from 'node:assert/strict'
import http from 'node:http'
import { describe, it } from 'node:test'
import { createApp, createEventSource } from '../src/http/app.js'
import { loadFigures, startLoad, warmUpOneByOne } from '../src/http/load.js'
import { summarizeHttp } from '../src/results/http-summary.js'
import { roundsOf } from '../src/results/rounds.js'
import { Verifier } from '../src/sinks/verifier.js'

async function withServer (app, fn) {
  const server = http.createServer(app)
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    return await fn(`http://127.0.0.1:${server.address().port}`)
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

describe('the app under load', () => {
  it('logs logsPerRequest verifiable events of size characters, by POST or GET', async () => {
    const events = createEventSource(1)
    const logged = []
    const app = createApp({ events, log: (m) => logged.push(m), requestLogger: null })
    await withServer(app, async (base) => {
      const post = await fetch(`${base}/logging`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ logsPerRequest: 3, size: 40 }) })
      assert.equal(post.status, 200)
      const get = await fetch(`${base}/logging?logsPerRequest=2&size=40`)
      assert.equal(get.status, 200)
    })
    assert.equal(events.logged, 5)
    const verifier = new Verifier({ workers: 2, events: null, payload: logged[0].slice(logged[0].indexOf(': ') + 2) })
    assert.equal(logged[0].length - logged[0].indexOf(': ') - 2, 40)
    for (const message of logged) assert.equal(verifier.check(message), true, message)
    assert.deepEqual(logged.map((m) => m.split(':')[0]), ['w1 0', 'w1 1', 'w1 2', 'w1 3', 'w1 4'])
  })

  it('answers 400 to a request asking for too much or nonsense, and logs nothing', async () => {
    const events = createEventSource(0)
    const app = createApp({ events, log: () => assert.fail('nothing may be logged'), requestLogger: null })
    await withServer(app, async (base) => {
      for (const query of ['logsPerRequest=-1&size=5', 'logsPerRequest=1e9&size=5', 'logsPerRequest=1&size=0', 'logsPerRequest=x']) {
        assert.equal((await fetch(`${base}/logging?${query}`)).status, 400, query)
      }
    })
    assert.equal(events.logged, 0)
  })

  it('mounts the request logger in front of the route', async () => {
    const events = createEventSource(0)
    const seen = []
    const requestLogger = (req, res, next) => {
      res.on('finish', () => seen.push(events.next(7)))
      next()
    }
    await withServer(createApp({ events, log: null, requestLogger }), (base) => fetch(`${base}/logging`))
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(seen, ['w0 0: Hello, '])
  })
})

describe('the load', () => {
  it('a counted run\'s warm-up is a number of requests, not seconds, sent in the same autocannon run as the measured ones: each run serves exactly warm-up + amount', async () => {
    let served = 0
    const server = http.createServer((req, res) => { served++; req.resume(); req.on('end', () => res.end('ok')) })
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      let measuredFrom = null
      const began = Date.now()
      const load = startLoad({ url: `http://127.0.0.1:${server.address().port}/logging`, body: '{}', durationSeconds: 1, warmupSeconds: 30, connections: 1, pipelining: 1, rate: 500, amount: 40, warmupAmount: 25, onMeasuring () { measuredFrom = served } })
      const figures = await load.result
      assert.equal(measuredFrom, 0, 'one autocannon run sends the warm-up and the measured requests')
      assert.equal(figures.requests, 40, 'the warm-up is not in the measured requests')
      assert.equal(served, 65)
      assert.ok(Date.now() - began < 20_000, 'the 30 s of --warmup were not waited for')
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
  it('the counted warm-up sends its requests one at a time over one connection, which the server has closed when it resolves', async () => {
    let served = 0
    let connections = 0
    let closed = 0
    let inFlight = 0
    let most = 0
    const server = http.createServer((req, res) => {
      served++
      most = Math.max(most, ++inFlight)
      req.resume()
      req.on('end', () => setTimeout(() => { inFlight--; res.end('ok') }, 1))
    })
    server.on('connection', (socket) => { connections++; socket.on('close', () => closed++) })
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      await warmUpOneByOne(`http://127.0.0.1:${server.address().port}/logging`, '{}', 30)
      assert.equal(served, 30)
      assert.equal(most, 1, 'one request at a time')
      assert.equal(connections, 1, 'one connection')
      await new Promise((resolve) => setImmediate(resolve))
      assert.equal(closed, 1, 'the server closed it after the last request (Connection: close)')
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })

  it('a warm-up request the server refuses is the run\'s failure, with the status', async () => {
    const server = http.createServer((req, res) => { req.resume(); res.statusCode = 400; res.end('no') })
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      await assert.rejects(warmUpOneByOne(`http://127.0.0.1:${server.address().port}/logging`, '{}', 3), /the server answered 400 to a warm-up request/)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})

describe('http results', () => {
  it('takes the seed\'s figures from an autocannon result', () => {
    const figures = loadFigures({
      requests: {
        total: 500,
        mean: 250,
        stddev: 5,
        min: 245,
        max: 255,
        p1: 245,
        p2_5: 245,
        p50: 250,
        p97_5: 255,
        p99: 255
      },
      throughput: {
        total: 5000,
        mean: 2500,
        stddev: 50,
        min: 2450,
        max: 2550,
        p1: 2450,
        p2_5: 2450,
        p50: 2500,
        p97_5: 2550
      },
      latency: { p2_5: 1, p50: 3, p97_5: 9, p99: 12, mean: 3.5, stddev: 2.1, min: 1, max: 40 },
      errors: 1,
      timeouts: 2,
      non2xx: 3,
      duration: 2.01
    })
    assert.deepEqual(figures, {
      requests: 500,
      reqPerSec: { mean: 250, stddev: 5, min: 245, max: 255, p1: 245, p2_5: 245, p50: 250, p97_5: 255 },
      bytesPerSec: { mean: 2500, stddev: 50, min: 2450, max: 2550, p1: 2450, p2_5: 2450, p50: 2500, p97_5: 2550 },
      latencyMs: { p2_5: 1, p50: 3, p97_5: 9, p99: 12, mean: 3.5, stddev: 2.1, min: 1, max: 40 },
      requestErrors: 1,
      timeouts: 2,
      non2xx: 3,
      loadSeconds: 2.01
    })
  })

  it('summarizes per cell and library, compares with none of the same cell, and leaves run records alone', () => {
    const cell = { type: 'http', mode: 'route', transport: 'console', cpus: 1, logsPerRequest: 5, size: 20 }
    const run = (lib, reqPerSec, extra = {}) => ({ ...cell, lib, run: 1, ok: true, status: 'ok', reqPerSec: { mean: reqPerSec }, latencyMs: { p50: 1 }, ...extra })
    const runs = [
      run('none', 1000),
      run('pino', 750),
      run('pino', 750, { logsPerRequest: 20 }),
      { ...cell, lib: 'bunyan', run: 1, ok: false, status: 'failed', error: 'boom', reqPerSec: null },
      { type: 'run', lib: 'pino', transport: 'file', cpus: 1, size: 13, ok: true }
    ]
    const summary = summarizeHttp(runs)
    assert.equal(summary.length, 4)
    assert.equal(summary.find((s) => s.lib === 'pino' && s.logsPerRequest === 5).throughputChangePct, -25)
    assert.equal(summary.find((s) => s.lib === 'pino' && s.logsPerRequest === 20).throughputChangePct, null, 'no baseline in that cell')
    const bunyan = summary.find((s) => s.lib === 'bunyan')
    assert.deepEqual([bunyan.status, bunyan.errors, bunyan.reqPerSec], ['failed', ['boom'], null])
    const vs = summary.find((s) => s.lib === 'pino' && s.logsPerRequest === 5).throughputVsBaseline
    assert.deepEqual([vs.ratio, vs.verdict, vs.n, vs.nBaseline], [0.75, 'unclear', 1, 1])
  })

  it('compares each library with none round by round where the runs were interleaved: the 0-logs control reads same through the drift', () => {
    // none and pino at 0 logs per request in 8 rounds of a machine drifting by up to ±30%, pino
    // within ±0.5% of none in each round.
    const drift = [1.21, 0.74, 1.05, 0.83, 1.29, 0.92, 0.71, 1.13]
    const cell = { type: 'http', mode: 'route', transport: 'console', cpus: 1, logsPerRequest: 0, size: 20, ok: true, status: 'ok', latencyMs: { p50: 1 } }
    const runs = drift.flatMap((f, i) => [
      { ...cell, lib: 'none', run: i + 1, reqPerSec: { mean: 5000 * f } },
      { ...cell, lib: 'pino', run: i + 1, reqPerSec: { mean: 5000 * f * (1 + 0.005 * Math.sin(i)) } }
    ])
    const against = (roundOf) => summarizeHttp(runs, { roundOf }).find((s) => s.lib === 'pino').throughputVsBaseline
    const unpaired = against(null)
    assert.deepEqual([unpaired.paired, unpaired.verdict], [false, 'unclear'])
    const paired = against(roundsOf({ env: { order: { mode: 'interleaved', seed: 1 } } }))
    assert.deepEqual([paired.paired, paired.pairs, paired.verdict], [true, 8, 'same'])
    assert.ok(paired.ciLow > 0.99 && paired.ciHigh < 1.01, JSON.stringify(paired))
    // Runs of a blocked order are not rounds.
    assert.equal(against(roundsOf({ env: { order: { mode: 'blocked', seed: null } } })).paired, false)
  })

  it('judges requests/s with their own ±5%, whatever --noise says: 3.5% fewer reads same, 8% fewer slower', () => {
    const drift = [1.21, 0.74, 1.05, 0.83, 1.29, 0.92, 0.71, 1.13]
    const cell = { type: 'http', mode: 'route', transport: 'console', cpus: 1, logsPerRequest: 0, size: 20, ok: true, status: 'ok', latencyMs: { p50: 1 } }
    const against = (share) => {
      const runs = drift.flatMap((f, i) => [
        { ...cell, lib: 'none', run: i + 1, reqPerSec: { mean: 5000 * f } },
        { ...cell, lib: 'pino', run: i + 1, reqPerSec: { mean: 5000 * f * share * (1 + 0.003 * Math.sin(i)) } }
      ])
      return summarizeHttp(runs, { roundOf: roundsOf({ env: { order: { mode: 'interleaved', seed: 1 } } }) }).find((s) => s.lib === 'pino').throughputVsBaseline
    }
    const near = against(0.965)
    assert.ok(near.ciLow < 0.98 && near.ciLow > 0.95, JSON.stringify(near))
    assert.equal(near.verdict, 'same', 'beyond ±2% but within ±5%')
    assert.equal(against(0.92).verdict, 'slower')
  })
})
