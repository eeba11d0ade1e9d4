import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { RUN_TYPE } from '../src/results/run-types/run.js'
import { run, UsageError } from '../src/api/index.js'
import { ADAPTERS, ROOT, escapeRegExp, readJson, runCli, tmpDir } from './helpers.js'

// run --profile: a V8 CPU profile per worker and thread beside the results, and where the time went
// in the record (docs/costs.md, "CPU profiles"). Alone (scripts/test.js): which function a real run's
// samples put first is a figure of that run. What is made of a profile (its summary, the files kept,
// compare --profile-diff, the flame graphs) is test/profile-summary.test.js, from hand-made profiles.

describe('run --profile', () => {
  it('writes a .cpuprofile per worker beside the results, and the record names spendHere as the top function', async () => {
    const dir = tmpDir()
    const out = path.join(dir, 'profiled.json')
    const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'spend-here.js'), '--transport', 'file', '--events', '300', '--cpus', '2', '--runs', '1', '--profile', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const [record] = readJson(out).runs
    assert.equal(record.ok, true, record.error)
    assert.equal(record.profile, true)
    assert.equal(RUN_TYPE.validate(record), null, 'the record is the results schema\'s')
    assert.deepEqual(record.cpuProfiles.map((p) => [p.worker, p.thread, p.until]), [[0, 'main', 'closed'], [1, 'main', 'closed']])
    for (const { file } of record.cpuProfiles) {
      const profile = readJson(path.join(dir, file))
      assert.ok(Array.isArray(profile.nodes) && profile.samples.length > 0, file)
      assert.equal(profile.timeDeltas.length, profile.samples.length, file)
    }
    assert.equal(record.profileSummary.threads, 2)
    assert.equal(record.profileSummary.functions[0].name, 'spendHere', JSON.stringify(record.profileSummary.functions.slice(0, 3)))
    assert.equal(record.profileSummary.functions[0].package, 'adapter')
    assert.equal(record.profileSummary.packages[0].name, 'adapter')
  })

  it('names the owner first: the adapter\'s function that called the native code, and a helper inlined into log()', async () => {
    const dir = tmpDir()
    const out = path.join(dir, 'owners.json')
    const libs = ['pending-bytes', 'inlined-helper'].map((name) => path.join(ADAPTERS, `${name}.js`)).join(',')
    const result = await runCli(['run', '--lib', libs, '--transport', 'file', '--events', '3000', '--runs', '1', '--profile', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const runs = readJson(out).runs
    const of = (lib) => runs.find((r) => r.lib === lib).profileSummary
    const top = (list) => JSON.stringify(list.slice(0, 3).map((f) => [f.name, f.file, f.callee?.name, f.share]))
    // By self time the native Buffer.byteLength is Node's (node:other); by owner, pendingBytes's.
    const pending = of('pending-bytes')
    assert.equal(pending.self.packages[0].name, 'node:other', top(pending.self.packages))
    assert.deepEqual([pending.functions[0].name, pending.functions[0].file, pending.functions[0].callee?.file], ['pendingBytes', 'adapter/pending-bytes.js', 'node:buffer'], top(pending.functions))
    assert.equal(pending.packages[0].name, 'adapter')
    const inlined = of('inlined-helper')
    assert.deepEqual([inlined.functions[0].name, inlined.functions[0].line], ['mix', 6], top(inlined.functions))
    // No record or profile names this machine's folders.
    const text = JSON.stringify(runs.map((r) => [r.profileSummary, r.profileTree, r.cpuProfiles])) + runs.flatMap((r) => r.cpuProfiles).map((p) => fs.readFileSync(path.join(dir, p.file), 'utf8')).join('')
    assert.doesNotMatch(text, new RegExp(escapeRegExp(ROOT)))
    assert.doesNotMatch(text, /file:\/\//)
    // --force replaces the results file and the profiles it named; no profile is left loose.
    const again = await runCli(['run', '--lib', 'noop', '--transport', 'file', '--events', '10', '--runs', '1', '--profile', '--out', out, '--force', '--quiet'])
    assert.equal(again.code, 0, again.stderr)
    const kept = readJson(out).runs.flatMap((r) => r.cpuProfiles).map((p) => p.file)
    assert.deepEqual(fs.readdirSync(path.join(dir, 'owners.profiles')).map((f) => `owners.profiles/${f}`), kept)
    assert.deepEqual(fs.readdirSync(dir).sort(), ['owners.json', 'owners.profiles'])
  })

  it('profiles a logger\'s worker thread (pino.transport) until close() is called, and says so', async () => {
    const dir = tmpDir()
    const out = path.join(dir, 'thread.json')
    const result = await runCli(['run', '--lib', 'pino:transport', '--transport', 'file', '--events', '2000', '--runs', '1', '--profile', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const [record] = readJson(out).runs
    assert.equal(record.ok, true, record.error)
    const [main, thread, ...rest] = record.cpuProfiles
    assert.deepEqual([main.thread, main.until, rest.length], ['main', 'closed', 0])
    assert.match(thread.thread, /^\[worker \d+\] pino\/file$/)
    assert.equal(thread.until, 'close-called', JSON.stringify(thread))
    assert.ok(thread.file && fs.existsSync(path.join(dir, thread.file)), JSON.stringify(thread))
    assert.equal(record.profileSummary.threads, 2)
  })

  it('refuses what it cannot profile: one line, exit 2', async () => {
    for (const [args, expected] of [
      [['--measure', 'instructions'], /--profile records where the time goes: not with --measure instructions/],
      [['--ending', 'exit'], /--profile profiles until the adapter's close\(\) resolves: not with --ending exit/]
    ]) {
      const dir = tmpDir()
      const result = await runCli(['run', '--lib', 'noop', '--transport', 'file', '--events', '10', '--runs', '1', '--profile', ...args, '--out', path.join(dir, 'r.json')])
      assert.equal(result.code, 2, result.stderr)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.match(result.stderr, expected)
      assert.deepEqual(fs.readdirSync(dir), [])
    }
  })

  it('through the API, needs a results file to put the profiles beside', async () => {
    await assert.rejects(run({ libs: ['noop'], transports: ['file'], events: 10, runs: 1, profile: true }), (err) => err instanceof UsageError && /--profile writes its \.cpuprofile files beside the results file: give --out/.test(err.message))
    await assert.rejects(run({ libs: ['noop'], transports: ['file'], events: 10, runs: 1, profile: 'yes' }), UsageError)
  })
})
