import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { ROOT, leftovers, readJson, runCli, tmpDir } from './helpers.js'
import { loadScenario } from '../src/api/scenario.js'
import { comparisonGroupKey, inPlanOrder } from '../src/results/model.js'

const SCENARIOS = path.join(ROOT, 'test', 'fixtures', 'scenarios')
const scenario = (name) => path.join(SCENARIOS, `${name}.json`)
// Cells in plan order (the results list runs in the order they ran: interleaved rounds).
const cellsOf = (doc) => inPlanOrder(doc.runs).map((r) => [r.type, r.lib, r.transport, r.cpus, r.size, r.mode ?? '', r.logsPerRequest ?? '', r.run].join('|'))
// Schema problems are refused by loadScenario (the module `run --scenario` loads a scenario with)
// before anything else; the CLI prints its message as the one line. Scenarios the loader refuses:
const SCHEMA_REFUSED = new Set(['not-json', 'bad-field', 'unknown-field', 'single-rate'])

describe('scenario files', () => {
  it('every shipped scenario is valid against scenarios/schema.json', () => {
    const files = fs.readdirSync(path.join(ROOT, 'scenarios')).filter((f) => f.endsWith('.json') && f !== 'schema.json')
    assert.ok(files.includes('quick.json'), files.join(' '))
    // In this process, with the loader the CLI uses (the refusals below check that the CLI's one line
    // is its message): not a log-bench process per scenario.
    for (const file of files) {
      assert.doesNotThrow(() => loadScenario(path.join(ROOT, 'scenarios', file)), file)
    }
  })

  it('finds a shipped scenario by name from any directory, and lists the shipped ones', async () => {
    const cwd = tmpDir()
    for (const given of ['quick', 'quick.json']) {
      const planned = await runCli(['run', '--scenario', given, '--shard', '0/1'], { cwd })
      assert.equal(planned.code, 2)
      assert.match(planned.stderr, /--shard must be k\/n/, planned.stderr)
    }
    const ran = await runCli(['run', '--scenario', 'quick', '--shard', '1/1000', '--quiet'], { cwd })
    assert.equal(ran.code, 0, ran.stderr)
    const doc = readJson(path.join(cwd, 'results', 'quick.json'))
    assert.equal(doc.env.plan.name, 'quick')
    // Shard 1 of 1000: one whole comparison group (the costliest), every run of it.
    assert.ok(doc.runs.length >= 1)
    assert.equal(new Set(doc.runs.map(comparisonGroupKey)).size, 1)
    for (const run of doc.runs) assert.ok(run.ok || run.status === 'unsupported', run.error)
    const unknown = await runCli(['run', '--scenario', 'quik'], { cwd })
    assert.equal(unknown.code, 2)
    assert.match(unknown.stderr, /scenario not found: quik is neither a file nor a shipped scenario \(burst-size, core, .*quick, .*workloads; see log-bench list\)/)
    const listed = await runCli(['list'], { cwd })
    assert.match(listed.stdout, /scenarios \(run --scenario NAME\):[^]*\| quick +\| A quick tour that answers/)
  })

  const bad = [
    ['not-json', /not-json\.json: not valid JSON/],
    ['bad-field', /bad-field\.json: field run\[0\]\.transports\[1\] must be one of "console", "file", "udp", "tcp"/],
    ['unknown-field', /unknown-field\.json: field run\[0\] has an unknown field "workers"/],
    ['bad-lib', /bad-lib\.json: run\[0\]: unknown library "log5js"/],
    // A run group's single "rate" of earlier versions: the refusal says the list that replaced it.
    ['single-rate', /single-rate\.json: field run\[0\] has an unknown field "rate" \(a run group's rates are a list now: "rates": \[1000\]/]
  ]
  for (const [name, expected] of bad) {
    it(`refuses ${name} with one line naming the file and the field`, async () => {
      const out = path.join(tmpDir(), 'r.json')
      const result = await runCli(['run', '--scenario', scenario(name), '--out', out])
      assert.equal(result.code, 2)
      assert.match(result.stderr, expected)
      assert.equal(result.stderr.trim().split('\n').length, 1)
      assert.equal(fs.existsSync(out), false)
      if (SCHEMA_REFUSED.has(name)) {
        assert.throws(() => loadScenario(scenario(name)), (err) => {
          assert.equal(result.stderr, `log-bench: ${err.message}\n`)
          return true
        })
      }
    })
  }

  it('runs run cells and http cells from one command, start to finish', async () => {
    const out = path.join(tmpDir(), 'tiny.json')
    const result = await runCli(['run', '--scenario', scenario('tiny'), '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const doc = readJson(out)
    assert.equal(doc.complete, true)
    assert.equal(doc.env.plan.kind, 'scenario')
    assert.equal(doc.env.plan.name, 'tiny')
    assert.equal(doc.runs.filter((r) => r.type === 'run').length, 3 * 2 * 2 * 2)
    assert.equal(doc.runs.filter((r) => r.type === 'http').length, 2)
    assert.ok(doc.runs.every((r) => r.ok), JSON.stringify(doc.runs.filter((r) => !r.ok).map((r) => r.error)))
    assert.ok(doc.summary.some((s) => s.type === 'http') && doc.summary.some((s) => s.type === 'run'))
    assert.match(result.stdout, /\| Average +\|/)
    assert.match(result.stdout, /Req\/Sec/)
    // Without a terminal, progress is one plain line per finished run.
    assert.equal(result.stderr.trim().split('\n').filter((line) => line.startsWith('[')).length, 26)
    // Its groups of 1 and 2 runs are named as unable to decide before the first run.
    assert.match(result.stderr, /^log-bench: 2 runs a cell cannot decide a timed comparison[^\n]*\n(?:log-bench: [^\n]*\n)*(?:readers: [^\n]*\n)?\[ ?1\/26\]/m)
    assert.deepEqual(leftovers(result.tag), [])
  })
})

// Shards of a scenario of three comparison groups (two of run cells, one of http cells) of the
// cheapest cells: a shard holds more than one group, and run and http cells are merged.
describe('shards and merge', () => {
  const dir = tmpDir()
  const file = (name) => path.join(dir, name)

  it('shards 1/2 and 2/2 merged hold exactly the cells of the unsharded run, in the same order', async () => {
    for (const [args, name] of [[[], 'whole.json'], [['--shard', '1/2'], 's1.json'], [['--shard', '2/2'], 's2.json']]) {
      const result = await runCli(['run', '--scenario', scenario('shards'), ...args, '--out', file(name), '--quiet'])
      assert.equal(result.code, 0, result.stderr)
    }
    const whole = readJson(file('whole.json'))
    assert.equal(new Set(whole.runs.map(comparisonGroupKey)).size, 3)
    assert.deepEqual([...new Set(whole.runs.map((r) => r.type))].sort(), ['http', 'run'])
    const s1 = readJson(file('s1.json'))
    const s2 = readJson(file('s2.json'))
    assert.ok(s1.runs.length > 0 && s2.runs.length > 0)
    assert.equal(s1.env.plan.shard, '1/2')
    const merged = await runCli(['merge', file('s2.json'), file('s1.json'), '--out', file('merged.json')])
    assert.equal(merged.code, 0, merged.stderr)
    const doc = readJson(file('merged.json'))
    assert.deepEqual(cellsOf(doc), cellsOf(whole))
    assert.equal(doc.complete, true)
    assert.deepEqual(doc.env.plan.mergedShards, ['1/2', '2/2'])
    assert.equal(doc.summary.length, whole.summary.length)
  })

  it('refuses the same shard twice, a file that is no shard, and shards of another scenario', async () => {
    const twice = await runCli(['merge', file('s1.json'), file('s1.json'), '--out', file('x.json')])
    assert.equal(twice.code, 2)
    assert.match(twice.stderr, /are both shard 1\/2/)
    const unsharded = await runCli(['merge', file('s1.json'), file('whole.json'), '--out', file('x.json')])
    assert.equal(unsharded.code, 2)
    assert.match(unsharded.stderr, /whole\.json is not a shard/)
    const other = path.join(dir, 'other.json')
    assert.equal((await runCli(['run', '--scenario', scenario('other'), '--shard', '2/2', '--out', other, '--quiet'])).code, 0)
    const mismatched = await runCli(['merge', file('s1.json'), other, '--out', file('x.json')])
    assert.equal(mismatched.code, 2)
    assert.match(mismatched.stderr, /other\.json holds results of another plan than .*s1\.json \(scenario "shards" vs scenario "other"\): only shards of the same scenario/)
    assert.equal(fs.existsSync(file('x.json')), false)
    // Two shards of the command line with different options: the option that differs is named.
    const [a, b] = [path.join(dir, 'opt1.json'), path.join(dir, 'opt2.json')]
    assert.equal((await runCli(['run', '--lib', 'noop', '--transport', 'file', '--events', '10', '--runs', '1', '--shard', '1/2', '--out', a, '--quiet'])).code, 0)
    assert.equal((await runCli(['run', '--lib', 'noop', '--transport', 'file', '--events', '20', '--runs', '1', '--shard', '2/2', '--out', b, '--quiet'])).code, 0)
    const options = await runCli(['merge', a, b, '--out', file('x.json')])
    assert.equal(options.code, 2)
    assert.match(options.stderr, /opt2\.json holds results of another plan than .*opt1\.json \(opt1\.json's vs opt2\.json's: events 10 vs 20\)/)
  })

  it('refuses duplicate runs of a cell', async () => {
    const doc = readJson(file('s2.json'))
    doc.env.plan.shard = '1/2'
    doc.runs = [...doc.runs, readJson(file('s1.json')).runs[0]]
    fs.writeFileSync(file('dup.json'), JSON.stringify(doc))
    const result = await runCli(['merge', file('s1.json'), file('dup.json'), '--out', file('x.json')])
    assert.equal(result.code, 2)
    assert.match(result.stderr, /are both shard 1\/2|duplicate results/)
  })
})

describe('interrupt and --resume', () => {
  it('continues an interrupted scenario, keeping finished runs, and refuses another scenario\'s file', async () => {
    const out = path.join(tmpDir(), 'slow.json')
    let child
    const pending = runCli(['run', '--scenario', scenario('slow'), '--out', out], { detached: true, onSpawn: (c) => { child = c } })
    await waitFor(() => fs.existsSync(out) && readJson(out).runs.length >= 2)
    await new Promise((resolve) => setTimeout(resolve, 700))
    process.kill(-child.pid, 'SIGINT')
    const interrupted = await pending
    assert.equal(interrupted.code, 130, interrupted.stderr)
    assert.match(interrupted.stderr, /continue with --resume/)
    const partial = readJson(out)
    assert.equal(partial.interrupted, true)
    assert.equal(partial.runs.at(-1).status, 'interrupted')
    const finished = partial.runs.filter((r) => r.status !== 'interrupted')
    assert.deepEqual(leftovers(interrupted.tag), [])

    const again = await runCli(['run', '--scenario', scenario('slow'), '--out', out])
    assert.equal(again.code, 2)
    assert.match(again.stderr, /holds an unfinished run of this scenario: add --resume/)

    const other = await runCli(['run', '--scenario', scenario('other'), '--out', out, '--resume'])
    assert.equal(other.code, 2)
    assert.match(other.stderr, /cannot resume .*slow\.json: it holds results of another scenario \(the file's vs these: scenario "slow" vs "other", run\[0\]\.libs raw,slow,pino vs raw/)

    const resumed = await runCli(['run', '--scenario', scenario('slow'), '--out', out, '--resume', '--quiet'])
    assert.equal(resumed.code, 0, resumed.stderr)
    const doc = readJson(out)
    assert.equal(doc.complete, true)
    assert.equal(doc.interrupted, false)
    assert.equal(doc.runs.length, 3 * 2)
    assert.deepEqual(doc.runs.slice(0, finished.length), finished)
    assert.ok(doc.runs.every((r) => r.ok))
    assert.deepEqual(cellsOf(doc), ['raw', 'raw', 'slow', 'slow', 'pino', 'pino'].map((lib, i) => `run|${lib}|file|1|13|||${(i % 2) + 1}`))
    // The resumed runs went on in the order of the first invocation: rounds, from its seed.
    assert.deepEqual(doc.env.order, partial.env.order)
    assert.equal(doc.env.order.mode, 'interleaved')
    assert.deepEqual(doc.runs.map((r) => r.run), [1, 1, 1, 2, 2, 2])
    assert.ok(doc.runs.every((r, i) => i === 0 || r.startedAt >= doc.runs[i - 1].startedAt))
  })
})

async function waitFor (condition, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
