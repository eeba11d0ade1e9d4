import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import { readJson, ROOT, runCli, tmpDir } from './helpers.js'
import { GROWTH_MIN_BYTES, judgeOverload, longestGapMs } from '../src/results/judge/overload.js'

const ADAPTERS = path.join(ROOT, 'test', 'fixtures', 'adapters')
const MIB = 1024 * 1024

describe('overload, named from a run\'s figures', () => {
  const record = { sent: 1000, received: 1000, unblockedMs: 50, loggingMs: null, rate: null, stdoutBytes: 1e5, cpus: 1 }
  const quiet = { heapRiseBytes: MIB, rssRiseBytes: 2 * MIB }
  const judged = (changes, slowed, figures = {}) => judgeOverload({ ...record, ...changes }, slowed, {
    callStamps: [[0, 1e6, 2e6]],
    longestHeldMs: [],
    memory: [quiet],
    ...figures
  })

  it('is null where the receiving end was not slowed', () => {
    assert.equal(judged({}, {}), null)
  })

  it('names each behaviour at its threshold: blocked a quarter of the stall, one event lost, 32 MiB held', () => {
    const stall = { receiverStallMs: 1000 }
    assert.deepEqual(judged({}, stall).kinds, [])
    assert.deepEqual(judged({}, stall, { callStamps: [[0, 1e6, 251e6]] }).kinds, ['blocks'])
    assert.deepEqual(judged({}, stall, { callStamps: [[0, 1e6, 249e6]] }).kinds, [])
    assert.deepEqual(judged({ received: 999 }, stall).kinds, ['drops'])
    assert.deepEqual(judged({}, stall, { memory: [{ heapRiseBytes: GROWTH_MIN_BYTES, rssRiseBytes: 0 }] }).kinds, ['grows'])
    const both = judged({ received: 10 }, stall, { memory: [{ heapRiseBytes: 0, rssRiseBytes: 40 * MIB }, quiet] })
    assert.deepEqual(both.kinds, ['drops', 'grows'])
    assert.deepEqual([both.lostEvents, both.growthBytes, both.growthOf], [990, 42 * MIB, 'rss'])
    assert.equal(both.growthMiBPerSec, 42 / 0.05)
  })

  it('paced, blocked is the longest batch; under a slow reader, blocks where the calls took half the reading time', () => {
    assert.deepEqual(judged({ rate: 1000, loggingMs: 1000 }, { receiverStallMs: 1000 }, { callStamps: [], longestHeldMs: [300, 10] }).kinds, ['blocks'])
    // 100,000 bytes at 100,000 B/s: the reader needs 1 s.
    assert.deepEqual(judged({ unblockedMs: 600 }, { receiverRate: 100_000 }).kinds, ['blocks'])
    assert.equal(judged({ unblockedMs: 600 }, { receiverRate: 100_000 }).readingMs, 1000)
    assert.deepEqual(judged({ unblockedMs: 400 }, { receiverRate: 100_000 }).kinds, [])
  })

  it('takes the longest gap between sampled calls of any worker, skipping calls never stamped', () => {
    assert.equal(longestGapMs([[1e6, 2e6, 0, 9e6], [0, 5e6, 12e6]]), 7)
    assert.equal(longestGapMs([]), null)
  })
})

// Three fixtures, one of each kind, behind a console reader stalled for 1.5 s once a tenth of the
// 20,000 lines of 2 kB arrived: 36 MB more than any buffer between them holds.
describe('overload behind a stalled console reader', () => {
  it('reads blocks, drops and grows for the fixture of each kind, and nothing else', async () => {
    const libs = ['blocks', 'drops', 'grows'].map((kind) => path.join(ADAPTERS, `overload-${kind}.js`))
    const out = path.join(tmpDir(), 'o.json')
    const result = await runCli(['run', '--lib', libs.join(','), '--transport', 'console', '--events', '20000', '--size', '2000', '--receiver-stall', '1500', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const byLib = Object.fromEntries(readJson(out).runs.map((r) => [r.lib, r]))
    for (const kind of ['blocks', 'drops', 'grows']) {
      const run = byLib[`overload-${kind}`]
      assert.equal(run.ok, true, run.error)
      assert.deepEqual(run.overload.kinds, [kind], JSON.stringify(run.overload))
    }
    assert.ok(byLib['overload-blocks'].overload.blockedMs >= 1000, JSON.stringify(byLib['overload-blocks'].overload))
    assert.equal(byLib['overload-grows'].received, 20000)
    assert.ok(byLib['overload-drops'].overload.lostEvents > 10000, JSON.stringify(byLib['overload-drops'].overload))
  })
})
