import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { findRsyslogd, freePort, requireRsyslogd, rsyslogConfig, startRsyslog } from '../src/sinks/rsyslog.js'
import { leftovers, rsyslogSkip, runCli, runShards, tmpDir } from './helpers.js'

// Skipped with the reason where rsyslogd is not installed, a failure in CI (see rsyslogSkip).
const rsyslogd = findRsyslogd()
const skip = rsyslogSkip
const EVENTS = 400

function rsyslogProcesses (dir) {
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(dir) } catch { return false }
  })
}

test('rsyslogd is installed', { skip }, () => {
  assert.ok(rsyslogd, 'rsyslogd not found although LOG_BENCH_REQUIRE_RSYSLOG=1')
})

test('every library × udp and tcp through a real rsyslogd, verified from its output file', { skip }, async () => {
  const out = path.join(tmpDir(), 'rsyslog.json')
  // UDP and TCP, each with an rsyslogd of its own: two shards side by side.
  const shards = await runShards(['run', '--lib', 'all,raw', '--transport', 'udp,tcp', '--syslog', 'rsyslog', '--events', String(EVENTS), '--runs', '1', '--timeout', '60', '--quiet'], out, 2, { timeoutMs: 170_000 })
  for (const { code, stderr, doc } of shards) {
    assert.equal(code, 0, stderr)
    assert.equal(doc.env.options.syslog.sink, 'rsyslog')
  }
  const runs = shards.flatMap(({ doc }) => doc.runs)
  // all = the seed's four, and raw: 5 libraries × 2 transports, one run each.
  assert.equal(runs.length, 5 * 2)
  for (const run of runs) {
    const where = `${run.lib} ${run.transport}`
    if (run.lib === 'log4js' && run.transport === 'tcp') continue
    assert.equal(run.status, 'ok', `${where}: ${run.error}`)
    assert.equal(run.sink, `rsyslog-${run.transport}`)
    assert.equal(run.corrupt, 0, where)
    assert.equal(run.duplicates, 0, where)
    assert.equal(run.dropRate, (run.sent - run.received) / run.sent, where)
    if (run.transport === 'tcp') assert.equal(run.received, run.sent, where)
    else assert.ok(run.received > 0, where)
    // rsyslog's own counters (impstats, read after the run) agree with what the harness counted
    // in its output file: every line written is an event received, damaged or repeated.
    const stats = run.rsyslogStats
    assert.equal(stats.outputWritten, run.received + run.corrupt + run.duplicates, `${where}: ${JSON.stringify(stats)}`)
    assert.equal(stats.submitted, stats.outputWritten + stats.queueDiscarded + stats.outputFailed, `${where}: ${JSON.stringify(stats)}`)
    assert.ok(stats.maxRssBytes > 1e6, where)
    if (run.transport === 'udp') assert.equal(typeof run.receiverSocketDrops, 'number', where)
    // What the kernel granted rsyslogd's socket (ss), and its drops over the run: UDP only.
    if (run.transport === 'udp') {
      assert.ok(Number.isInteger(run.receiveBufferBytes) && run.receiveBufferBytes > 0, `${where}: receiveBufferBytes ${run.receiveBufferBytes}`)
      assert.ok(Number.isInteger(run.receiverDrops) && run.receiverDrops <= run.sent - run.received, `${where}: receiverDrops ${run.receiverDrops}`)
    } else {
      assert.equal(run.receiveBufferBytes, null, where)
      assert.equal(run.receiverDrops, null, where)
    }
  }
  for (const { tag } of shards) assert.deepEqual(leftovers(tag), [], 'rsyslogd and every other process are stopped')
})

test('a configuration rsyslogd rejects is one clear error, and nothing is left running', { skip }, async () => {
  const dir = tmpDir('lb-rsyslog-')
  try {
    const udpPort = await freePort('udp')
    const configText = rsyslogConfig({ dir, udpPort, tcpPort: null, receiveBufferBytes: 1 << 20 }) + '\nmodule(load="no-such-module")\n'
    await assert.rejects(startRsyslog({ binary: rsyslogd, dir, configText, udpPort, tcpPort: null }), /rsyslogd rejected its configuration: .*no-such-module/)
    const syntax = 'input(type="imudp" port=\n'
    await assert.rejects(startRsyslog({ binary: rsyslogd, dir, configText: syntax, udpPort, tcpPort: null }), /rsyslogd rejected its configuration/)
    assert.deepEqual(rsyslogProcesses(dir), [])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('rsyslogd stops with the handle, and a port taken by someone else fails the start', { skip }, async () => {
  const dir = tmpDir('lb-rsyslog-')
  try {
    const tcpPort = await freePort('tcp')
    const handle = await startRsyslog({
      binary: rsyslogd,
      dir,
      configText: rsyslogConfig({ dir, udpPort: null, tcpPort }),
      udpPort: null,
      tcpPort
    })
    assert.equal(rsyslogProcesses(dir).length, 1)
    const second = tmpDir('lb-rsyslog-')
    await assert.rejects(startRsyslog({ binary: rsyslogd, dir: second, configText: rsyslogConfig({ dir: second, udpPort: null, tcpPort }), udpPort: null, tcpPort }), /rsyslogd cannot listen on 127\.0\.0\.1 tcp\/\d+: .*Address already in use/)
    assert.deepEqual(rsyslogProcesses(second), [])
    fs.rmSync(second, { recursive: true, force: true })
    await handle.stop()
    assert.deepEqual(rsyslogProcesses(dir), [])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('LOG_BENCH_RSYSLOGD naming no executable: one line naming the variable, not "not found: install it"', async () => {
  process.env.LOG_BENCH_RSYSLOGD = '/nonexistent/rsyslogd'
  let result
  try {
    result = await runCli(['run', '--lib', 'raw', '--transport', 'udp', '--syslog', 'rsyslog'])
  } finally {
    delete process.env.LOG_BENCH_RSYSLOGD
  }
  assert.equal(result.code, 2)
  assert.equal(result.stderr.trim().split('\n').length, 1)
  assert.match(result.stderr, /^log-bench: LOG_BENCH_RSYSLOGD=\/nonexistent\/rsyslogd is not an executable file: point it at rsyslogd, or unset it to use the rsyslogd on PATH\n$/)
})

test('no rsyslogd anywhere: the refusal says how to install it', (t) => {
  // The sbin directories are always searched: where rsyslog is installed (CI) this case cannot arise.
  if (findRsyslogd({ PATH: '' }) !== null) return t.skip('rsyslogd is installed in an sbin directory')
  assert.throws(() => requireRsyslogd({ PATH: '' }), /^UsageError: rsyslogd not found: install it with `apt-get install rsyslog` \(Debian\/Ubuntu\), or run rsyslog in Docker \(see docs\/syslog.md\)$/)
})
