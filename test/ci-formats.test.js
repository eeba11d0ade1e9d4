import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { readJson, runCli, syntheticRun, tmpDir } from './helpers.js'
import { loadResults } from '../src/results/read.js'
import { toBenchmarkAction, toBmf } from '../src/report/ci-formats.js'

const ENV = { node: 'v20.0.0', os: 'Linux', cpuModel: 'Test CPU', cpuCount: 2, memoryBytes: 1 << 30, libVersions: {}, command: 'log-bench run', time: '2026-11-23T10:00:00.000Z', hostname: 'h' }

// Two versions of pino and one of winston, file, 1 worker, 6 runs each; one failed cell.
function resultsFile (dir) {
  const runs = []
  const cells = [['pino', '9.14.0', 600], ['pino', '10.4.0', 500], ['winston', '3.19.0', 900], ['bunyan', '2.0.5', null]]
  for (const [lib, libVersion, centre] of cells) {
    for (let i = 0; i < 6; i++) {
      const doneMs = centre && centre * (1 + (i - 2.5) / 100)
      runs.push(syntheticRun({ lib, libVersion, libRange: lib === 'pino' ? libVersion.split('.')[0] : undefined, run: i + 1, doneMs, maxRssBytes: 1e8 + i }))
    }
  }
  const file = path.join(dir, 'bench.json')
  fs.writeFileSync(file, JSON.stringify({ schema: 1, tool: 'log-bench', kind: 'results', complete: true, interrupted: false, env: ENV, runs, summary: [] }))
  return file
}

const PINO9 = 'pino@9.14.0 workload=string,transport=file,sink=file,cpus=1,events=1000,size=13'

test('report --format bmf: Bencher Metric Format, one benchmark per cell with a finished run, the median and its interval per measure', async () => {
  const dir = tmpDir()
  const file = resultsFile(dir)
  const bmf = toBmf(loadResults([file]))
  assert.deepEqual(Object.keys(bmf).sort(), [PINO9, PINO9.replace('pino@9.14.0', 'pino@10.4.0'), 'winston workload=string,transport=file,sink=file,cpus=1,events=1000,size=13'].sort())
  for (const [name, measures] of Object.entries(bmf)) {
    assert.ok(Object.keys(measures).length >= 4, name)
    for (const [measure, metric] of Object.entries(measures)) {
      assert.deepEqual(Object.keys(metric), ['value', 'lower_value', 'upper_value'], `${name} ${measure}`)
      assert.ok(Object.values(metric).every(Number.isFinite))
      assert.ok(metric.lower_value <= metric.value && metric.value <= metric.upper_value, `${name} ${measure}`)
    }
  }
  // 6 runs: done 600 × (1 ± 2.5%), median 600, its 97% interval the 1st to the 6th run.
  assert.deepEqual(bmf[PINO9].doneMs, { value: 600, lower_value: 585, upper_value: 615 })
  assert.equal(bmf[PINO9].unblockedMs.value, 300)
  const out = path.join(dir, 'out', 'bench.md')
  fs.mkdirSync(path.dirname(out))
  const written = await runCli(['report', file, '--format', 'bmf', '--out', out])
  assert.equal(written.code, 0, written.stderr)
  assert.deepEqual(readJson(path.join(dir, 'out', 'bench.bmf.json')), bmf)
  assert.deepEqual(fs.readdirSync(path.dirname(out)), ['bench.bmf.json'])
})

test('report --format benchmark-action: github-action-benchmark\'s customSmallerIsBetter and customBiggerIsBetter entries', async () => {
  const dir = tmpDir()
  const file = resultsFile(dir)
  const dataset = loadResults([file])
  const smaller = toBenchmarkAction(dataset, 'lower')
  const bigger = toBenchmarkAction(dataset, 'higher')
  for (const entry of [...smaller, ...bigger]) {
    assert.deepEqual(Object.keys(entry), ['name', 'unit', 'value', 'range', 'extra'])
    assert.equal(typeof entry.name, 'string')
    assert.equal(typeof entry.unit, 'string')
    assert.ok(Number.isFinite(entry.value))
    assert.equal(typeof entry.range, 'string')
    assert.equal(typeof entry.extra, 'string')
  }
  assert.deepEqual(new Set(smaller.map((e) => e.unit)), new Set(['ms', 'share']))
  assert.deepEqual(new Set(bigger.map((e) => e.unit)), new Set(['events/s']))
  assert.ok(!smaller.some((e) => /maxRssBytes/.test(e.name)), 'memory has no better direction: in neither file')
  const done = smaller.find((e) => e.name === `${PINO9} doneMs`)
  assert.deepEqual(done, { name: `${PINO9} doneMs`, unit: 'ms', value: 600, range: '585…615 (97% interval)', extra: 'median of 6 finished runs of 6; pino 9.14.0' })
  const written = await runCli(['report', file, '--format', 'benchmark-action', '--out', path.join(dir, 'bench.md')])
  assert.equal(written.code, 0, written.stderr)
  assert.deepEqual(readJson(path.join(dir, 'bench-smaller-is-better.json')), smaller)
  assert.deepEqual(readJson(path.join(dir, 'bench-bigger-is-better.json')), bigger)
  assert.ok(!fs.existsSync(path.join(dir, 'bench.md')))
})
