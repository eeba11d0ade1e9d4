import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { MAX_UNBOUNDED_EVENTS, Verifier } from '../src/sinks/verifier.js'

// An HTTP server logs as many events as the load allows, so its receiver cannot size the bitset ahead.
describe('Verifier with an unknown event count (events: null)', () => {
  it('grows with the sequence numbers that arrive and still finds duplicates', () => {
    const verifier = new Verifier({ workers: 2, events: null, payload: 'abc' })
    for (let seq = 0; seq < 100_000; seq++) assert.equal(verifier.check(`w1 ${seq}: abc`), true)
    assert.equal(verifier.check('w1 99999: abc'), false)
    assert.equal(verifier.check('w0 5000000: abc'), true)
    assert.equal(verifier.check('w0 5000000: abc'), false)
    const counts = verifier.counts(100_002)
    assert.deepEqual(
      { ...counts, dropRate: null },
      { sent: 100_002, received: 100_001, corrupt: 0, duplicates: 2, dropRate: null }
    )
    assert.ok(Math.abs(counts.dropRate - 1 / 100_002) < 1e-12)
  })

  it('rejects a worker out of range, a wrong payload and a sequence number past the cap as corrupt', () => {
    const verifier = new Verifier({ workers: 1, events: null, payload: 'abc' })
    assert.equal(verifier.check('w1 0: abc'), false)
    assert.equal(verifier.check('w0 0: abd'), false)
    assert.equal(verifier.check(`w0 ${MAX_UNBOUNDED_EVENTS}: abc`), false)
    assert.equal(verifier.corrupt, 3)
    assert.equal(verifier.received, 0)
  })

  it('keeps a fixed count fixed: a sequence number at or past events is corrupt', () => {
    const verifier = new Verifier({ workers: 1, events: 10, payload: 'abc' })
    assert.equal(verifier.check('w0 9: abc'), true)
    assert.equal(verifier.check('w0 10: abc'), false)
    assert.equal(verifier.bits[0].length, 2)
  })
})
