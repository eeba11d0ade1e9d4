import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { cellKey, inPlanOrder } from '../src/results/model.js'
import { ROOT, leftovers, readJson, rsyslogSkip, runCli, tmpDir } from './helpers.js'

const SCENARIO = path.join(ROOT, 'test', 'fixtures', 'scenarios', 'dimensions.json')
const where = (r) => `${r.sink} ${r.events} events ${r.size} B`

describe('cellKey', () => {
  const base = { type: 'run', lib: 'raw', transport: 'udp', sink: 'embedded-udp', cpus: 1, events: 1000, size: 13 }

  it('tells apart every dimension that changes what is measured', () => {
    const changes = { lib: 'pino', variant: 'sync', workload: 'object', transport: 'tcp', sink: 'rsyslog-udp', cpus: 2, events: 100_000, size: 40 }
    for (const [field, value] of Object.entries(changes)) {
      assert.notEqual(cellKey({ ...base, [field]: value }), cellKey(base), field)
    }
    const http = { ...base, type: 'http', mode: 'route', middleware: null, logsPerRequest: 1, connections: 10, pipelining: 1, durationSeconds: 10, warmupSeconds: 1 }
    for (const [field, value] of Object.entries({ mode: 'middleware', middleware: 'pino-http', logsPerRequest: 5, connections: 50, pipelining: 4, durationSeconds: 30, warmupSeconds: 0 })) {
      assert.notEqual(cellKey({ ...http, [field]: value }), cellKey(http), field)
    }
  })

  it('reads a record without the newer fields as the defaults, and leaves out what it is told to', () => {
    const { sink, ...old } = base
    assert.equal(cellKey({ ...old, type: undefined }), cellKey({ ...base, variant: 'default', workload: 'string' }))
    assert.equal(cellKey({ ...base, lib: 'pino' }, { except: ['lib'] }), cellKey(base, { except: ['lib'] }))
    assert.equal(cellKey({ ...base, run: 1, doneMs: 5 }), cellKey({ ...base, run: 2, doneMs: 7 }))
  })
})

describe('groups that differ only by events, receiving end or size', { skip: rsyslogSkip }, () => {
  const dir = tmpDir()
  const file = (name) => path.join(dir, name)

  it('are summarized apart', async () => {
    const result = await runCli(['run', '--scenario', SCENARIO, '--out', file('all.json'), '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(leftovers(result.tag), [])
    const doc = readJson(file('all.json'))
    assert.ok(doc.runs.every((r) => r.ok), JSON.stringify(doc.runs.map((r) => r.error)))
    const cells = ['embedded-udp 200 events 13 B', 'embedded-udp 300 events 13 B', 'rsyslog-udp 200 events 13 B', 'embedded-udp 200 events 40 B']
    // Runs are listed as they ran (interleaved); in plan order they are the scenario's cells.
    assert.deepEqual(inPlanOrder(doc.runs).map(where), cells)
    assert.deepEqual(doc.summary.map(where), cells)
    assert.deepEqual(doc.summary.map((s) => s.runs), [1, 1, 1, 1])
  })

  it('are not skipped by --resume', async () => {
    const doc = readJson(file('all.json'))
    const first = doc.runs[0]
    fs.writeFileSync(file('partial.json'), JSON.stringify({ ...doc, complete: false, runs: [first], summary: [] }))
    const result = await runCli(['run', '--scenario', SCENARIO, '--out', file('partial.json'), '--resume', '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const resumed = readJson(file('partial.json'))
    assert.equal(resumed.runs.length, 4)
    assert.deepEqual(resumed.runs[0], first)
    assert.deepEqual(inPlanOrder(resumed.runs).map(where), inPlanOrder(doc.runs).map(where))
  })

  it('are not duplicates to merge', async () => {
    // The two shards are separate invocations with files of their own: side by side.
    const shards = await Promise.all(['1/2', '2/2'].map((shard) => runCli(['run', '--scenario', SCENARIO, '--shard', shard, '--out', file(`s${shard[0]}.json`), '--quiet'])))
    for (const result of shards) assert.equal(result.code, 0, result.stderr)
    const merged = await runCli(['merge', file('s1.json'), file('s2.json'), '--out', file('merged.json')])
    assert.equal(merged.code, 0, merged.stderr)
    const doc = readJson(file('merged.json'))
    assert.deepEqual(doc.runs.map(where), inPlanOrder(readJson(file('all.json')).runs).map(where))
    assert.equal(doc.summary.length, 4)
  })
})
