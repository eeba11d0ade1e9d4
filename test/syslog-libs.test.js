import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { leftovers, readJson, runCli, runShards, tmpDir } from './helpers.js'

const EVENTS = 500

// Every library and the raw baseline, over UDP and TCP, into the embedded sink: each run counted
// by the sink itself. log4js has no TCP syslog appender that installs beside log4js 6.
test('every library × udp and tcp against the embedded sink', async () => {
  const out = path.join(tmpDir(), 'embedded.json')
  // Four groups (transport × workers) of independent runs: two shards side by side.
  const shards = await runShards(['run', '--lib', 'all,raw', '--transport', 'udp,tcp', '--events', String(EVENTS), '--runs', '1', '--cpus', '1,2', '--timeout', '60', '--quiet'], out, 2, { timeoutMs: 170_000 })
  for (const { code, stderr, doc } of shards) {
    assert.equal(code, 0, stderr)
    assert.equal(doc.env.options.syslog.sink, 'embedded')
    assert.ok(doc.env.options.syslog.udpReceiveBufferBytes > 0)
  }
  const runs = shards.flatMap(({ doc }) => doc.runs)
  // all = the seed's four, and raw: 5 libraries × 2 transports × 2 worker counts, one run each.
  assert.equal(runs.length, 5 * 2 * 2)
  for (const run of runs) {
    const where = `${run.lib} ${run.transport} ${run.cpus} cpus`
    if (run.lib === 'log4js' && run.transport === 'tcp') {
      assert.equal(run.status, 'unsupported', where)
      continue
    }
    assert.equal(run.status, 'ok', `${where}: ${run.error}`)
    assert.equal(run.sink, `embedded-${run.transport}`)
    assert.equal(run.sent, EVENTS * run.cpus)
    assert.equal(run.dropRate, (run.sent - run.received) / run.sent, where)
    assert.equal(run.duplicates, 0, where)
    assert.equal(run.corrupt, 0, where)
    // Loopback TCP cannot lose what a library handed over; UDP may drop under load, and is counted.
    if (run.transport === 'tcp') assert.equal(run.received, run.sent, where)
    else assert.ok(run.received > 0, where)
    assert.ok(run.doneMs >= run.unblockedMs, where)
  }
  for (const { tag } of shards) assert.deepEqual(leftovers(tag), [])
})

test('an external server: the drop rate is unknown, and the terminal says so', async () => {
  const out = path.join(tmpDir(), 'external.json')
  const result = await runCli(['run', '--lib', 'raw', '--transport', 'udp', '--events', '200', '--runs', '1', '--syslog-host', '127.0.0.1', '--syslog-port', '9', '--out', out, '--quiet'])
  assert.equal(result.code, 0, result.stderr)
  const [run] = readJson(out).runs
  assert.equal(run.sink, 'external-udp')
  assert.deepEqual([run.received, run.corrupt, run.duplicates, run.dropRate], [null, null, null, null])
  assert.match(result.stdout, /drop rate are unknown \(null in the results\), not 0/)
})

test('bad syslog options are one line and exit 2', async () => {
  const cases = [
    [['--syslog', 'nope'], /unknown syslog sink/],
    [['--syslog-port', '514'], /--syslog-port needs --syslog-host/],
    [['--syslog-host', 'h', '--syslog-port', '70000'], /--syslog-port must be an integer from 1 to 65535/],
    [['--syslog-host', 'h', '--syslog', 'rsyslog'], /cannot be combined/]
  ]
  // Four refusals, each a process of its own: side by side.
  const results = await Promise.all(cases.map(([args]) => runCli(['run', '--lib', 'raw', '--transport', 'udp', ...args])))
  for (const [i, [args, message]] of cases.entries()) {
    const result = results[i]
    assert.equal(result.code, 2, args.join(' '))
    assert.match(result.stderr, message)
    assert.equal(result.stderr.trim().split('\n').length, 1)
  }
})
