import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { readJson, runCli, tmpDir } from './helpers.js'
import { STALL_EVERY, STALL_MS } from './fixtures/adapters/stalls.js'

const STALLS = path.resolve('test/fixtures/adapters/stalls.js')
const COLD_START = path.resolve('test/fixtures/adapters/cold-start.js')

describe('run --rate: paced logging', () => {
  it('spreads the events over the time the rate asks for and records the event-loop delay', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'pino,raw', '--transport', 'file', '--rate', '4000', '--events', '2000', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const doc = readJson(out)
    assert.equal(doc.env.options.rate, 4000)
    assert.deepEqual(doc.runs.map((r) => r.lib).sort(), ['pino', 'raw'])
    for (const run of doc.runs) {
      assert.equal(run.ok, true, run.error)
      assert.equal(run.rate, 4000)
      assert.equal(run.received, 2000)
      // 2,000 events at 4,000 a second: the last is due after 0.5 s, never before.
      assert.ok(run.loggingMs >= 499, `logging ${run.loggingMs} ms`)
      // Paced, unblocked is the batches' time alone, a share of the logging time.
      assert.ok(run.unblockedMs > 0 && run.unblockedMs < run.loggingMs, `unblocked ${run.unblockedMs} of ${run.loggingMs}`)
      const delay = run.eventLoopDelayNs
      assert.ok(delay.samples > 0 && delay.p50 <= delay.p99 && delay.p99 <= delay.max, JSON.stringify(delay))
      assert.ok(run.callLatencyNs.p50 <= run.callLatencyNs.max)
    }
    assert.equal(doc.summary.every((s) => s.rate === 4000), true)
  })

  // One paced run at 10,000 events/s read by the two tests below: the stalling logger, and noop in a
  // worker of its own at the same rate, alone with the pacer.
  let atTenThousand
  const pacedAtTenThousand = () => (atTenThousand ??= (async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', `${STALLS},noop`, '--transport', 'file', '--rate', '10000', '--events', '20000', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    return readJson(out)
  })())

  // The pacer waits by reading the clock a few hundred times per event at 10,000 events/s; a read
  // that allocates (performance.now() on Node 20: 16 bytes) made 5-23 kB of garbage per event
  // and some 30 collections a second, which landed in the response times. A count of bytes, not a
  // time: the load does not raise it (noop allocates 250-350 bytes per event paced, the loop turn
  // and the message).
  it('waits without making garbage: a paced noop allocates well under 2 kB per event', async () => {
    const run = (await pacedAtTenThousand()).runs.find((r) => r.lib === 'noop')
    assert.equal(run.ok, true, run.error)
    assert.equal(run.rate, 10000)
    assert.ok(run.allocBytesPerEvent < 2000, `${run.allocBytesPerEvent} bytes per event, ${run.gcCount} collections`)
  })

  // A logger that stalls 20 ms on every 1,000th call, at 10,000 events/s: each stall holds back the
  // 199 events due during it, about one event in five, by up to 20 ms, and at least the first 100 of
  // them by 10 ms or more (a busy machine only delays them further). Their own calls take
  // microseconds, and the stalled calls are 0.1% of all calls: the call's p99 does not see them.
  it('records response time from each event\'s intended time, which shows the waits behind a stall that the call\'s own time misses', async () => {
    const doc = await pacedAtTenThousand()
    const stalls = doc.runs.find((r) => r.lib === 'stalls')
    assert.equal(stalls.ok, true, stalls.error)
    const response = stalls.responseLatencyNs
    const call = stalls.callLatencyNs
    // The first second's 10,000 calls are the warm-up, apart; the steady state holds the rest.
    assert.equal(response.count, 10_000)
    assert.equal(stalls.responseWarmupNs.count, 10_000)
    assert.deepEqual([STALL_MS, STALL_EVERY], [20, 1000], 'the bounds below are worked out for these')
    assert.ok(response.p99 >= 10e6 && response.p999 >= 10e6, `response p99 ${response.p99} ns, p99.9 ${response.p999} ns`)
    assert.ok(call.p99 < 5e6, `call p99 ${call.p99} ns`)
    const ordered = ['p50', 'p90', 'p99', 'p999', 'p9999', 'max'].map((key) => response[key])
    assert.deepEqual(ordered, [...ordered].sort((a, b) => a - b), JSON.stringify(response))
    // Delivery is timed from the intended time too: an event held behind a stall arrives late by its wait.
    assert.ok(stalls.deliveryLatencyMs.max >= 10, JSON.stringify(stalls.deliveryLatencyMs))
    const noop = doc.runs.find((r) => r.lib === 'noop')
    assert.equal(noop.responseLatencyNs.count + noop.responseWarmupNs.count, 20_000)
    assert.equal(doc.summary.find((s) => s.lib === 'stalls').responseP99Ns.n, 1)
  })

  it('takes a list of rates: one cell per rate, each paced at its own', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'noop', '--transport', 'file', '--rate', '2000,8000', '--events', '800', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const doc = readJson(out)
    assert.deepEqual(doc.env.options.rate, [2000, 8000])
    assert.deepEqual(doc.runs.map((r) => r.rate).sort((a, b) => a - b), [2000, 8000])
    assert.deepEqual(doc.summary.map((s) => s.rate).sort((a, b) => a - b), [2000, 8000])
    // 800 events: the last is due after 0.4 s at 2,000/s and 0.1 s at 8,000/s.
    const slow = doc.runs.find((r) => r.rate === 2000)
    assert.ok(slow.loggingMs >= 399, `${slow.loggingMs}`)
    // A run shorter than the warm-up's second keeps half its events for the steady state.
    assert.ok(doc.runs.every((r) => r.responseLatencyNs.count === 400 && r.responseWarmupNs.count === 400))
  })

  // A logger slow for its first 400 calls (1 ms each): at 5,000 events/s the calls due meanwhile
  // queue behind them, so its warm-up's p99 is hundreds of ms; its steady state is its own.
  it('reports the steady state apart from the warm-up: a cold start sets the warm-up\'s p99, not the steady state\'s', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', COLD_START, '--transport', 'file', '--rate', '5000', '--events', '10000', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const run = readJson(out).runs[0]
    assert.equal(run.ok, true, run.error)
    const [steady, warmup] = [run.responseLatencyNs, run.responseWarmupNs]
    assert.deepEqual([steady.count, warmup.count], [5000, 5000])
    assert.ok(warmup.durationMs >= 999, JSON.stringify(warmup))
    assert.ok(warmup.p99 >= 100e6 && warmup.max >= warmup.p99, JSON.stringify(warmup))
    assert.ok(steady.p99 < warmup.p99 / 2, `steady p99 ${steady.p99} ns against the warm-up's ${warmup.p99} ns`)
    assert.ok(run.reachedRate >= 0.95 * 5000 && run.reachedRate <= 5001, `reached ${run.reachedRate}`)
  })

  it('fails a run that reached under 95% of the rate asked, saying what it reached', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', COLD_START, '--transport', 'file', '--rate', '10000000', '--events', '1000', '--runs', '1', '--out', out, '--quiet'])
    assert.notEqual(result.code, 2, result.stderr)
    const run = readJson(out).runs[0]
    assert.equal(run.ok, false)
    // 400 calls of 1 ms each in 1,000 events: at most about 2,500 events/s, far under 95% of the rate.
    assert.ok(run.reachedRate > 0 && run.reachedRate < 3000, `reached ${run.reachedRate}`)
    assert.match(run.error, /^reached [\d,]+ of 10,000,000 events\/s$/)
  })

  it('keeps paced and tight-loop runs apart as different cells', async () => {
    const dir = tmpDir()
    const tight = await runCli(['run', '--lib', 'noop', '--transport', 'file', '--events', '100', '--runs', '1', '--out', path.join(dir, 't.json'), '--quiet'])
    assert.equal(tight.code, 0, tight.stderr)
    const run = readJson(path.join(dir, 't.json')).runs[0]
    assert.equal(run.rate, undefined)
    assert.equal(run.loggingMs, null)
    assert.equal(run.eventLoopDelayNs, null)
    assert.equal(run.responseLatencyNs, null)
  })

  for (const [value, expected] of [['0', /--rate must be an integer from 1 to 100000000 \(events per second per worker\), got "0"/], ['fast', /--rate must be an integer/], ['1e9', /--rate must be an integer/]]) {
    it(`refuses --rate ${value} with one line and exit code 2`, async () => {
      const result = await runCli(['run', '--lib', 'noop', '--transport', 'file', '--events', '10', '--rate', value], { cwd: tmpDir() })
      assert.equal(result.code, 2, result.stderr)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.match(result.stderr, expected)
    })
  }
})

describe('a scenario run group with "rates"', () => {
  it('paces its cells as run --rate does', async () => {
    const dir = tmpDir()
    const file = path.join(dir, 's.json')
    fs.writeFileSync(file, JSON.stringify({ name: 'paced', run: [{ libs: ['noop'], transports: ['file'], events: 200, rates: [1000], runs: 1 }] }))
    const result = await runCli(['run', '--scenario', file, '--out', path.join(dir, 'r.json'), '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const run = readJson(path.join(dir, 'r.json')).runs[0]
    assert.equal(run.rate, 1000)
    assert.ok(run.loggingMs >= 199, `${run.loggingMs}`)
  })
})
