import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import { Verifier } from '../src/sinks/verifier.js'
import { FIELD_TOKENS, WORKLOADS } from '../src/engine/workloads.js'
import { ADAPTERS, readJson, runCli, tmpDir } from './helpers.js'

const REAL = ['log4js', 'winston', 'bunyan', 'pino']
// string, the seed's call, is covered by run.test.js.
const MEASURED = WORKLOADS.filter((w) => w !== 'string')
const EVENTS = 300
// winston's Logger ends its File transport while entries are still queued for it when lines are
// long (a few hundred bytes) and logger.end() comes under backpressure: "write after end", on the
// string workload too with --size 600 (winstonjs/winston#2219). A result about winston, kept visible here, not patched.
const WINSTON_FILE_RACE = /write after end/
const knownWinstonFailure = (run) => run.lib === 'winston' && run.transport === 'file' && ['deep', 'error'].includes(run.workload) && WINSTON_FILE_RACE.test(run.error ?? '')
const PAYLOAD = 'Hello, world!'

describe('workloads: each of the four libraries on console and file', () => {
  const out = path.join(tmpDir(), 'w.json')
  let doc

  it('runs every workload and records each cell with its workload', async () => {
    // 48 runs, most of each the start of its processes: two shards side by side, joined by merge.
    const args = ['run', '--lib', 'all', '--workload', MEASURED.join(','), '--transport', 'console,file', '--events', String(EVENTS), '--runs', '1', '--quiet']
    const parts = ['1', '2'].map((k) => `${out}.${k}`)
    const shards = await Promise.all(parts.map((part, i) => runCli([...args, '--shard', `${i + 1}/2`, '--out', part])))
    for (const shard of shards) assert.equal(shard.code, 0, shard.stderr)
    const merged = await runCli(['merge', ...parts, '--out', out])
    assert.equal(merged.code, 0, merged.stderr)
    doc = readJson(out)
    assert.equal(doc.runs.length, REAL.length * MEASURED.length * 2)
    for (const lib of REAL) {
      for (const workload of MEASURED) assert.equal(doc.runs.filter((r) => r.lib === lib && r.workload === workload).length, 2, `${lib} ${workload}`)
    }
    const stdout = shards.map((shard) => shard.stdout).join('\n')
    assert.match(stdout, /pino object/)
    assert.match(stdout, /bunyan disabled/)
  })

  it('delivers every event, fields included (none for disabled), or says why the workload is unsupported', () => {
    for (const run of doc.runs) {
      const cell = `${run.lib} ${run.workload} ${run.transport}`
      assert.equal(run.variant, 'default', cell)
      if (run.status === 'unsupported') {
        assert.ok(run.error.length > 20, cell)
        assert.equal(run.sent, null, `${cell}: an unsupported workload must not run`)
        continue
      }
      if (knownWinstonFailure(run)) continue
      assert.equal(run.ok, true, `${cell}: ${run.error}`)
      assert.equal(run.sent, EVENTS, cell)
      assert.equal(run.corrupt, 0, cell)
      assert.equal(run.duplicates, 0, cell)
      assert.ok(run.nsPerEvent > 0, cell)
      if (run.workload === 'disabled') {
        assert.equal(run.expected, 0, cell)
        assert.equal(run.received, 0, cell)
        assert.equal(run.dropRate, null, cell)
      } else {
        assert.equal(run.expected, EVENTS, cell)
        assert.equal(run.received, EVENTS, cell)
        assert.equal(run.dropRate, 0, cell)
      }
    }
    const unsupported = doc.runs.filter((r) => r.status === 'unsupported').map((r) => `${r.lib} ${r.workload}`)
    assert.deepEqual([...new Set(unsupported)].sort(), ['log4js error', 'winston interpolate'])
  })

  it('keys the summary by workload', () => {
    const pino = doc.summary.filter((s) => s.lib === 'pino' && s.transport === 'file')
    assert.deepEqual(pino.map((s) => s.workload), MEASURED)
    assert.ok(pino.every((s) => s.nsPerEvent?.mean > 0))
  })
})

// Each test here is its own run in its own directory: two at a time.
describe('workloads: the receiving end checks the fields', { concurrency: 2 }, () => {
  it('counts a line that kept its marker but lost its fields as corrupt (file and console)', async () => {
    const out = path.join(tmpDir(), 'f.json')
    const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'loses-fields.js'), '--workload', 'object', '--transport', 'file,console', '--events', '200', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    for (const run of readJson(out).runs) {
      assert.equal(run.received, 100, run.transport)
      assert.equal(run.corrupt, 100, run.transport)
      assert.equal(run.dropRate, 0.5, run.transport)
    }
  })

  it('flags events that arrive although the level disables them', async () => {
    const out = path.join(tmpDir(), 'd.json')
    const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'logs-when-disabled.js'), '--workload', 'disabled', '--transport', 'file', '--events', '50', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const [run] = readJson(out).runs
    assert.equal(run.ok, false)
    assert.equal(run.status, 'failed')
    assert.equal(run.error, '50 events arrived although the level disables them')
    assert.equal(run.sent, 50)
    assert.equal(run.expected, 0)
    assert.equal(run.dropRate, null)
  })

  it('reports a workload an adapter does not declare as unsupported, without running it', async () => {
    const out = path.join(tmpDir(), 'u.json')
    const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'loses-fields.js'), '--workload', 'deep', '--transport', 'file', '--events', '50', '--runs', '2', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const runs = readJson(out).runs
    assert.equal(runs.length, 1)
    assert.equal(runs[0].status, 'unsupported')
    assert.equal(runs[0].workload, 'deep')
    assert.match(runs[0].error, /does not implement the deep workload/)
    assert.equal(runs[0].received, null)
  })

  it('Verifier: field tokens are found in any format, and missing ones are corrupt, in check() and checkBytes()', () => {
    const lines = [
      `{"reqId":"req-7f3a9c","msg":"w0 0: ${PAYLOAD}","region":"eu-west-1"}`,
      `{ "msg": "w0 1: ${PAYLOAD}", "reqId": "req-7f3a9c", "region": "eu-west-1" }`,
      `w0 2: ${PAYLOAD} { reqId: 'req-7f3a9c', region: 'eu-west-1' }`,
      `{"msg":"w0 3: ${PAYLOAD}","reqId":"req-7f3a9c"}`,
      `{"msg":"w0 4: ${PAYLOAD}"}`,
      `{"msg":"w0 5: ${PAYLOAD}"}`,
      `{"msg":"w0 6: ${PAYLOAD}","region":"eu-west-1","reqId":"req-7f3a9c"}`
    ]
    const strings = new Verifier({ workers: 1, events: 10, payload: PAYLOAD, workload: 'object' })
    for (const line of lines) strings.check(line)
    const bytes = new Verifier({ workers: 1, events: 10, payload: PAYLOAD, workload: 'object' })
    const buf = Buffer.from(lines.join('\n') + '\n')
    let start = 0
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) {
      bytes.checkBytes(buf, start, nl)
      start = nl + 1
    }
    for (const verifier of [strings, bytes]) {
      assert.equal(verifier.received, 4)
      assert.equal(verifier.corrupt, 3)
    }
    assert.deepEqual(FIELD_TOKENS.object, ['req-7f3a9c', 'eu-west-1'])
  })
})

describe('variants', { concurrency: 2 }, () => {
  it('pino:sync and pino:transport to file deliver every event, recorded with their variant', async () => {
    const out = path.join(tmpDir(), 'v.json')
    const result = await runCli(['run', '--lib', 'pino,pino:sync,pino:transport,log4js:fileSync', '--transport', 'file', '--events', '500', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /pino:transport/)
    const runs = readJson(out).runs
    for (const variant of ['default', 'sync', 'transport']) {
      const run = runs.find((r) => r.lib === 'pino' && r.variant === variant && r.transport === 'file')
      assert.equal(run.ok, true, `${variant}: ${run.error}`)
      assert.equal(run.received, 500, variant)
      assert.equal(run.corrupt, 0, variant)
    }
    assert.equal(runs.find((r) => r.lib === 'log4js' && r.variant === 'fileSync').received, 500)
  })

  it('a variant on a transport it does not document is unsupported, not run as the default', async () => {
    const out = path.join(tmpDir(), 'c.json')
    const result = await runCli(['run', '--lib', 'log4js:fileSync', '--transport', 'console', '--events', '50', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const [run] = readJson(out).runs
    assert.equal(run.status, 'unsupported')
    assert.equal(run.variant, 'fileSync')
    assert.match(run.error, /file only/)
  })

  it('an unknown variant or workload is bad input: one line, exit 2', async () => {
    for (const args of [['--lib', 'pino:nope'], ['--workload', 'objects']]) {
      const result = await runCli(['run', ...args, '--events', '10', '--runs', '1', '--out', path.join(tmpDir(), 'x.json')])
      assert.equal(result.code, 2, args.join(' '))
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
    }
  })
})
