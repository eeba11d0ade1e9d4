import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { invalidMessage, MESSAGES } from '../src/engine/messages.js'
import { ADAPTERS, leftovers, readJson, runCli, tmpDir } from './helpers.js'

// Every message from a forked process is untrusted input: the adapter shares the worker's process
// and can call process.send. A bad message fails that run only, with the reason.

describe('a worker message is checked before any of it is used', () => {
  const bad = [
    [{ type: 'unblocked', at: 'x', startedAt: 'x' }, /"at" is "x", not a hrtime string/],
    [{ type: 'unblocked', at: '5', startedAt: '9' }, /"at" is before its "startedAt"/],
    [{ type: 'unblocked', at: '1'.repeat(21), startedAt: '1' }, /"at" is "1{21}", not/],
    [{ type: 'unblocked', at: '99999999999999999999', startedAt: '1' }, /not a hrtime string/],
    [{ type: 'closed', at: 'nope' }, /"at" is "nope"/],
    [{ type: 'closed', at: '7', cpuUserMs: -1, cpuSystemMs: 0, maxRssBytes: 0, heapPeakBytes: 0, gcCount: 0, gcPauseMs: 0 }, /"cpuUserMs" is -1, not a finite number >= 0/],
    [{ type: 'closed', at: '7', cpuUserMs: 1, cpuSystemMs: 0, maxRssBytes: 0, heapPeakBytes: 0, gcCount: 0.5, gcPauseMs: 0 }, /"gcCount" is 0\.5, not a whole number/],
    [{ type: 'closed', at: '7', cpuUserMs: 1, cpuSystemMs: 0, maxRssBytes: null, heapPeakBytes: 0, gcCount: 0, gcPauseMs: 0 }, /"maxRssBytes" is null/],
    [{ type: 'heap', heapBytes: '12' }, /"heapBytes" is "12"/],
    [{ type: 'heap' }, /"heapBytes" is missing/],
    [{ type: 'error', phase: 'setup', message: { toString: 1 } }, /"message" is \{"toString":1\}, not a string/],
    [{ type: 'error', phase: 'setup', message: 'x'.repeat(1000) }, null],
    [{ type: 'toString' }, null],
    [{ type: '__proto__' }, null],
    [{ type: { type: 'closed' } }, null],
    [{ topic: 'log4js:message', data: 'cluster traffic' }, null]
  ]
  for (const [message, expected] of bad) {
    it(JSON.stringify(message).slice(0, 80), () => {
      const reason = invalidMessage(MESSAGES.runWorker, message)
      if (expected) assert.match(reason, expected)
      else assert.equal(reason, null)
      assert.ok(!reason || reason.length < 200)
    })
  }

  it('http server workers: a port outside 1..65535 and a negative count are refused', () => {
    assert.match(invalidMessage(MESSAGES.serverWorker, { type: 'listening', port: 70000 }), /"port" is 70000/)
    assert.match(invalidMessage(MESSAGES.serverWorker, { type: 'closed', logged: -3, cpuUserMs: 0, cpuSystemMs: 0, maxRssBytes: 0, measuredMs: 1 }), /"logged" is -3/)
  })
})

describe('an adapter that sends bad messages fails its own run; the matrix goes on', () => {
  const cases = [
    ['unblocked with "x" timestamps, while building the logger', [{ when: 'create', message: { type: 'unblocked', at: 'x', startedAt: 'x' } }], /worker 0 sent a malformed "unblocked" message \(its "at" is "x"/],
    ['closed with "nope", from close()', [{ when: 'close', message: { type: 'closed', at: 'nope' } }], /worker 0 sent a malformed "closed" message/],
    ['a well-formed closed before the start', [{ when: 'create', message: { type: 'closed', at: '1', cpuUserMs: 1, cpuSystemMs: 1, maxRssBytes: 1, heapPeakBytes: 1, gcCount: 1, gcPauseMs: 1 } }], /worker 0 reported "closed" before the start/]
  ]
  for (const [name, messages, reason] of cases) {
    it(name, async () => {
      const dir = tmpDir()
      const out = path.join(dir, 'r.json')
      const result = await runCli(['run', '--lib', `${path.join(ADAPTERS, 'sends-messages.js')},noop`, '--transport', 'file', '--events', '100', '--runs', '1', '--order', 'blocked', '--quiet', '--dir', dir, '--out', out], { env: { LOG_BENCH_FIXTURE_MESSAGES: JSON.stringify(messages) } })
      assert.equal(result.code, 0, result.stderr)
      assert.doesNotMatch(result.stderr, /BigInt|internal error|at .+\.js:\d+/)
      const doc = readJson(out)
      assert.equal(doc.complete, true)
      // Cells run interleaved in a seeded order: found by library, not by position.
      const [bad, noop] = ['sends-messages', 'noop'].map((lib) => doc.runs.find((r) => r.lib === lib))
      assert.equal(bad.status, 'failed')
      assert.match(bad.error, reason)
      assert.equal(noop.status, 'ok')
      assert.deepEqual(fs.readdirSync(dir), ['r.json'])
      assert.deepEqual(leftovers(result.tag), [])
    })
  }
})
