import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT } from './helpers.js'

// raw on the console writes as the fastest plain code does, fs.writeSync on fd 1: with
// process.stdout.write made to throw, every line still arrives, in order, through a pipe.
test('raw console writes its batches with fs.writeSync on fd 1, not through process.stdout', () => {
  const raw = pathToFileURL(path.join(ROOT, 'src', 'loggers', 'raw.js')).href
  const script = `
    const { default: raw } = await import(${JSON.stringify(raw)})
    process.stdout.write = () => { throw new Error('process.stdout.write was used') }
    const logger = await raw.create({ transport: 'console', workload: 'string' })
    for (let i = 0; i < 100000; i++) logger.log('w0 ' + i + ': Hello, world!')
    await logger.close()
  `
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 64 << 20 })
  assert.equal(result.status, 0, result.stderr)
  const lines = result.stdout.split('\n')
  assert.equal(lines.pop(), '')
  assert.equal(lines.length, 100000)
  assert.equal(lines[0], 'w0 0: Hello, world!')
  assert.equal(lines[99999], 'w0 99999: Hello, world!')
})

// raw:each, the latency baseline: a line is in the file (or the pipe, or the socket) when its call
// returns. Held against raw by what the kernel was asked: one write per event against one per 64 KiB.
test('raw:each writes each event when it is logged, raw in 64 KiB batches: write syscalls per event, every event delivered', async () => {
  const { readJson, runCli, tmpDir } = await import('./helpers.js')
  const out = path.join(tmpDir(), 'each.json')
  const result = await runCli(['run', '--lib', 'raw,raw:each', '--transport', 'file,console', '--events', '3000', '--runs', '1', '--out', out, '--quiet'])
  assert.equal(result.code, 0, result.stderr)
  const runs = readJson(out).runs
  assert.equal(runs.length, 4)
  for (const run of runs) {
    assert.equal(run.ok, true, run.error)
    assert.equal(run.received, 3000)
    if (run.variant === 'each') assert.ok(run.syscallsWritePerEvent >= 0.99, `${run.transport}: ${run.syscallsWritePerEvent}`)
    else assert.ok(run.syscallsWritePerEvent < 0.1, `${run.transport}: ${run.syscallsWritePerEvent}`)
  }
})
