import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import { ADAPTERS, readJson, runCli, tmpDir } from './helpers.js'

const DEFERS = path.join(ADAPTERS, 'defers-to-next-tick.js')
const EVENTS = 1000
// The fixture spins 100 µs in each deferred write: the deferred work of a run is at least this long.
const DEFERRED_MS = EVENTS * 0.1

describe('unblocked: until the event loop is free', () => {
  it('holds the work a logger deferred to process.nextTick; loopReturnedMs is when the last call returned', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', `${DEFERS},pino`, '--transport', 'file', '--events', String(EVENTS), '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const doc = readJson(out)
    const defers = doc.runs.find((r) => r.lib === 'defers-to-next-tick')
    assert.equal(defers.ok, true, defers.error)
    assert.equal(defers.received, EVENTS)
    assert.ok(defers.unblockedMs - defers.loopReturnedMs >= DEFERRED_MS, `loop returned ${defers.loopReturnedMs} ms, unblocked ${defers.unblockedMs} ms`)
    for (const run of doc.runs) {
      const inOrder = run.loopReturnedMs > 0 && run.loopReturnedMs <= run.unblockedMs && run.unblockedMs <= run.doneMs
      assert.ok(inOrder, JSON.stringify(run))
    }
    assert.ok(doc.summary.find((s) => s.lib === 'defers-to-next-tick').loopReturnedMs.median > 0)
  })

  it('--burst 10 yields between bursts: the deferred work runs before the last call returns', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', DEFERS, '--transport', 'file', '--events', String(EVENTS), '--burst', '10,all', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const doc = readJson(out)
    assert.deepEqual(doc.env.options.bursts, [10, 'all'])
    const inBursts = doc.runs.find((r) => r.burst === 10)
    const inOneLoop = doc.runs.find((r) => r.burst === undefined)
    assert.equal(inBursts.ok, true, inBursts.error)
    assert.equal(inBursts.received, EVENTS)
    assert.ok(inBursts.loopReturnedMs >= DEFERRED_MS, `in bursts of 10 the loop returned at ${inBursts.loopReturnedMs} ms`)
    assert.ok(inOneLoop.loopReturnedMs < inOneLoop.unblockedMs - DEFERRED_MS, JSON.stringify(inOneLoop))
    assert.equal(doc.summary.length, 2, 'a burst size is a cell of its own')
  })

  it('refuses --burst beside --rate, and a burst that is not a count, with one line', async () => {
    for (const [args, pattern] of [
      [['--burst', '10', '--rate', '1000'], /^log-bench: --burst and --rate both set how the worker yields/],
      [['--burst', '0'], /^log-bench: --burst must be/],
      [['--burst', 'some'], /^log-bench: --burst must be/]
    ]) {
      const result = await runCli(['run', '--lib', 'noop', '--transport', 'file', '--events', '10', '--runs', '1', ...args])
      assert.equal(result.code, 2, result.stderr)
      assert.match(result.stderr.trim(), pattern)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
    }
  })
})
