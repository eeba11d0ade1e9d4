import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { leftovers, readJson, ROOT, runCli, tmpDir } from './helpers.js'

// log-bench http --alternate where it cannot measure: a failed run's reason and what it leaves
// running (found by its own tag), and the refusals, which start nothing. No figure or time is
// asserted, so this file runs beside another (scripts/test.js); the measured runs are in
// alternate.test.js, which runs alone.
const CRASHING = path.join(ROOT, 'test', 'fixtures', 'http-crashing-adapter.js')
const UNBUILDABLE = path.join(ROOT, 'test', 'fixtures', 'http-failing-create-adapter.js')
const SHORT = ['--duration', '1', '--warmup', '0', '--connections', '4', '--runs', '1', '--quiet']

// An alternated run whose logger fails: it is recorded failed with the reason, and neither server is left.
async function failedAlternated ({ adapter, lib, logs, file, error }) {
  const out = path.join(tmpDir(), file)
  const run = await runCli(['http', '--lib', `none,${adapter}`, '--logs-per-request', logs, '--alternate', ...SHORT, '--out', out])
  assert.equal(run.code, 0, run.stderr)
  const failed = readJson(out).runs.find((r) => r.lib === lib)
  assert.equal(failed.status, 'failed')
  assert.match(failed.error, error)
  await new Promise((resolve) => setTimeout(resolve, 200))
  assert.deepEqual(leftovers(run.tag), [])
}

// Each failure has its own output and tag, the refusals start nothing: all five at once.
describe('failures and refusals', { concurrency: 5 }, () => {
  it('a logger that crashes its server under load: a failed run with the reason, both servers stopped', () =>
    failedAlternated({ adapter: CRASHING, lib: 'crashing', logs: '3', file: 'crashed-under-load.json', error: /destination exploded/ }))

  it('a logger that cannot be built: a failed run with the reason, both servers stopped', () =>
    failedAlternated({ adapter: UNBUILDABLE, lib: 'unbuildable', logs: '0', file: 'crashed.json', error: /destination refused to open/ }))

  for (const [args, message] of [
    [['--alternate', '--measure', 'instructions', '--rate', '100'], /--alternate times two servers in turn.*give one or the other/],
    [['--alternate', '--rate', '200'], /--alternate turns the load every 0\.2 s, and autocannon paces --rate per second .*Give one or the other/],
    [['--alternate', '--duration', '0.3'], /--alternate sends --duration seconds of load to each server in slices of 0\.2 s, at least two each: give --duration 0\.4 or more \(got 0\.3\)/]
  ]) {
    it(`bad input: ${args.join(' ')}`, async () => {
      const bad = path.join(tmpDir(), 'bad.json')
      const run = await runCli(['http', ...args, '--out', bad])
      assert.equal(run.code, 2, run.stderr)
      assert.match(run.stderr, message)
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr)
      assert.equal(fs.existsSync(bad), false)
    })
  }
})
