import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import { ADAPTERS, leftovers, readJson, runCli, tmpDir } from './helpers.js'

const REAL = ['log4js', 'winston', 'bunyan', 'pino']
const EVENTS = 2000

describe('log-bench run: every real library, console and file, 1 and 2 workers', () => {
  const out = path.join(tmpDir(), 'r.json')
  let result
  let doc

  it('finishes with exit code 0 and writes a complete document', async () => {
    result = await runCli(['run', '--lib', 'all,noop,raw', '--transport', 'console,file', '--cpus', '1,2', '--events', String(EVENTS), '--runs', '1', '--out', out])
    assert.equal(result.code, 0, result.stderr)
    doc = readJson(out)
    assert.equal(doc.schema, 1)
    assert.equal(doc.complete, true)
    assert.equal(doc.runs.length, 6 * 2 * 2)
  })

  it('delivers every event of every real library and raw, checked at the receiving end', () => {
    for (const run of doc.runs.filter((r) => r.lib !== 'noop')) {
      const cell = `${run.lib} ${run.transport} ${run.cpus}`
      assert.equal(run.ok, true, `${cell}: ${run.error}`)
      assert.equal(run.sent, EVENTS * run.cpus, cell)
      assert.equal(run.received, run.sent, cell)
      assert.equal(run.corrupt, 0, cell)
      assert.equal(run.duplicates, 0, cell)
      assert.equal(run.dropRate, 0, cell)
    }
  })

  it('records timings, resources and a time series for every run', () => {
    for (const run of doc.runs) {
      const cell = `${run.lib} ${run.transport} ${run.cpus}: `
      assert.ok(run.unblockedMs > 0 && run.doneMs >= run.unblockedMs, `${cell}${run.unblockedMs} ${run.doneMs}`)
      assert.ok(run.eventsPerSec > 0 && run.mbPerSec > 0, `${cell}${run.eventsPerSec} ${run.mbPerSec}`)
      assert.ok(run.cpuUserMs + run.cpuSystemMs > 0, `${cell}cpu ${run.cpuUserMs} ${run.cpuSystemMs}`)
      assert.ok(run.maxRssBytes > 10e6, `${cell}rss ${run.maxRssBytes}`)
      assert.ok(run.maxHeapBytes > 1e6, `${cell}heap ${run.maxHeapBytes}`)
      assert.ok(Number.isInteger(run.gcCount) && run.gcPauseMs >= 0, `${cell}gc ${run.gcCount} ${run.gcPauseMs}`)
      assert.ok(Array.isArray(run.timeseries))
      assert.ok(run.overheadMs >= 0, `${cell}overhead ${run.overheadMs}`)
    }
  })

  it('counts nothing for noop: unknown, not zero and not a 100% drop', () => {
    for (const run of doc.runs.filter((r) => r.lib === 'noop')) {
      assert.equal(run.received, null)
      assert.equal(run.dropRate, null)
    }
  })

  it('records each library version, the environment and a summary per cell with raw multiples', () => {
    for (const lib of REAL) assert.match(doc.env.libVersions[lib], /^\d+\.\d+\.\d+/)
    assert.ok(doc.env.cpuCount >= 1 && doc.env.memoryBytes > 0 && doc.env.node.startsWith('v'))
    assert.equal(doc.summary.length, 6 * 2 * 2)
    const winston = doc.summary.find((s) => s.lib === 'winston' && s.transport === 'file' && s.cpus === 2)
    assert.equal(winston.status, 'ok')
    assert.ok(winston.doneMs.mean > 0 && winston.doneMs.median > 0 && winston.doneVsRaw > 0)
  })

  it('prints the seed-shaped tables', () => {
    assert.match(result.stdout, /\| Test 1 /)
    assert.match(result.stdout, /\| Average +\|/)
    // The terminal shows the report's tables, without markdown's marks: worker counts over unblocked,
    // done and drop rate.
    assert.match(result.stdout, /\| +1 worker \| +1 worker \| +1 worker \| +2 workers \|/)
    assert.match(result.stdout, /\| +unblocked \| +done \| +drop rate \|/)
    assert.doesNotMatch(result.stdout, /\*\*|<br>|_unblocked_/)
  })

  it('leaves no process behind', () => {
    assert.deepEqual(leftovers(result.tag), [])
  })
})

describe('verification catches what a logger gets wrong', () => {
  it('counts exactly the events a lossy logger dropped', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'lossy.js'), '--transport', 'file,console', '--cpus', '2', '--events', '1000', '--runs', '1', '--out', out])
    assert.equal(result.code, 0, result.stderr)
    for (const run of readJson(out).runs) {
      assert.equal(run.ok, true)
      assert.equal(run.sent, 2000)
      assert.equal(run.received, 1800, run.transport)
      assert.equal(run.dropRate, 0.1)
      assert.equal(run.corrupt, 0)
    }
  })

  it('counts truncated lines as corrupt and repeats as duplicates', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'truncating.js'), '--transport', 'file', '--events', '700', '--runs', '1', '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const [run] = readJson(out).runs
    // 140 lines cut short; 100 repeated whole, 20 of which repeat a cut-short event and so deliver it.
    assert.equal(run.corrupt, 140)
    assert.equal(run.received, 700 - 140 + 20)
    assert.equal(run.duplicates, 100 - 20)
    assert.equal(run.dropRate, 120 / 700)
  })
})
