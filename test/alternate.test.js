import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import { leftovers, readJson, ROOT, runCli, tmpDir } from './helpers.js'
import { compareCellRuns, roundsOf } from '../src/results/rounds.js'
import { ALTERNATE_SLICE_SECONDS } from '../src/api/option-tables.js'

const HANDICAPPED = path.join(ROOT, 'test', 'fixtures', 'adapters', 'pino-2ms.js')
const SHORT = ['--duration', '1', '--warmup', '0', '--connections', '4', '--runs', '1', '--quiet']
const INTERLEAVED = roundsOf({ env: { order: { mode: 'interleaved', seed: 1 } } })
const reqPerSec = (r) => r.reqPerSec?.mean

// A machine whose speed halves and recovers from run to run: each run's servers serve `speed` × their
// own rate, the library's and its baseline's alike (they alternate within the run).
const SPEEDS = [1, 0.5, 0.9, 0.45, 1.05, 0.6]
const run = (lib, round, rate, baselineRate, { baseline = true } = {}) => ({
  lib,
  run: round,
  ok: true,
  reqPerSec: { mean: rate },
  ...(baseline ? { baseline: { lib: 'none', reqPerSec: { mean: baselineRate } } } : {})
})
// Each run's own deviation (±0.5%) on top of the machine's speed.
const wobble = (i) => 1 + ((i * 7) % 5 - 2) * 0.0025
const cell = (lib, share, options) => SPEEDS.map((speed, i) =>
  run(lib, i + 1, 5000 * speed * share * wobble(i), 5000 * speed * wobble(i + 3), options))

describe('http --alternate: comparisons made within each run', () => {
  it('a library against none: each run is a pair (its slices against its baseline\'s), so the machine\'s speed cancels', () => {
    const result = compareCellRuns(cell('none', 1), cell('pino', 0.9), reqPerSec, { roundOf: INTERLEAVED, better: 'higher' })
    assert.equal(result.paired, true)
    assert.equal(result.pairs, 6)
    assert.equal(result.verdict, 'slower')
    assert.ok(result.ratio > 0.88 && result.ratio < 0.92, String(result.ratio))
    assert.ok(result.ciHigh / result.ciLow < 1.03, `interval [${result.ciLow}, ${result.ciHigh}]`)
  })

  it('none against none (the A/A every alternated plan holds): same, within ±2%', () => {
    const result = compareCellRuns(cell('none', 1), cell('none', 1), reqPerSec, { roundOf: INTERLEAVED, better: 'higher' })
    assert.equal(result.verdict, 'same')
    assert.ok(result.ciLow > 0.98 && result.ciHigh < 1.02, `[${result.ciLow}, ${result.ciHigh}]`)
  })

  it('single-server runs, where the machine\'s speed changed between none\'s run and pino\'s within a round: unclear', () => {
    // none's run of each round came at another moment of the round than pino's: its speed is the next one's.
    const speed = (i) => SPEEDS[i % SPEEDS.length]
    const solo = (lib, share, shift) =>
      SPEEDS.map((_, i) => run(lib, i + 1, 5000 * speed(i + shift) * share, null, { baseline: false }))
    const result = compareCellRuns(solo('none', 1, 1), solo('pino', 0.9, 0), reqPerSec, { roundOf: INTERLEAVED, better: 'higher' })
    assert.equal(result.paired, true)
    assert.equal(result.verdict, 'unclear')
  })

  it('two libraries: each as a multiple of its own run\'s baseline, paired by round', () => {
    const result = compareCellRuns(cell('winston', 0.8), cell('pino', 0.9), reqPerSec, { roundOf: INTERLEAVED, better: 'higher' })
    assert.equal(result.paired, true)
    assert.equal(result.verdict, 'faster')
    assert.ok(Math.abs(result.ratio - 0.9 / 0.8) < 0.02, String(result.ratio))
  })

  it('the baseline\'s side first: the same comparison read the other way', () => {
    const result = compareCellRuns(cell('pino', 0.9), cell('none', 1), reqPerSec, { roundOf: INTERLEAVED, better: 'higher' })
    assert.equal(result.verdict, 'faster')
    assert.ok(result.ratio > 1.08 && result.ratio < 1.14, String(result.ratio))
  })
})

describe('log-bench http --alternate: two servers per run, the load in slices between them', () => {
  const out = path.join(tmpDir(), 'alternate.json')
  let result
  let doc

  // One plan for both modes: --middleware runs each library's request logger and, as its control, the
  // route at 0 logs per request, which is the plan of `--lib pino --logs-per-request 0` whole.
  it('finishes with exit code 0', async () => {
    result = await runCli(['http', '--lib', 'pino', '--middleware', '--alternate', ...SHORT, '--out', out])
    assert.equal(result.code, 0, result.stderr)
    doc = readJson(out)
    assert.equal(doc.complete, true)
  })

  it('records each run\'s baseline: the app without logging, served in as many slices, logging nothing', () => {
    for (const r of doc.runs) {
      assert.equal(r.ok, true, r.error)
      assert.equal(r.alternate, ALTERNATE_SLICE_SECONDS)
      assert.equal(r.baseline.lib, 'none')
      assert.ok(r.requests > 0 && r.baseline.requests > 0, r.lib)
      assert.equal(r.baseline.slices % 2, 0)
      assert.ok(r.baseline.slices >= 2)
      assert.ok(r.loadSeconds > 0.5 && r.baseline.loadSeconds > 0.5, `${r.loadSeconds} ${r.baseline.loadSeconds}`)
      assert.ok(r.baseline.serverCpuUsPerRequest > 0)
      // The server's CPU use over its own slices' time: it idles while the load is on the baseline's.
      const ownPct = ((r.serverCpuUserMs + r.serverCpuSystemMs) / (r.loadSeconds * 1000)) * 100
      assert.ok(Math.abs(r.serverCpuPct - ownPct) < 1e-9, `${r.serverCpuPct} ${ownPct}`)
      assert.equal(typeof r.baseline.latencyMs.p99, 'number')
      if (r.placement.pinned) assert.deepEqual(r.placement.observed.baselineServer, [r.serverCpus])
    }
    const pino = doc.runs.find((r) => r.lib === 'pino' && r.mode === 'route')
    assert.equal(pino.logsPerRequest, 0)
    assert.equal(pino.sent, 0, 'the control logs nothing')
    assert.equal(pino.received, 0)
  })

  it('compares pino with the baseline of its own run', () => {
    const entry = doc.summary.find((s) => s.lib === 'pino' && s.mode === 'route')
    const pino = doc.runs.find((r) => r.lib === 'pino' && r.mode === 'route')
    assert.equal(entry.throughputVsBaseline.pairs, 1)
    assert.ok(Math.abs(entry.throughputVsBaseline.ratio - pino.reqPerSec.mean / pino.baseline.reqPerSec.mean) < 1e-9)
  })

  it('leaves no server or load generator running', async () => {
    await new Promise((resolve) => setTimeout(resolve, 200))
    assert.deepEqual(leftovers(result.tag), [])
  })

  it('a known cost (2 ms of busy work per event, 2 events per request) reads in the run: each server is loaded alone', async () => {
    // The two servers are cluster workers of one process: on one port they would share a listening
    // socket, each slice's connections would reach both, and the two sides would read alike.
    const costly = path.join(tmpDir(), 'handicapped.json')
    const run = await runCli(['http', '--lib', HANDICAPPED, '--logs-per-request', '2', '--alternate', ...SHORT, '--out', costly])
    assert.equal(run.code, 0, run.stderr)
    const handicapped = readJson(costly).runs.find((r) => r.lib === 'pino-2ms')
    assert.equal(handicapped.ok, true, handicapped.error)
    // At least 4 ms a request: at most 250 requests/s, where the app without logging serves thousands.
    assert.ok(handicapped.reqPerSec.mean < 0.6 * handicapped.baseline.reqPerSec.mean, `${handicapped.reqPerSec.mean} against ${handicapped.baseline.reqPerSec.mean}`)
    assert.ok(handicapped.serverCpuUsPerRequest > 2 * handicapped.baseline.serverCpuUsPerRequest, `${handicapped.serverCpuUsPerRequest} against ${handicapped.baseline.serverCpuUsPerRequest}`)
    assert.ok(handicapped.sent >= 2 * handicapped.requests && handicapped.received === handicapped.sent)
    await new Promise((resolve) => setTimeout(resolve, 200))
    assert.deepEqual(leftovers(run.tag), [])
  })

  it('--middleware: each library\'s own request logger against the app without logging, which logs nothing', () => {
    // Beside it, pino's route at 0 logs per request: the control of a middleware plan.
    const pino = doc.runs.find((r) => r.lib === 'pino' && r.mode === 'middleware')
    assert.equal(pino.ok, true, pino.error)
    assert.equal(pino.middleware, 'pino-http')
    // One event per request answered (and any the load cut short), each of them counted.
    assert.ok(pino.sent >= pino.requests && pino.received === pino.sent, `${pino.sent} ${pino.requests} ${pino.received}`)
    assert.ok(pino.baseline.requests > 0)
    // What the run left running: 'leaves no server or load generator running', on this run's tag.
  })
})
