import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { assignGroups, selectShard } from '../src/api/scenario.js'
import { comparisonGroupKey, inPlanOrder } from '../src/results/model.js'
import { readJson, runCli, tmpDir } from './helpers.js'

function cell (lib, transport, cpus, events = 1000) {
  return { settings: { type: 'run', lib, variant: 'default', workload: 'string', transport, cpus, events, size: 13 }, runs: 3, unsupported: null }
}

test('shards hold whole comparison groups, every cell once, balanced by estimated cost', () => {
  const cells = []
  for (const transport of ['console', 'file', 'udp']) {
    for (const cpus of [1, 8]) for (const lib of ['log4js', 'winston', 'pino', 'raw']) cells.push(cell(lib, transport, cpus, 100000))
  }
  for (const n of [1, 2, 3, 4, 5]) {
    const shards = Array.from({ length: n }, (_, i) => selectShard(cells, { k: i + 1, n }))
    assert.equal(shards.flat().length, cells.length)
    assert.equal(new Set(shards.flat()).size, cells.length)
    for (const shard of shards) {
      // Cells keep their plan order.
      assert.deepEqual(shard, cells.filter((c) => shard.includes(c)))
      for (const key of new Set(shard.map((c) => comparisonGroupKey(c.settings)))) {
        assert.equal(shard.filter((c) => comparisonGroupKey(c.settings) === key).length, 4, `shard of ${n}: a whole group`)
      }
    }
  }
  // Three 8-worker groups and three 1-worker groups in 2 shards: each shard gets about half the cost,
  // not every 8-worker group in one shard.
  const [one, two] = [1, 2].map((k) => selectShard(cells, { k, n: 2 }))
  const workerEvents = (shard) => shard.reduce((sum, c) => sum + c.settings.cpus, 0)
  assert.ok(Math.abs(workerEvents(one) - workerEvents(two)) <= 28, `${workerEvents(one)} vs ${workerEvents(two)}`)
  // More shards than groups: the extra shards are empty, nothing is lost.
  assert.equal(new Set(assignGroups(cells.slice(0, 4), 3).values()).size, 1)
})

test('log-bench run --shard: whole groups per shard; merge refuses shards of two machines without --allow-mixed-hardware, and with it keeps each machine\'s groups in their own tables', async () => {
  const dir = tmpDir()
  const file = (name) => path.join(dir, name)
  // One transport, two worker counts: two groups, one per shard, one console table across both.
  const args = ['run', '--lib', 'noop,raw', '--transport', 'console', '--cpus', '1,2', '--events', '100', '--runs', '1', '--quiet']
  for (const k of [1, 2]) {
    const result = await runCli([...args, '--shard', `${k}/2`, '--out', file(`s${k}.json`)])
    assert.equal(result.code, 0, result.stderr)
  }
  const [s1, s2] = [file('s1.json'), file('s2.json')].map(readJson)
  for (const doc of [s1, s2]) {
    const groups = new Set(doc.runs.map(comparisonGroupKey))
    assert.equal(groups.size, 1, 'one of the two groups in each shard')
    for (const key of groups) assert.deepEqual(doc.runs.filter((r) => comparisonGroupKey(r) === key).map((r) => r.lib).sort(), ['noop', 'raw'])
  }
  // The second shard "on another machine".
  s2.env.cpuModel = 'Other CPU @ 9.99GHz'
  s2.env.hostname = 'elsewhere'
  s2.env.machine = { virtual: false, hypervisor: null, container: null, how: 'systemd-detect-virt' }
  fs.writeFileSync(file('s2.json'), JSON.stringify(s2))
  const refused = await runCli(['merge', file('s1.json'), file('s2.json'), '--out', file('m.json')])
  assert.equal(refused.code, 2)
  assert.match(refused.stderr, /measured in different environments \(cpuModel .*--allow-mixed-hardware/)
  const merged = await runCli(['merge', file('s1.json'), file('s2.json'), '--out', file('m.json'), '--allow-mixed-hardware'])
  assert.equal(merged.code, 0, merged.stderr)
  const doc = readJson(file('m.json'))
  assert.deepEqual(inPlanOrder(doc.runs).map((r) => r.planIndex), [0, 1, 2, 3])
  assert.ok(doc.runs.every((r) => /\(\d+ cores, /.test(r.machine)))
  // Each shard's load at its own start, and sampled while it ran, is kept: the page says it per shard.
  assert.ok(doc.env.shards.every((s) => s.loadAverage.length === 3 && typeof s.availableMemoryBytes === 'number'))
  assert.deepEqual(doc.env.shards.map((s) => s.loadSamples[0]), [s1, s2].map((s) => s.env.loadSamples[0]))
  // Each shard's kind of machine too: the conditions line names both.
  assert.deepEqual(doc.env.shards.map((s) => s.machine), [s1.env.machine, s2.env.machine])
  const report = await runCli(['report', file('m.json'), '--out', file('page.md'), '--images', file('images')])
  assert.equal(report.code, 0, report.stderr)
  const page = fs.readFileSync(file('page.md'), 'utf8')
  const headings = page.split('\n').filter((line) => /^## Console/.test(line))
  // The console table split by machine: one heading per machine, each naming it.
  assert.equal(headings.length, 2, headings.join('\n'))
  assert.ok(headings.every((h) => /^## Console, measured on .+ \(\d+ cores, .+\)$/.test(h)), headings.join('\n'))
  assert.equal(headings.filter((h) => /Other CPU @ 9\.99GHz \(\d+ cores, elsewhere\)/.test(h)).length, 1)
  assert.equal(page.match(/\| Load at start, shard [12]\/2 \(/g)?.length, 2, 'a load row for each shard')
  // The conditions line names the second shard's machine (not a virtual machine) from its own entry.
  assert.match(page, /Conditions: [^\n]*not a virtual machine/)
})

test('merge names each profiled run\'s .cpuprofile files from the merged file, wherever the shards were', async () => {
  const dir = tmpDir()
  const args = ['run', '--lib', 'noop', '--transport', 'file', '--cpus', '1,2', '--events', '100', '--runs', '1', '--profile', '--quiet']
  const shards = [path.join(dir, 'a', 's1.json'), path.join(dir, 'b', 'deeper', 's2.json')]
  for (const [i, file] of shards.entries()) {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    const result = await runCli([...args, '--shard', `${i + 1}/2`, '--out', file])
    assert.equal(result.code, 0, result.stderr)
  }
  const out = path.join(dir, 'c', 'merged.json')
  fs.mkdirSync(path.dirname(out))
  const merged = await runCli(['merge', ...shards, '--out', out])
  assert.equal(merged.code, 0, merged.stderr)
  const files = readJson(out).runs.flatMap((r) => r.cpuProfiles ?? []).map((p) => p.file).filter(Boolean)
  assert.equal(files.length, 3, 'one worker and two workers: a main-thread profile each')
  for (const file of files) {
    assert.match(file, /^\.\.\/(a|b\/deeper)\/s[12]\.profiles\/noop-file-[12]w\.[0-9a-f]{8}\.w[01]-main\.cpuprofile$/)
    // The link resolves from the merged file's directory to the profile the shard's run wrote.
    assert.ok(Array.isArray(readJson(path.resolve(path.dirname(out), file)).samples), file)
  }
})
