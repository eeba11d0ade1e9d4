import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { ADAPTERS, leftovers, readJson, runCli, tmpDir } from './helpers.js'

// The refusals start no run and each reads only its own stderr: four at a time.
describe('bad input: one line, exit code 2, nothing written', { concurrency: 4 }, () => {
  const dir = tmpDir()
  const out = path.join(dir, 'r.json')
  const plainFile = path.join(dir, 'plain-file')
  fs.writeFileSync(plainFile, '')
  const cases = [
    [['--lib', 'foo'], /unknown library "foo": use one of log4js, winston, bunyan, pino, consola, loglevel, roarr, signale, tslog, bole, logtape, noop, raw, all, every/],
    [['--transport', 'smoke'], /unknown transport "smoke": use one of console, file/],
    [['--transport', 'console,syslog'], /unknown transport "syslog": syslog goes over udp or tcp: give --transport udp, tcp or udp,tcp/],
    [['--cpus', '0'], /--cpus must be an integer/],
    [['--cpus', '1,two'], /--cpus must be an integer/],
    [['--events', '-3'], /--events must be an integer from 1 to 1073741824/],
    [['--events', '1.5'], /--events must be an integer from 1 to 1073741824/],
    [['--runs', '0'], /--runs must be an integer/],
    [['--size', 'big'], /--size must be an integer/],
    [['--timeout', '-1'], /--timeout must be a number > 0/],
    [['--max-old-space-size', '1'], /--max-old-space-size must be an integer >= 8/],
    [['--lib', './does-not-exist.js'], /adapter file not found/],
    [['--lib', path.join(ADAPTERS, 'no-create.js')], /does not export the adapter interface: create must be/],
    [['--out', path.join(plainFile, 'deep', 'r.json')], /runs through .*plain-file, which is a file, not a directory/, false],
    [['--out', path.join(dir, 'new', 'r.json'), '--lib', 'foo'], /unknown library "foo"/, false],
    [['--out', dir], /is a directory/, false],
    [['--bogus', '1'], /unknown option or command: bogus/],
    [['--runs', '2', '--runs', '3'], /--runs was given more than once/],
    [['--shard', '3/2'], /--shard must be k\/n with 1 <= k <= n/],
    [['--scenario', 'scenarios/quick.json', '--lib', 'pino'], /--lib cannot be combined with --scenario/],
    [['--scenario', 'no-such.json'], /scenario not found: no-such.json is neither a file nor a shipped scenario \(.*quick/]
  ]
  for (const [args, expected, withOut = true] of cases) {
    it(args.join(' '), async () => {
      const result = await runCli(['run', ...args, ...(args.includes('--events') || args.includes('--scenario') ? [] : ['--events', '10']), ...(withOut ? ['--out', out] : [])])
      assert.equal(result.code, 2)
      assert.match(result.stderr, expected)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.doesNotMatch(result.stderr, /\n\s+at /)
      assert.equal(fs.existsSync(out), false)
      assert.equal(fs.existsSync(path.join(dir, 'new')), false)
    })
  }

  it('no command: log-bench alone shows every command; with options, one line naming them', async () => {
    const bare = await runCli([])
    assert.equal(bare.code, 2)
    for (const name of ['run', 'list', 'http', 'report', 'compare', 'merge', 'sink']) assert.match(bare.stderr, new RegExp(`log-bench ${name}\\b.* {2}\\S`), name)
    const optionsOnly = await runCli(['--quiet'])
    assert.equal(optionsOnly.code, 2)
    assert.match(optionsOnly.stderr, /^log-bench: --quiet is an option of log-bench run and http, not of log-bench alone: put the command first \(log-bench run --quiet …; log-bench --help says what each command does\)\n$/)
    const unknown = await runCli(['--bogus=1'])
    assert.equal(unknown.code, 2)
    assert.match(unknown.stderr, /^log-bench: unknown option --bogus, and no command: give a command: run, list, http, report, compare, merge or sink \(log-bench --help says what each does\)\n$/)
  })

  it('a command that does not exist', async () => {
    const result = await runCli(['frobnicate'])
    assert.equal(result.code, 2)
    assert.match(result.stderr, /unknown option or command: frobnicate/)
  })
})

// Each run has its own directory and tag, and what is asserted is a reason, never a time: the
// hanging adapter's 20 s limit is waited out beside the other two.
describe('a failing logger is a result, not a reason to stop', { concurrency: 3 }, () => {
  it('records a crash, an exit, a hang past --timeout and an out-of-memory worker as failed runs and goes on', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const libs = ['crashing', 'exiting', 'hanging'].map((n) => path.join(ADAPTERS, `${n}.js`)).join(',') + ',raw'
    // 20 s, not less: the healthy raw runs share the limit, and at load average 20 on 2 cores raw
    // (2 workers, 1,000 events) took more than 3 s from its first call to the end of verifying.
    const result = await runCli(['run', '--lib', libs, '--transport', 'file', '--cpus', '2', '--events', '1000', '--runs', '2', '--timeout', '20', '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const doc = readJson(out)
    assert.equal(doc.complete, true)
    const errorsOf = (lib, runs = doc.runs.filter((r) => r.lib === lib)) => runs.map((r) => {
      assert.equal(r.ok, false)
      assert.equal(r.status, 'failed')
      return r.error
    })
    for (const error of errorsOf('crashing')) assert.match(error, /failed while logging: boom from the crashing adapter/)
    for (const error of errorsOf('exiting')) assert.match(error, /crashed with exit code 3/)
    // A time limit is waited out once per cell: the cell's later runs are skipped, with the reason.
    const [timedOut, skipped] = doc.runs.filter((r) => r.lib === 'hanging')
    assert.match(errorsOf('hanging', [timedOut])[0], /timed out after 20 s while waiting for the logger's close\(\) to resolve/)
    assert.deepEqual([skipped.status, skipped.error], ['skipped', 'run 1 timed out after 20 s; --retry-timeouts runs them anyway'])
    // Each failure's kind is data beside its sentence: what skipping and the labels read.
    const kinds = (lib) => doc.runs.filter((r) => r.lib === lib).map((r) => r.failure)
    assert.deepEqual(kinds('crashing'), [{ kind: 'error' }, { kind: 'error' }])
    assert.deepEqual(kinds('exiting'), [{ kind: 'crashed', exitCode: 3 }, { kind: 'crashed', exitCode: 3 }])
    assert.deepEqual(kinds('hanging'), [{ kind: 'timeout', limitS: 20 }, { kind: 'timeout', limitS: 20, afterRun: 1 }])
    assert.ok(doc.runs.filter((r) => r.lib === 'raw').every((r) => r.failure === undefined))
    assert.ok(doc.runs.filter((r) => r.lib === 'raw').every((r) => r.ok && r.received === r.sent))
    assert.equal(doc.summary.find((s) => s.lib === 'crashing').status, 'failed')
    assert.match(result.stdout, /failed: worker \d failed while logging/)
    assert.deepEqual(leftovers(result.tag), [])
  })

  it('says how many events had arrived when a run failed', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'writes-then-hangs.js'), '--transport', 'file', '--cpus', '2', '--events', '500', '--runs', '1', '--timeout', '2', '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const [run] = readJson(out).runs
    assert.equal(run.ok, false)
    assert.match(run.error, /timed out after 2 s/)
    assert.equal(run.countedAfterFailure, true)
    assert.equal(run.received, 1000)
    assert.equal(run.dropRate, 0)
    assert.match(result.stderr, /\(1000 of 1000 events had arrived\)/)
    assert.deepEqual(leftovers(result.tag), [])
  })

  it('records a worker that runs out of heap with --max-old-space-size', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'hoarding.js'), '--transport', 'file', '--events', '5000000', '--runs', '1', '--max-old-space-size', '32', '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const [run] = readJson(out).runs
    assert.equal(run.ok, false)
    assert.match(run.error, /ran out of memory \(JavaScript heap limit of 32 MB reached\)/)
    assert.deepEqual(run.failure, { kind: 'out-of-memory' })
    assert.match(result.stdout, /failed: out of memory/)
    assert.deepEqual(leftovers(result.tag), [])
  })
})
