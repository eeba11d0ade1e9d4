import assert from 'node:assert/strict'
import dgram from 'node:dgram'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { deliveryEvery, deliverySamples, DELIVERY_SAMPLES } from '../src/engine/message.js'
import { deliveryLatency, firstArrivals, Verifier } from '../src/sinks/verifier.js'
import { arrivalIndex, verifyFile } from '../src/sinks/verify-files.js'
import { ADAPTERS, readJson, runCli, tmpDir } from './helpers.js'

const MS = 1e6

describe('delivery latency: the sample and its figures', () => {
  it('samples every k-th event, at most 1,000 a worker', () => {
    assert.deepEqual([1, 999, 1000, 1001, 2_000_000].map(deliveryEvery), [1, 1, 1, 2, 2000])
    assert.deepEqual([1, 1000, 1001, 2_000_000].map(deliverySamples), [1, 1000, 501, 1000])
    assert.equal(deliveryEvery(null), 0)
    assert.ok(deliverySamples(12345) <= DELIVERY_SAMPLES)
  })

  it('gives nearest-rank percentiles of arrival minus call in ms, over the samples that arrived', () => {
    const calls = [Array.from({ length: 100 }, (_, i) => 1000 * MS + i)]
    const arrived = [calls[0].map((ns, i) => (i === 0 ? 0 : ns + i * MS))]
    assert.deepEqual(deliveryLatency(calls, arrived), { p50: 50, p90: 90, p99: 99, max: 99, samples: 99 })
    assert.equal(deliveryLatency(calls, [calls[0].map(() => 0)]), null)
  })

  it('keeps the first arrival of a sampled event, and joins parts by their earliest', () => {
    const verifier = new Verifier({ workers: 1, events: 3, payload: 'p', workload: 'string' })
    let clock = 5
    verifier.arrivalClock = () => clock
    verifier.check('w0 0: p')
    clock = 9
    verifier.check('w0 0: p')
    verifier.check('w0 2: p')
    assert.deepEqual(verifier.deliveryArrivals(), [[5, 0, 9]])
    assert.deepEqual(firstArrivals([[[5, 0, 9]], [[7, 3, 0]]]), [[5, 3, 9]])
  })

  it('times a file\'s lines by when the file had grown past them', async () => {
    const file = path.join(tmpDir(), 'w0.log')
    fs.writeFileSync(file, 'w0 0: p\nw0 1: p\nw0 2: p')
    const index = arrivalIndex()
    index.note(8, 100 * MS) // the first line and its newline
    index.note(16, 200 * MS)
    index.note(23, 300 * MS) // the last line, without its newline
    const verifier = new Verifier({ workers: 1, events: 3, payload: 'p', workload: 'string' })
    await verifyFile(file, verifier, index)
    assert.deepEqual(verifier.deliveryArrivals(), [[100 * MS, 200 * MS, 300 * MS]])
    // Without an index, a file read back after the run times nothing.
    const untimed = new Verifier({ workers: 1, events: 3, payload: 'p', workload: 'string' })
    await verifyFile(file, untimed)
    assert.deepEqual(untimed.deliveryArrivals(), [[0, 0, 0]])
  })

  it('merges notes within a millisecond of a pair\'s first into that pair', () => {
    const index = arrivalIndex()
    for (const [size, ns] of [[10, 0], [20, 0.5 * MS], [30, 0.9 * MS], [40, 1.2 * MS], [40, 5 * MS]]) {
      index.note(size, ns)
    }
    assert.deepEqual({ sizes: index.sizes, times: index.times }, { sizes: [30, 40], times: [0.9 * MS, 1.2 * MS] })
  })
})

// Timings on a shared machine: bounds wide enough for a busy one, narrow enough to tell a 50 ms
// batch (median about 25 ms, p99 about 50 ms) from a synchronous write (well under a batch). At
// 200 events/s an event is due every 5 ms: each batch holds 10, whose waits spread from 0 to 50 ms
// (the 198th of 200 samples, the p99, waits 45 ms or more), and the pacer sleeps between events
// instead of polling the clock, which it does for gaps of 4 ms or less (src/run/worker.js).
describe('delivery latency: measured at the receiving end', () => {
  it('shows a 50 ms batch and a synchronous write for what they are, on console, udp, tcp and file', async () => {
    const out = path.join(tmpDir(), 'd.json')
    const adapter = path.join(ADAPTERS, 'every-50ms.js')
    const result = await runCli(['run', '--lib', `${adapter},${adapter}:sync`, '--transport', 'console,udp,tcp,file', '--events', '200', '--rate', '200', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const runs = readJson(out).runs
    assert.equal(runs.length, 8)
    for (const run of runs) {
      const where = `${run.variant} on ${run.transport}: ${JSON.stringify(run.deliveryLatencyMs)}`
      assert.equal(run.ok, true, run.error)
      assert.equal(run.deliveryLatencyNote, null, where)
      const { p50, p90, p99, max, samples } = run.deliveryLatencyMs
      assert.ok(p50 <= p90 && p90 <= p99 && p99 <= max, where)
      assert.equal(samples, run.received, where)
      if (run.variant === 'sync') {
        assert.ok(p50 < 10, where)
      } else {
        assert.ok(p50 > 12 && p50 < 60, where)
        assert.ok(p99 > 40 && p99 < 1000, where)
      }
    }
  })

  it('is null with the reason where nothing is received or arrivals are not seen', async () => {
    const dir = tmpDir()
    const noop = await runCli(['run', '--lib', 'noop', '--transport', 'file', '--events', '100', '--runs', '1', '--out', path.join(dir, 'n.json'), '--quiet'])
    assert.equal(noop.code, 0, noop.stderr)
    // A syslog server of the user's: here a socket that takes the datagrams and nothing more.
    const server = dgram.createSocket('udp4')
    await new Promise((resolve) => server.bind(0, '127.0.0.1', resolve))
    const external = await runCli(['run', '--lib', 'raw', '--transport', 'udp', '--syslog-host', '127.0.0.1', '--syslog-port', String(server.address().port), '--events', '100', '--runs', '1', '--out', path.join(dir, 'e.json'), '--quiet'])
    server.close()
    assert.equal(external.code, 0, external.stderr)
    for (const [file, note] of [['n.json', /nothing is sent/], ['e.json', /your syslog server/]]) {
      const run = readJson(path.join(dir, file)).runs[0]
      assert.equal(run.deliveryLatencyMs, null)
      assert.match(run.deliveryLatencyNote, note)
    }
  })
})
