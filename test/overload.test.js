import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import { readJson, ROOT, runCli, tmpDir } from './helpers.js'
import { GROWTH_MIN_BYTES, judgeOverload, longestGapMs } from '../src/results/judge/overload.js'
import { overloadOf } from '../src/report/run/latency-section.js'

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
    // The worker whose memory rose most, per second of the stall (1 s).
    assert.deepEqual([both.lostEvents, both.growthBytes, both.growthOf], [990, 40 * MIB, 'rss'])
    assert.equal(both.growthMiBPerSec, 40)
  })

  it('judges each worker on its own: 8 workers holding 4.5 MB each do not grow', () => {
    const eight = Array.from({ length: 8 }, () => ({ heapRiseBytes: 4.5e6, rssRiseBytes: 4.5e6 }))
    const figures = { memory: eight, callStamps: Array(8).fill([0, 1e6]) }
    assert.deepEqual(judged({ cpus: 8 }, { receiverStallMs: 1000 }, figures).kinds, [])
  })

  it('says what was logged during the stall against the buffers between logger and reader, and whether it could judge blocking', () => {
    // 1,000 stamps over 10,000 events: each stands for 10 events of 100 bytes; 500 fall in the stall.
    const stamps = Array.from({ length: 1000 }, (_, i) => i * 1e6)
    const o = judged({ events: 10000, transport: 'console', pipeBytes: 65536 }, { receiverStallMs: 500 }, { callStamps: [stamps], stallEndNs: 1000e6, bytesPerEvent: 100 })
    assert.deepEqual([o.loggedBytes, o.bufferBytes, o.judged], [500 * 10 * 100, 65536, true])
    const unmeasured = judged({ rate: 1000, loggingMs: 1000 }, { receiverStallMs: 1000 }, { longestHeldMs: [] })
    assert.equal(unmeasured.judged, false)
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
    const { runs } = readJson(out)
    const byLib = Object.fromEntries(runs.filter((r) => r.receiverStallMs === 1500).map((r) => [r.lib, r]))
    for (const kind of ['blocks', 'drops', 'grows']) {
      const run = byLib[`overload-${kind}`]
      assert.equal(run.ok, true, run.error)
      assert.deepEqual(run.overload.kinds, [kind], JSON.stringify(run.overload))
      // Each slowed cell is measured beside its control, read at full speed, and judged against it.
      const control = runs.find((r) => r.lib === run.lib && r.receiverStallMs == null)
      assert.equal(control?.ok, true, control?.error)
      const controlFigures = JSON.stringify(control)
      assert.ok(control.callGapMaxMs > 0 && control.memoryRiseBytes != null && control.overload === null,
        controlFigures)
      // In a tight loop the growing fixture holds its lines whether the reader reads or not (its
      // writes wait for the loop to end): its control grows as much, so the stall made it grow
      // nothing, and nothing was logged while the reader stalled (it stalls once lines arrive).
      // Paced, below, it is decided.
      if (kind === 'grows') {
        const against = `${control.memoryRiseBytes} against ${run.overload.growthBytes}`
        assert.ok(control.memoryRiseBytes > run.overload.growthBytes - GROWTH_MIN_BYTES, against)
        assert.equal(overloadOf([run], runs).kinds, 'too little logged to tell')
      } else if (kind === 'drops') {
        // Likewise the dropping fixture loses lines in a tight loop with the reader at full speed (the
        // loop never yields for the pipe to drain): against its control the stall's losses are those
        // beyond the control's, drops only if there are any. Paced, below, its control loses none.
        const controlLost = control.sent - control.received
        assert.ok(controlLost > 0, controlFigures)
        assert.equal(overloadOf([run], runs).kinds, run.overload.lostEvents > controlLost ? 'drops' : 'loses as many at full speed')
      } else {
        assert.equal(overloadOf([run], runs).kinds, kind)
      }
    }
    assert.ok(byLib['overload-blocks'].overload.blockedMs >= 1000, JSON.stringify(byLib['overload-blocks'].overload))
    assert.equal(byLib['overload-grows'].received, 20000)
    assert.ok(byLib['overload-drops'].overload.lostEvents > 10000, JSON.stringify(byLib['overload-drops'].overload))
  })
})

// The same fixtures paced (scenarios/overload.json's design, small): 2,500 events/s of 16,000
// bytes for 4 s, the reader stalled 3 s once a tenth arrived, so 7,500 calls (114 MiB) come during
// the stall: over 4 times the console's buffers, and over 3 times TCP's (36 MiB here), so each
// fixture has to wait, lose or hold them. The tight loop's growing fixture above logged nothing
// during the stall; paced, every verdict is decided. 40 MB/s, not more: on a busy machine a reader
// at full speed falls behind a faster logger, and the control then holds as much as the stall.
describe('overload behind a reader stalled while the calls keep coming (paced)', () => {
  it('decides every verdict, on the console and over TCP, each cell beside its control', async () => {
    const kinds = { console: ['blocks', 'drops', 'grows'], tcp: ['drops', 'grows'] }
    const dir = tmpDir()
    // The two transports side by side: each verdict is judged against its own control, measured in
    // the same invocation, so a neighbour's load falls on both alike (40 MB/s keeps a busy reader
    // ahead of the logger, as above).
    const runs = (await Promise.all(Object.entries(kinds).map(async ([transport, libs]) => {
      const out = path.join(dir, `${transport}.json`)
      const result = await runCli(['run', '--lib', libs.map((kind) => path.join(ADAPTERS, `overload-${kind}.js`)).join(','), '--transport', transport, '--events', '10000', '--rate', '2500', '--size', '16000', '--receiver-stall', '3000', '--runs', '1', '--timeout', '60', '--out', out, '--quiet'])
      assert.equal(result.code, 0, result.stderr)
      return readJson(out).runs
    }))).flat()
    for (const [transport, libs] of Object.entries(kinds)) {
      for (const kind of libs) {
        const lib = `overload-${kind}`
        const stalled = runs.filter((r) => r.lib === lib && r.transport === transport && r.receiverStallMs === 3000)
        assert.equal(stalled.length, 1, `${lib} ${transport}`)
        const [run] = stalled
        const figures = JSON.stringify({ error: run.error, overload: run.overload, reachedRate: run.reachedRate })
        assert.equal(run.ok, true, figures)
        assert.equal(run.rate, 2500)
        // Planned beside it: the same cell, paced alike, read at full speed.
        const control = runs.find((r) => r.lib === lib && r.transport === transport && r.rate === 2500 &&
          r.receiverStallMs == null)
        assert.ok(control, `${lib} ${transport} has no control`)
        // The stall lies inside the run, where the page's chart marks it.
        assert.ok(run.stallEndMs >= 3000 && run.stallEndMs < run.doneMs, `stallEndMs ${run.stallEndMs}, done ${run.doneMs}`)
        const verdict = overloadOf(stalled, runs)
        assert.equal(verdict.kinds, kind, `${lib} ${transport}: ${JSON.stringify(verdict)} ${figures}`)
      }
    }
  })
})

describe('--receiver-stall and --receiver-rate where they cannot act', () => {
  for (const [args, expected] of [
    [['--transport', 'console,file', '--receiver-stall', '100'], /--receiver-stall applies to the console and tcp transports only \(their reading is slowed\), not to file/],
    [['--transport', 'tcp', '--syslog', 'rsyslog', '--receiver-rate', '1000'], /--receiver-rate applies to the embedded receiving end only: rsyslogd's reading over tcp cannot be slowed/]
  ]) {
    it(`refuses ${args.join(' ')} with one line and exit code 2`, async () => {
      const result = await runCli(['run', '--lib', 'raw', ...args, '--out', path.join(tmpDir(), 'x.json')])
      assert.equal(result.code, 2, result.stderr)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.match(result.stderr, expected)
    })
  }
})
