import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { ownerOf } from '../src/engine/run-dir.js'
import { withLock } from '../src/versions/cache.js'
import { ADAPTERS, leftovers, readJson, runCli, taggedPids, tmpDir, waitFor } from './helpers.js'

// Processes and signals as hostile ground (hostile-processes.test.js), the cases that assert a time:
// an exit within seconds of a signal or of a time limit, a run inside its --timeout or its kill
// timer, a lock taken without a wait. This file runs alone (scripts/test.js), so that a
// neighbour's load cannot decide them. (endings.test.js's other endings assert counts and lower
// bounds of time only, which a load cannot break.)

// On the console the worker's stdout is read slowly; on tcp each connection at the embedded sink,
// which runs in a process of its own and is released by a message.
// The two transports at once: each waits on its own stalled reader (its own TMPDIR and tag), and
// its limits (exit within 10 s of SIGTERM, within 45 s of a 3 s --timeout) leave room for the other.
describe('a slowed or stalled receiving end, console and tcp side by side', { concurrency: 2 }, () => {
  for (const transport of ['console', 'tcp']) {
    describe(`a slowed or stalled receiving end never outlasts the run (--receiver-rate, --receiver-stall, ${transport})`, () => {
      const slowRun = (extra, out, tmp, options = {}) => runCli(['run', '--lib', 'pino', '--transport', transport, '--events', '2000', '--runs', '1', '--out', out, ...extra], { env: { TMPDIR: tmp }, detached: true, timeoutMs: 90_000, ...options })

      // Observed (console): still running 45 s after --timeout 10 (the paused reader awaited a timer of
      // bytes ÷ rate: 65,536 s for its first chunk); at --receiver-rate 2000 recorded "timed out" after
      // 94 s. Observed (tcp, --timeout 5): recorded ok, 1 of 2,000 received, done 131 s (the sink's
      // count ended on a quiet period while the brake held the rest unread, and its done was the
      // brake's due time of a byte still in the kernel's buffer).
      it('--receiver-rate 1 with --timeout 3: the run is recorded timed out and log-bench exits at once', async () => {
        const out = path.join(tmpDir(), 'r.json')
        const tmp = tmpDir()
        const began = Date.now()
        const r = await slowRun(['--receiver-rate', '1', '--timeout', '3'], out, tmp)
        assert.equal(r.code, 0, r.stderr)
        assert.ok(Date.now() - began < 45_000, `exits soon after its time limit (took ${Date.now() - began} ms)`)
        // The slowed cell's run, not its control's (read at full speed, measured beside it).
        const record = readJson(out).runs.find((r) => r.receiverRate != null || r.receiverStallMs != null)
        assert.equal(record.status, 'failed')
        assert.match(record.error, /^timed out after 3 s/)
        assert.equal(record.failure.kind, 'timeout')
        assert.deepEqual(leftovers(r.tag), [])
        assert.deepEqual(fs.readdirSync(tmp), [], 'no run directory')
      })

      // Observed (console): 30 s after SIGTERM still running; a second signal exited 143 with runs: [],
      // interrupted: false and the run directory left behind.
      it('SIGTERM while the reader is paused: exit 143 at once, the run recorded interrupted, nothing left', async () => {
        const out = path.join(tmpDir(), 'r.json')
        const tmp = tmpDir()
        let child
        let tag
        const pending = slowRun(['--receiver-rate', '1', '--timeout', '600'], out, tmp, { onSpawn: (c, t) => { child = c; tag = t } })
        if (transport === 'console') {
          // The capture file has its first bytes: the reader has read a chunk and paused for hours.
          await waitFor(() => fs.readdirSync(tmp).some((dir) => {
            try { return fs.statSync(path.join(tmp, dir, 'stdout-w0.log')).size > 0 } catch { return false }
          }), 60_000)
        } else {
          // The worker has come and gone (pino's close() resolved): the rest waits unread at the sink.
          const worker = () => taggedPids(tag, /\/worker\.js/).length > 0
          await waitFor(worker, 60_000)
          await waitFor(() => !worker(), 60_000)
        }
        const sentAt = Date.now()
        process.kill(child.pid, 'SIGTERM')
        const r = await pending
        assert.ok(Date.now() - sentAt < 10_000, `exits within seconds of SIGTERM (took ${Date.now() - sentAt} ms)`)
        assert.equal(r.code, 143, r.stderr)
        const doc = readJson(out)
        assert.equal(doc.interrupted, true)
        // The run under way when the signal came: the slowed cell's, or its control's before it.
        assert.equal(doc.runs.at(-1).status, 'interrupted')
        assert.deepEqual(leftovers(r.tag), [])
        assert.deepEqual(fs.readdirSync(tmp), [], 'no run directory')
      })

      // Observed (console): the results written, then the process stayed alive until the 600 s stall
      // timer fired.
      it('--receiver-stall 600000: log-bench exits once its results are written', async () => {
        const out = path.join(tmpDir(), 'r.json')
        const tmp = tmpDir()
        const began = Date.now()
        // --timeout 3, as the --receiver-rate case above: the stall outlasts any limit, so the limit's
        // length says nothing here, only that log-bench does not wait out the stall behind it.
        const r = await slowRun(['--receiver-stall', '600000', '--timeout', '3'], out, tmp)
        assert.equal(r.code, 0, r.stderr)
        assert.ok(Date.now() - began < 45_000, `exits once the run is recorded (took ${Date.now() - began} ms)`)
        // The slowed cell's run, not its control's (read at full speed, measured beside it).
        const record = readJson(out).runs.find((r) => r.receiverRate != null || r.receiverStallMs != null)
        assert.match(record.error, /^timed out after 3 s/)
        assert.deepEqual(leftovers(r.tag), [])
        assert.deepEqual(fs.readdirSync(tmp), [], 'no run directory')
      })
    })
  }
})

describe('the version cache\'s install lock knows its owner as the results lock does', () => {
  // Observed: a lock held only a pid, so one left by a killed install whose pid the system had given
  // to an unrelated live process made every install wait 10 minutes. The lock now names its owner's
  // start time too (as the results lock does), and a pid that started at another time is not it.
  it('names its owner with its start time, and takes over at once a lock whose live pid started at another time', async () => {
    const root = tmpDir()
    const lock = path.join(root, '.install.lock')
    const held = await withLock(root, () => {}, async () => JSON.parse(fs.readFileSync(lock, 'utf8')))
    assert.deepEqual(held, ownerOf(process.pid))
    assert.ok(held.started, 'a start time where /proc tells it')
    const reused = { ...ownerOf(process.ppid), started: String(Number(ownerOf(process.ppid).started) + 1) }
    fs.writeFileSync(lock, JSON.stringify(reused))
    const said = []
    const began = Date.now()
    assert.equal(await withLock(root, (line) => said.push(line), async () => 'installed'), 'installed')
    assert.deepEqual(said, [], 'no wait')
    assert.ok(Date.now() - began < 1000)
    // The same pid with its own start time is a live owner: waited for.
    fs.writeFileSync(lock, JSON.stringify(ownerOf(process.ppid)))
    const waiting = withLock(root, (line) => said.push(line), async () => 'second')
    await new Promise((resolve) => setTimeout(resolve, 400))
    assert.match(said[0] ?? '', new RegExp(`waiting for process ${process.ppid}`))
    fs.rmSync(lock)
    assert.equal(await waiting, 'second')
  })
})

// Both cases wait out a time limit in which nothing runs (their own directories and tags): side by side.
describe('durability endings with adapters that do not end (--ending)', { concurrency: 2 }, () => {
  // Already good when probed: an adapter that ignores SIGTERM and forks a grandchild ends within the
  // run's time limit under --ending sigterm, and its grandchild is ended and named under every ending.
  it('ignores SIGTERM and forks a grandchild: each run ends within its limit, recorded with the reason, nothing left', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const tmp = tmpDir()
    const r = await runCli(['run', '--lib', path.join(ADAPTERS, 'ignores-sigterm.js'), '--transport', 'file', '--ending', 'sigterm,exit', '--events', '100', '--runs', '1', '--timeout', '5', '--order', 'blocked', '--out', out], { env: { TMPDIR: tmp }, timeoutMs: 90_000 })
    assert.equal(r.code, 0, r.stderr)
    const byEnding = Object.fromEntries(readJson(out).runs.map((record) => [record.ending, record]))
    assert.equal(byEnding.sigterm.failure.kind, 'timeout')
    assert.match(byEnding.sigterm.error, /^timed out after 5 s while waiting for the worker to end \(--ending sigterm\); the adapter left 1 process running after its worker \(\d+ sleep 300\); log-bench ended it$/)
    assert.match(byEnding.exit.error, /^the adapter left 1 process running after its worker \(\d+ sleep 300\); log-bench ended it$/)
    assert.deepEqual(leftovers(r.tag), [])
    assert.deepEqual(fs.readdirSync(tmp), [], 'no run directory')
  })

  // raw's worker must end by itself within the 5 s after its return that the kept-alive one is given.
  it('--ending return: a process the logger keeps alive is ended after 5 s and recorded as keptAlive, its events counted', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', `${path.join(ADAPTERS, 'keeps-alive.js')},raw`, '--transport', 'file', '--events', '1000', '--ending', 'return', '--runs', '1', '--quiet', '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const { runs } = readJson(out)
    const alive = runs.find((r) => r.lib === 'keeps-alive')
    assert.equal(alive.ok, true, alive.error)
    assert.equal(alive.keptAlive, true)
    assert.deepEqual(alive.workerExits, [{ code: null, signal: 'SIGKILL' }])
    assert.equal(alive.received, 1000)
    assert.ok(alive.doneMs >= 5000, `done ${alive.doneMs}`)
    const raw = runs.find((r) => r.lib === 'raw')
    assert.equal(raw.keptAlive, false)
    assert.deepEqual(raw.workerExits, [{ code: 0, signal: null }])
    assert.deepEqual(leftovers(result.tag), [])
  })
})

const noValgrind = spawnSync('valgrind', ['--version']).status === 0 ? false : 'valgrind is not installed (apt-get install valgrind)'

describe('--measure instructions stopped mid-count', () => {
  // Already good when probed: SIGTERM during a counted run exits 143 within seconds. The run that
  // finished before it is a timed one (a scenario's first group: one invocation, one measure per
  // group), so that the count begins at once instead of after a whole counted run of two passes
  // under the simulator.
  it('SIGTERM while valgrind counts: exit 143, the finished run saved, the counted run interrupted, no valgrind left', { skip: noValgrind }, async () => {
    const dir = tmpDir()
    const scenario = path.join(dir, 'timed-then-counted.json')
    const group = { libs: ['pino'], transports: ['file'], cpus: [1], events: 1000, runs: 1 }
    fs.writeFileSync(scenario, JSON.stringify({ name: 'timed-then-counted', description: 'pino timed, then counted', run: [group, { ...group, measure: 'instructions' }] }))
    const out = path.join(dir, 'r.json')
    const tmp = tmpDir()
    let child
    let tag
    const pending = runCli(['run', '--scenario', scenario, '--order', 'blocked', '--out', out], { env: { TMPDIR: tmp }, detached: true, timeoutMs: 240_000, onSpawn: (c, t) => { child = c; tag = t } })
    await waitFor(() => fs.existsSync(out) && readJson(out).runs.length === 1, 180_000)
    // The count has begun: the counted run's directory is there and valgrind runs.
    await waitFor(() => fs.readdirSync(tmp).length > 0 && taggedPids(tag, /cachegrind/).length > 0, 60_000)
    const sentAt = Date.now()
    process.kill(child.pid, 'SIGTERM')
    const r = await pending
    assert.ok(Date.now() - sentAt < 10_000, `exits within seconds (took ${Date.now() - sentAt} ms)`)
    assert.equal(r.code, 143, r.stderr)
    const doc = readJson(out)
    assert.deepEqual(doc.runs.map((record) => [record.lib, record.measure ?? 'time', record.status]), [['pino', 'time', 'ok'], ['pino', 'instructions', 'interrupted']])
    assert.deepEqual(leftovers(r.tag), [], 'no valgrind or worker left')
    assert.deepEqual(fs.readdirSync(tmp), [], 'no run directory')
  })
})
