import assert from 'node:assert/strict'
import fs from 'node:fs'
import { describe, it } from 'node:test'
import { RunFailure } from '../src/errors.js'
import { spawnSink } from '../src/sinks/embedded-sink.js'

// The embedded sink dying at each moment the primary talks to it: starting, a counts request in
// flight, a counts request to a sink already dead, stopping. Each must be a RunFailure with the
// reason (the run's failure) or nothing at all, never a plain Error (the harness's "internal error").
// The moments are made exact with signals, not with timing.

const OPTIONS = { udpPort: 0, tcpPort: null, workers: 1, events: 10, payload: 'Hello, world!', udpReceivers: 1 }
const KILLED = /the embedded syslog sink \(pid \d+\) was killed by SIGKILL/

function children () {
  return fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number)
}

// Dead but not yet reaped: the kernel has closed its end of the IPC channel, while this process,
// which has not run its event loop since, still believes the channel connected.
function killAndWaitForZombie (pid) {
  process.kill(pid, 'SIGKILL')
  while (!/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')));
}

const isRunFailure = (pattern) => (err) => {
  assert.ok(err instanceof RunFailure, `${err?.constructor?.name}: ${err?.message}`)
  assert.match(err.message, pattern)
  return true
}

describe('the embedded sink dying while the primary talks to it', () => {
  it('killed while starting: a RunFailure with the reason', async () => {
    const before = new Set(children())
    const starting = spawnSink(OPTIONS)
    const [pid] = children().filter((p) => !before.has(p))
    assert.ok(pid, 'the sink process was not found')
    process.kill(pid, 'SIGKILL')
    await assert.rejects(starting, isRunFailure(KILLED))
  })

  it('killed with a counts request in flight: a RunFailure with the reason', async () => {
    const sink = await spawnSink(OPTIONS)
    // Stopped, it cannot answer before it is killed.
    process.kill(sink.pid, 'SIGSTOP')
    const counting = sink.counts()
    process.kill(sink.pid, 'SIGKILL')
    await assert.rejects(counting, isRunFailure(KILLED))
    await sink.stop()
  })

  it('dead (not yet reaped) when counts are asked for: a RunFailure with the reason', async () => {
    const sink = await spawnSink(OPTIONS)
    killAndWaitForZombie(sink.pid)
    await assert.rejects(sink.counts(), isRunFailure(KILLED))
    await assert.rejects(sink.counts(), isRunFailure(KILLED))
    await sink.stop()
  })

  it('dead (not yet reaped) when it is stopped: stop() resolves', async () => {
    const sink = await spawnSink(OPTIONS)
    killAndWaitForZombie(sink.pid)
    await sink.stop()
    assert.match(await sink.exited, KILLED)
  })
})
