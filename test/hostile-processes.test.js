import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import path from 'node:path'
import { describe, it } from 'node:test'
import { killChildren, signalChild } from '../src/engine/children.js'
import { readJson, runCli, tmpDir } from './helpers.js'

// Processes and signals are hostile ground too: log-bench signals only the processes it started and
// that still run, a fork the system refuses is a failed run with its reason, and every stop (a time
// limit, a signal, an abort) ends the run at once with the truth recorded. Each case: its family,
// the input, what is expected, and (in the comment) what was observed before it was fixed.

// A child whose spawn failed (EMFILE): node keeps its handle for a tick with no pid in it.
function failedSpawn () {
  const child = new EventEmitter()
  Object.assign(child, { pid: undefined, exitCode: null, signalCode: null, signals: [] })
  child.kill = (signal) => { child.signals.push(signal); return true }
  return child
}

describe('signals go only to processes log-bench started and that still run', () => {
  // Observed: killChildren called kill() on it, which signalled pid 0 (the whole process group:
  // the user's shell died) or the handle's garbage pid.
  it('a child without a pid (its spawn failed) is never signalled, and is not waited for', async () => {
    const child = failedSpawn()
    await killChildren([child])
    assert.equal(signalChild(child, 'SIGTERM'), false)
    assert.deepEqual(child.signals, [])
  })

  it('a child that has exited is not signalled again (its pid may be another process\'s by now)', () => {
    const child = failedSpawn()
    Object.assign(child, { pid: 4242, exitCode: 0 })
    assert.equal(signalChild(child), false)
    assert.deepEqual(child.signals, [])
  })

  // Observed: at ulimit -n 128, --cpus 64: an unhandled 'error' event (spawn EMFILE) with a stack
  // trace, exit 1 and no run saved; or kill(0, SIGKILL). Run in a session of its own (detached), so
  // that a stray kill(0) could only reach log-bench itself.
  it('a fork refused for want of file descriptors is a failed run with the reason, saved, and log-bench exits 0', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const r = await runCli(['run', '--lib', 'raw', '--transport', 'console,file', '--cpus', '24', '--events', '100', '--runs', '1', '--out', out], { openFiles: 48, detached: true, timeoutMs: 180_000 })
    assert.equal(r.signal, null, r.stderr)
    assert.equal(r.code, 0, r.stderr)
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace')
    const doc = readJson(out)
    assert.equal(doc.runs.length, 2)
    for (const record of doc.runs) {
      assert.equal(record.status, 'failed')
      assert.match(record.error, /worker \d+ could not be started: .*(EMFILE|Too many open files).*ulimit -n, is 48/)
    }
  })

  // Observed: EMFILE with a stack trace while node loaded log-bench's modules, exit 1.
  it('--help works at ulimit -n 64', async () => {
    const r = await runCli(['--help'], { openFiles: 64 })
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /log-bench run/)
    assert.equal(r.stderr, '')
  })
})
