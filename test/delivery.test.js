import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { ADAPTERS, leftovers, readJson, runCli, tmpDir } from './helpers.js'
import { nothingDelivered } from '../src/run/run-once.js'

test('an adapter writing to stderr: failed runs that say nothing arrived and where, never the fastest', async () => {
  const dir = tmpDir()
  const out = path.join(dir, 'stderr.json')
  const result = await runCli(['run', '--lib', `${path.join(ADAPTERS, 'stderr.js')},pino`, '--transport', 'console,file', '--events', '200', '--runs', '2', '--out', out])
  assert.equal(result.code, 0, result.stderr)
  assert.deepEqual(leftovers(result.tag), [])
  const doc = readJson(out)
  const runs = doc.runs.filter((r) => r.lib === 'stderr')
  assert.equal(runs.length, 4)
  for (const run of runs) {
    assert.equal(run.ok, false)
    assert.equal(run.status, 'failed')
    assert.equal(run.received, 0)
  }
  assert.match(runs.find((r) => r.transport === 'console').error, /^nothing arrived on the workers' stdout: does the adapter write to stdout\? \(stderr is not read\) \(0 of 200 events\)$/)
  assert.match(runs.find((r) => r.transport === 'file').error, /^nothing arrived in the file the adapter was given \(.*\/w0\.log\): does the adapter write to the `file` it is given\? \(0 of 200 events\)$/)
  assert.ok(doc.summary.filter((s) => s.lib === 'stderr').every((s) => s.status === 'failed' && s.okRuns === 0))
  assert.match(result.stdout, /stderr console 1 worker run 1 failed: nothing arrived on the workers' stdout/)
  // Never named fastest.
  const report = await runCli(['report', out, '--out', path.join(dir, 'page.md'), '--images', path.join(dir, 'images')])
  assert.equal(report.code, 0, report.stderr)
  const page = fs.readFileSync(path.join(dir, 'page.md'), 'utf8')
  const glance = page.slice(page.indexOf('At a glance'), page.indexOf('\n## ', page.indexOf('At a glance') + 1))
  const rows = glance.split('\n').filter((line) => /^\| (Console|Filesystem)/.test(line)).map((line) => line.split('|').map((cell) => cell.trim()))
  assert.equal(rows.length, 2, glance)
  for (const row of rows) {
    assert.match(row[3], /^pino /, 'fastest to unblock')
    assert.match(row[4], /^pino /, 'fastest to done')
    assert.match(row[6], /stderr/, 'listed as failed')
  }
})

test('nothingDelivered: only a run where nothing at all arrived; partial loss and uncounted runs stay ok', () => {
  const ok = { ok: true, status: 'ok', error: null, sent: 100 }
  assert.equal(nothingDelivered({ ...ok, received: 0, corrupt: 0, duplicates: 0 }, { transport: 'udp', target: { host: '127.0.0.1', port: 5140 }, cpus: 1 }).error, 'nothing arrived at 127.0.0.1:5140 over udp: does the adapter send to the host and port it is given? (0 of 100 events)')
  assert.equal(nothingDelivered({ ...ok, received: 1, corrupt: 0, duplicates: 0 }, { transport: 'file', target: {}, cpus: 1 }).ok, true)
  assert.equal(nothingDelivered({ ...ok, received: 0, corrupt: 3, duplicates: 0 }, { transport: 'file', target: {}, cpus: 1 }).ok, true, 'corrupt arrivals are arrivals: a different failure')
  assert.equal(nothingDelivered({ ...ok, received: null }, { transport: 'console', cpus: 1 }).ok, true, 'uncounted (noop, external server)')
  assert.match(nothingDelivered({ ...ok, received: 0, corrupt: 0, duplicates: 0 }, { transport: 'file', target: { file: '/x/worker-0.log' }, cpus: 2 }).error, /\(\/x\/worker-0\.log, one per worker: 2\)/)
})

test('a close() that ended the stream before the logger\'s writes: the message says what log-bench saw, not a guess', async () => {
  const dir = tmpDir()
  const out = path.join(dir, 'ends-early.json')
  const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'ends-early.js'), '--transport', 'file', '--events', '300', '--runs', '1', '--out', out])
  assert.equal(result.code, 0, result.stderr)
  assert.deepEqual(leftovers(result.tag), [])
  const [run] = readJson(out).runs
  assert.equal(run.status, 'failed')
  assert.match(run.error, /^nothing arrived in the file the adapter was given \([^)]*\): the logger wrote [\d,]+ bytes to its file after close\(\) had ended it \(write after end: they went nowhere\): close\(\) must wait for its writes \(0 of 300 events\)$/)
  assert.doesNotMatch(result.stderr, /does the adapter write/)
  // Words of their own for writes after close() resolved, and none where nothing was seen.
  const late = { afterEnd: { writes: 0, bytes: 0, to: null }, afterClose: { writes: 2, bytes: 4096, to: 'its file' } }
  const failed = nothingDelivered({ ok: true, sent: 10, received: 0, corrupt: 0, duplicates: 0 }, { transport: 'file', target: { file: '/t/w0.log' }, cpus: 1, late })
  assert.equal(failed.error, 'nothing arrived in the file the adapter was given (/t/w0.log): the logger wrote 4,096 bytes to its file after close() resolved: close() must wait for its writes (0 of 10 events)')
  const guessed = nothingDelivered({ ok: true, sent: 10, received: 0, corrupt: 0, duplicates: 0 }, { transport: 'file', target: { file: '/t/w0.log' }, cpus: 1 })
  assert.match(guessed.error, /does the adapter write to the `file` it is given\?/)
})

test('the late-write watch counts writes to an ended stream and, once close() resolved, to any stream, sockets and pipes included', async () => {
  const { PassThrough, Writable } = await import('node:stream')
  const { closeResolved, lateWrites, lateWritesWords, watchLateWrites } = await import('../src/engine/late-writes.js')
  const sink = new Writable({ write (chunk, encoding, done) { done() } })
  sink.on('error', () => {})
  sink.write('before the watch\n')
  watchLateWrites()
  sink.write('during close()\n')
  assert.equal(lateWrites(), null)
  sink.end()
  sink.write('after the end\n')
  closeResolved()
  const pipe = new PassThrough()
  pipe.resume()
  pipe.write('after close() resolved\n')
  const late = lateWrites()
  assert.deepEqual(late, { afterEnd: { writes: 1, bytes: 14, to: 'a stream' }, afterClose: { writes: 1, bytes: 23, to: 'a stream' } })
  assert.equal(lateWritesWords(late), 'the logger wrote 14 bytes to a stream after close() had ended it (write after end: they went nowhere) and wrote 23 bytes to a stream after close() resolved: close() must wait for its writes')
})
