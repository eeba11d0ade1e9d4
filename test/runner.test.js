import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import path from 'node:path'
import { describe, it } from 'node:test'
import { trackChild } from '../src/engine/children.js'
import { watcher } from '../src/runner/watcher.js'
import { Interrupted, RunFailure } from '../src/errors.js'
import { leftovers, readJson, runCli, tmpDir } from './helpers.js'

// A child process as trackChild sees it, whose events the test fires in the order it wants.
function fakeChild () {
  const child = new EventEmitter()
  child.connected = true
  child.sent = []
  child.send = (msg) => child.sent.push(msg)
  child.disconnect = () => {
    child.connected = false
    child.emit('disconnect')
  }
  return child
}

function follow (child, options = {}) {
  const exits = []
  const entry = trackChild(child, { name: 'server worker 0', config: { size: 13 }, ...options, onExit: (failure, signal) => exits.push({ failure, signal }) })
  return { entry, exits }
}

describe('the child tracker (run workers, http server workers, the load generator)', () => {
  it('does not fail a child whose last IPC message arrives after its exit', () => {
    const child = fakeChild()
    const { entry, exits } = follow(child)
    child.emit('exit', 0, null)
    assert.deepEqual(exits, [], 'the exit is not judged while the IPC channel is open')
    child.emit('message', { type: 'closed', logged: 5 })
    child.disconnect()
    assert.deepEqual(exits, [{ failure: null, signal: null }])
    assert.equal(entry.closed.logged, 5)
    assert.equal(entry.exited, true)
  })

  it('fails a child that exits without its last message, with the reason it gave or its exit', () => {
    const crashed = fakeChild()
    const first = follow(crashed)
    crashed.emit('exit', 3, null)
    crashed.disconnect()
    assert.deepEqual(first.exits, [{ failure: 'server worker 0 crashed with exit code 3', signal: null }])

    const failed = fakeChild()
    const second = follow(failed, { phases: { uncaught: 'serving requests (uncaught error)' } })
    failed.emit('message', { type: 'error', phase: 'uncaught', message: 'destination exploded' })
    failed.disconnect()
    failed.emit('exit', 1, null)
    assert.deepEqual(second.exits, [{ failure: 'server worker 0 failed while serving requests (uncaught error): destination exploded', signal: null }])
  })

  it('answers the child\'s request for its configuration over IPC', () => {
    const child = fakeChild()
    follow(child)
    const before = process.hrtime.bigint()
    child.emit('message', { type: 'configure' })
    const [{ primaryNs, ...answer }] = child.sent
    assert.deepEqual(answer, { type: 'config', config: { size: 13 } })
    // The primary's clock, for a worker whose runtime has its own (see now() in child-side.js).
    assert.ok(BigInt(primaryNs) >= before && BigInt(primaryNs) <= process.hrtime.bigint())
  })
})

describe('the watcher (time limit and interrupt of run and http)', () => {
  it('keeps a failure reported between waits and rejects the next wait with it', async () => {
    const watch = watcher(null, 60_000)
    try {
      watch.fail('server worker 0 crashed with exit code 1')
      await assert.rejects(watch.race(new Promise(() => {}), 'under load'), (err) => err instanceof RunFailure && /crashed with exit code 1/.test(err.message))
    } finally {
      watch.dispose()
    }
  })

  it('restart(limit): the new limit counts from then, a phase after it has the whole of it', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] })
    const watch = watcher(null, 60_000)
    try {
      t.mock.timers.tick(59_999)
      watch.restart(3000)
      const waiting = watch.until(() => false, 'logging')
      let timedOut = false
      waiting.catch(() => { timedOut = true })
      t.mock.timers.tick(2999)
      await new Promise((resolve) => setImmediate(resolve))
      assert.equal(timedOut, false)
      t.mock.timers.tick(1)
      await assert.rejects(waiting, (err) => err instanceof RunFailure && err.message === 'timed out after 3 s while logging')
    } finally {
      watch.dispose()
    }
  })

  it('turns an abort into Interrupted', async () => {
    const controller = new AbortController()
    const watch = watcher(controller.signal, 60_000)
    try {
      const waiting = watch.until(() => false, 'logging')
      controller.abort('SIGINT')
      await assert.rejects(waiting, (err) => err instanceof Interrupted && err.signal === 'SIGINT')
    } finally {
      watch.dispose()
    }
  })
})

describe('worker configuration over IPC: a 1 MiB payload', () => {
  const dir = tmpDir()

  it('runs on every transport (UDP records that a datagram cannot hold it)', async () => {
    const out = path.join(dir, 'run.json')
    const result = await runCli(['run', '--lib', 'raw', '--transport', 'console,file,udp,tcp', '--size', '1048576', '--events', '2', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    assert.doesNotMatch(result.stderr, /E2BIG/)
    const byTransport = Object.fromEntries(readJson(out).runs.map((r) => [r.transport, r]))
    for (const transport of ['console', 'file', 'tcp']) {
      assert.equal(byTransport[transport].ok, true, `${transport}: ${byTransport[transport].error}`)
      assert.equal(byTransport[transport].size, 1048576)
      assert.equal(byTransport[transport].received, 2)
    }
    assert.ok(byTransport.udp.ok || /EMSGSIZE/.test(byTransport.udp.error), byTransport.udp.error)
    assert.deepEqual(leftovers(result.tag), [])
  })

  // file, not tcp: hundreds of MiB a second through loopback TCP made the kernel answer ENOBUFS once
  // on CI (a failed run of the raw baseline, not of the configuration this test is about).
  it('runs in http', async () => {
    const out = path.join(dir, 'http.json')
    const result = await runCli(['http', '--lib', 'raw', '--transport', 'file', '--size', '1048576', '--logs-per-request', '1', '--duration', '1', '--warmup', '0', '--connections', '1', '--runs', '1', '--port', '0', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const runs = readJson(out).runs
    assert.ok(runs.every((r) => r.ok), JSON.stringify(runs.map((r) => r.error)))
    const raw = runs.find((r) => r.lib === 'raw')
    assert.ok(raw.sent > 0)
    assert.equal(raw.received, raw.sent)
    assert.deepEqual(leftovers(result.tag), [])
  })
})
