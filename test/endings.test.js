import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { ADAPTERS, readJson, runCli, tmpDir } from './helpers.js'

// Every assertion here is a count, an exit, or a lower bound of time (a stall or a slowed reader
// holds a run back at least so long), none of which a busy machine can break: this file runs beside
// another (scripts/test.js). The kill timer's case, where a run must end by itself in time, is in
// hostile-processes-timed.test.js, which runs alone.
const ALL_ENDINGS = 'close,return,exit,uncaught,sigterm,sigterm-recipe,sigkill'
// How the primary sees each ending's process go.
const EXITS = {
  close: { code: 0, signal: null },
  return: { code: 0, signal: null },
  exit: { code: 0, signal: null },
  uncaught: { code: 1, signal: null },
  sigterm: { code: null, signal: 'SIGTERM' },
  'sigterm-recipe': { code: 0, signal: null },
  sigkill: { code: null, signal: 'SIGKILL' }
}

async function runEndings (args) {
  const out = path.join(tmpDir(), 'endings.json')
  const result = await runCli(['run', '--runs', '1', '--quiet', '--out', out, ...args])
  assert.equal(result.code, 0, result.stderr)
  const { runs } = readJson(out)
  // A slowed cell is measured beside its control (read at full speed): the slowed runs are asked about.
  const slowedRuns = runs.filter((r) => r.receiverStallMs != null || r.receiverRate != null)
  return slowedRuns.length ? slowedRuns : runs
}

test('raw loses nothing on file and console under every ending, SIGKILL included; each ending is recorded with its exit', async () => {
  const runs = await runEndings(['--lib', 'raw', '--transport', 'file,console', '--events', '5000', '--cpus', '2', '--ending', ALL_ENDINGS])
  assert.equal(runs.length, 14)
  for (const run of runs) {
    const where = `${run.transport} ${run.ending}`
    assert.equal(run.ok, true, `${where}: ${run.error}`)
    assert.equal(run.sent, 10000, where)
    assert.equal(run.received, 10000, where)
    assert.equal(run.corrupt, 0, where)
    assert.deepEqual(run.workerExits, [EXITS[run.ending], EXITS[run.ending]], where)
    assert.ok(run.doneMs > 0, where)
  }
  assert.deepEqual([...new Set(runs.map((r) => r.ending))].sort(), ALL_ENDINGS.split(',').sort())
})

test('a logger that buffers until the next tick loses exactly its unflushed tail under exit, uncaught and the signals, nothing under close, return or its SIGTERM recipe', async () => {
  // 2,500 events: the first 2,000 are written in two synchronous flushes of 1,000, the last 500 wait for the next tick.
  const runs = await runEndings(['--lib', path.join(ADAPTERS, 'next-tick.js'), '--transport', 'file,console', '--events', '2500', '--ending', ALL_ENDINGS])
  const kept = { close: 2500, return: 2500, 'sigterm-recipe': 2500, exit: 2000, uncaught: 2000, sigterm: 2000, sigkill: 2000 }
  assert.equal(runs.length, 14)
  for (const run of runs) {
    const where = `${run.transport} ${run.ending}`
    assert.equal(run.ok, true, `${where}: ${run.error}`)
    assert.equal(run.received, kept[run.ending], where)
    assert.equal(run.dropRate, (2500 - kept[run.ending]) / 2500, where)
    assert.deepEqual(run.workerExits, [EXITS[run.ending]], where)
  }
})

test('--ending takes the listed endings only, with one line', async () => {
  const result = await runCli(['run', '--lib', 'raw', '--ending', 'crash', '--out', path.join(tmpDir(), 'x.json')])
  assert.equal(result.code, 2)
  assert.match(result.stderr, /unknown ending "crash"/)
  assert.match(result.stderr, /sigkill/)
  assert.doesNotMatch(result.stderr, /\n\s+at /)
})

test('--receiver-rate on console: a pino run takes at least as long as its bytes need at that rate, and delivers every event', async () => {
  const runs = await runEndings(['--lib', 'pino', '--transport', 'console', '--events', '20000', '--receiver-rate', '2000000'])
  const [run] = runs
  assert.equal(run.ok, true, run.error)
  assert.equal(run.receiverRate, 2000000)
  assert.equal(run.consoleReader, 'node')
  assert.equal(run.received, 20000)
  // pino's lines are JSON of about 90 bytes: 20,000 of them need most of a second at 2 MB/s.
  assert.ok(run.stdoutBytes > 20000 * 50, `stdoutBytes ${run.stdoutBytes}`)
  assert.ok(run.doneMs >= (run.stdoutBytes / 2000000) * 1000, `done ${run.doneMs} ms for ${run.stdoutBytes} bytes`)
})

test('--receiver-stall on console: nothing is read for the stall, every event still arrives, and the catch-up after it is recorded', async () => {
  const runs = await runEndings(['--lib', 'raw', '--transport', 'console', '--events', '60000', '--receiver-stall', '600'])
  const [run] = runs
  assert.equal(run.ok, true, run.error)
  assert.equal(run.receiverStallMs, 600)
  assert.equal(run.received, 60000)
  // raw writes synchronously: once the socket's buffer is full it waits for the stalled reader.
  assert.ok(run.unblockedMs >= 600, `unblocked ${run.unblockedMs} ms`)
  assert.ok(run.doneMs >= 600, `done ${run.doneMs} ms`)
  assert.ok(run.afterStallMs >= 0 && run.afterStallMs < run.doneMs, `afterStallMs ${run.afterStallMs}`)
})

// Observed: pino's 2,000 lines (185 KB) fit in the socket's buffer, the worker ended, and node
// resumed its stdout on the child's exit: recorded ok, done 143 ms, under --receiver-stall 600000.
test('--receiver-stall on console holds after the worker has ended (node resumes a child\'s stdout when it exits)', async () => {
  const runs = await runEndings(['--lib', 'pino', '--transport', 'console', '--events', '2000', '--receiver-stall', '700'])
  const [run] = runs
  assert.equal(run.ok, true, run.error)
  assert.equal(run.received, 2000)
  assert.ok(run.doneMs >= 700, `done ${run.doneMs} ms`)
})

test('--receiver-rate and --receiver-stall are refused without the console or tcp transport', async () => {
  const result = await runCli(['run', '--lib', 'raw', '--transport', 'file', '--receiver-stall', '100', '--out', path.join(tmpDir(), 'x.json')])
  assert.equal(result.code, 2)
  assert.match(result.stderr, /--receiver-stall applies to the console and tcp transports only/)
})

test('--receiver-stall on syslog TCP: the embedded sink stops reading each connection, waits out the stall before it settles, and counts every event', async () => {
  const runs = await runEndings(['--lib', 'raw', '--transport', 'tcp', '--events', '20000', '--receiver-stall', '700'])
  const [run] = runs
  assert.equal(run.ok, true, run.error)
  assert.equal(run.receiverStallMs, 700)
  assert.equal(run.received, 20000)
  assert.ok(run.doneMs >= 700, `done ${run.doneMs} ms`)
  assert.ok(run.afterStallMs >= 0 && run.afterStallMs < run.doneMs, `afterStallMs ${run.afterStallMs}`)
})
