import assert from 'node:assert/strict'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { describe, it } from 'node:test'
import { leftovers, readJson, ROOT, runCli, tmpDir, rsyslogSkip, waitFor } from './helpers.js'
import { inPlanOrder } from '../src/results/model.js'

const CRASHING = path.join(ROOT, 'test', 'fixtures', 'http-crashing-adapter.js')
const SHORT = ['--duration', '1', '--warmup', '0', '--connections', '4', '--runs', '1', '--quiet']

function assertMeasured (run) {
  const cell = `${run.lib} ${run.mode} ${run.transport}`
  assert.equal(run.ok, true, `${cell}: ${run.error}`)
  assert.ok(run.requests > 0, `${cell}: no request completed`)
  assert.ok(run.reqPerSec.mean > 0, cell)
  for (const key of ['p2_5', 'p50', 'p97_5', 'p99', 'mean', 'stddev', 'max']) assert.equal(typeof run.latencyMs[key], 'number', `${cell}: latency ${key}`)
  for (const key of ['mean', 'stddev', 'min', 'p1', 'p2_5', 'p50', 'p97_5']) assert.equal(typeof run.reqPerSec[key], 'number', `${cell}: req/s ${key}`)
  assert.ok(run.bytesPerSec.mean > 0, cell)
  assert.equal(run.requestErrors, 0, cell)
  assert.equal(run.non2xx, 0, cell)
  assert.ok(run.serverCpuUserMs > 0 && run.maxRssBytes > 10e6, cell)
}

function assertEveryEventArrived (run) {
  const cell = `${run.lib} ${run.mode} ${run.transport}`
  assert.ok(run.sent > 0, `${cell}: nothing logged`)
  assert.equal(run.received, run.sent, cell)
  assert.equal(run.corrupt, 0, cell)
  assert.equal(run.duplicates, 0, cell)
  assert.equal(run.dropRate, 0, cell)
}

async function assertNoLeftovers (tag) {
  // The CLI has exited; its children get a moment to be reaped.
  await new Promise((resolve) => setTimeout(resolve, 200))
  assert.deepEqual(leftovers(tag), [])
}

describe('log-bench http, route mode: none and every library, events counted through the stdout pipe', () => {
  const out = path.join(tmpDir(), 'h.json')
  let doc
  let result

  it('finishes with exit code 0, a complete document and the seed\'s tables', async () => {
    result = await runCli(['http', '--lib', 'all,noop', '--logs-per-request', '3', '--size', '20', '--transport', 'console', ...SHORT, '--out', out])
    assert.equal(result.code, 0, result.stderr)
    doc = readJson(out)
    assert.equal(doc.complete, true)
    assert.deepEqual(inPlanOrder(doc.runs).map((r) => r.lib), ['none', 'log4js', 'winston', 'bunyan', 'pino', 'noop'])
    assert.match(result.stdout, /\| Latency +\| +2\.5% \| +50% \| +97\.5% \| +99% \| +Avg \| +Stdev \| +Max \|/)
    assert.match(result.stdout, /\| pino Req\/Sec +\|/)
    assert.match(result.stdout, /\| none +\| .*baseline/)
  })

  it('measures every run and counts every event each real library logged', () => {
    for (const run of doc.runs) {
      assert.equal(run.type, 'http')
      assert.equal(run.mode, 'route')
      assertMeasured(run)
    }
    for (const run of doc.runs.filter((r) => !['none', 'noop'].includes(r.lib))) assertEveryEventArrived(run)
    const none = doc.runs.find((r) => r.lib === 'none')
    assert.equal(none.sent, 0)
    assert.equal(none.received, 0)
    assert.equal(doc.runs.find((r) => r.lib === 'noop').received, null, 'noop cannot be counted: unknown, not 0')
  })

  it('gives every library its throughput against none in the summary: ratio of medians, interval, verdict', () => {
    const baseline = doc.summary.find((s) => s.type === 'http' && s.lib === 'none')
    assert.ok(baseline.reqPerSec.mean > 0)
    assert.equal(baseline.throughputChangePct, null)
    for (const lib of ['log4js', 'winston', 'bunyan', 'pino', 'noop']) {
      const entry = doc.summary.find((s) => s.type === 'http' && s.lib === lib)
      assert.equal(entry.status, 'ok', lib)
      const expected = (entry.reqPerSec.median / baseline.reqPerSec.median - 1) * 100
      assert.ok(Math.abs(entry.throughputChangePct - expected) < 1e-9, lib)
      assert.ok(Math.abs(entry.throughputVsBaseline.ratio - 1 - expected / 100) < 1e-9, lib)
      assert.equal(entry.throughputVsBaseline.verdict, 'unclear', `${lib}: one run each cannot tell`)
    }
  })

  it('runs the server and the load on disjoint CPUs, and records where each process ran', () => {
    const placement = new Set(doc.runs.map((r) => JSON.stringify([r.serverCpus, r.loadCpus])))
    assert.equal(placement.size, 1, 'one placement for the whole plan')
    for (const run of doc.runs) {
      if (!run.placement.pinned) {
        assert.equal(run.serverCpus, null)
        assert.match(run.placement.reason, /taskset|only CPU/)
        continue
      }
      const { observed } = run.placement
      assert.deepEqual([run.placement.serverCpus, run.placement.loadCpus], [run.serverCpus, run.loadCpus])
      assert.deepEqual(observed.server, [run.serverCpus], `${run.lib}: server worker`)
      assert.equal(observed.load, run.loadCpus, `${run.lib}: autocannon`)
      assert.equal(observed.primary, run.loadCpus, `${run.lib}: primary`)
      assert.notEqual(run.serverCpus, run.loadCpus)
    }
  })

  it('leaves no server or load generator running', () => assertNoLeftovers(result.tag))
})

describe('log-bench http --middleware: each library\'s own request logger, to files', () => {
  const out = path.join(tmpDir(), 'm.json')
  let doc
  let result

  it('finishes with exit code 0', async () => {
    result = await runCli(['http', '--lib', 'none,all', '--middleware', '--size', '30', '--transport', 'file', ...SHORT, '--out', out])
    assert.equal(result.code, 0, result.stderr)
    doc = readJson(out)
    assert.equal(doc.complete, true)
  })

  it('logs one verified event per request through pino-http, express-winston and log4js connectLogger', () => {
    for (const [lib, middleware] of [['pino', 'pino-http'], ['winston', 'express-winston'], ['log4js', 'log4js connectLogger']]) {
      const run = doc.runs.find((r) => r.lib === lib && r.mode === 'middleware')
      assert.equal(run.middleware, middleware)
      assert.match(run.middlewareVersion, /^\d+\.\d+\.\d+/)
      assertMeasured(run)
      assertEveryEventArrived(run)
      // Requests cut off when the load stops may be answered but not counted by autocannon.
      assert.ok(run.sent >= run.requests && run.sent <= run.requests + 50, `${lib}: ${run.sent} events for ${run.requests} requests`)
    }
    assertMeasured(doc.runs.find((r) => r.lib === 'none' && r.mode === 'middleware'))
  })

  it('runs its control from the command line too: the route at 0 logs per request, for none and each library with a request logger', () => {
    const control = doc.runs.filter((r) => r.mode === 'route')
    assert.deepEqual(control.map((r) => r.lib).sort(), ['log4js', 'none', 'pino', 'winston'])
    for (const run of control) {
      assert.equal(run.logsPerRequest, 0)
      assert.equal(run.size, 30)
      assert.equal(run.sent, 0, `${run.lib} logs nothing in the control`)
      assertMeasured(run)
    }
  })

  it('reports bunyan as unsupported, with the reason', () => {
    const bunyan = doc.runs.find((r) => r.lib === 'bunyan')
    assert.equal(bunyan.status, 'unsupported')
    assert.match(bunyan.error, /no express request logger/)
    assert.equal(doc.summary.find((s) => s.type === 'http' && s.lib === 'bunyan').status, 'unsupported')
  })

  it('leaves no server or load generator running', () => assertNoLeftovers(result.tag))
})

// Each failure is its own run, found by its own tag, asserting a reason and no figure (a --rate of
// 100,000 fails the more surely beside another): two at a time.
describe('log-bench http failures: each becomes a failed run with its reason, and the rest goes on', { concurrency: 2 }, () => {
  it('a logger that crashes the server mid-load', async () => {
    const out = path.join(tmpDir(), 'c.json')
    const result = await runCli(['http', '--lib', `none,${CRASHING},pino`, '--logs-per-request', '3', ...SHORT, '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const doc = readJson(out)
    const crashed = doc.runs.find((r) => r.lib === 'crashing')
    assert.equal(crashed.status, 'failed')
    assert.match(crashed.error, /server worker 0 failed while serving requests \(uncaught error\): destination exploded/)
    assertMeasured(doc.runs.find((r) => r.lib === 'pino'))
    assert.match(result.stdout, /1 failed run/)
    await assertNoLeftovers(result.tag)
  })

  it('--rate far above what the server can serve: a failed run with the rate it reached, its figures kept and left out of the summary', async () => {
    const out = path.join(tmpDir(), 'rate.json')
    const result = await runCli(['http', '--lib', 'none', '--logs-per-request', '0', '--rate', '100000', ...SHORT, '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const doc = readJson(out)
    const [run] = doc.runs
    assert.equal(run.status, 'failed')
    assert.ok(
      run.requests > 0 && run.reachedRate === run.requests / run.loadSeconds && run.reachedRate < 95_000,
      JSON.stringify(run)
    )
    assert.equal(run.error, `reached ${Math.round(run.reachedRate).toLocaleString('en-US')} of 100,000 requests/s`)
    assert.equal(doc.summary[0].okRuns, 0)
    assert.equal(doc.summary[0].reqPerSec, null)
    assert.match(result.stdout, /1 failed run/)
    await assertNoLeftovers(result.tag)
  })

  it('a port already in use', async () => {
    const blocker = net.createServer()
    await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address()
    try {
      const out = path.join(tmpDir(), 'p.json')
      const result = await runCli(['http', '--lib', 'none,pino', '--port', String(port), ...SHORT, '--out', out])
      assert.equal(result.code, 0, result.stderr)
      const doc = readJson(out)
      assert.deepEqual(doc.runs.map((r) => r.lib).sort(), ['none', 'pino'])
      for (const run of doc.runs) {
        assert.equal(run.status, 'failed')
        assert.match(run.error, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`))
      }
      await assertNoLeftovers(result.tag)
    } finally {
      blocker.close()
    }
  })

  it('Ctrl-C: exit 130, the document says interrupted, nothing left running', async () => {
    const out = path.join(tmpDir(), 'i.json')
    let child
    const finished = runCli(['http', '--lib', 'none,pino', '--duration', '20', '--warmup', '0', '--out', out], { onSpawn: (c) => { child = c } })
    // Interrupt while the first run's server is under load: once the load generator runs, however
    // long a busy machine takes to get there (the test's own time limit bounds the wait).
    await waitFor(() => childrenOf(child).some((cmdline) => cmdline.includes('load-driver.js')), 500_000)
    child.kill('SIGINT')
    const result = await finished
    assert.equal(result.code, 130, result.stderr)
    const doc = readJson(out)
    assert.equal(doc.interrupted, true)
    assert.equal(doc.complete, false)
    assert.equal(doc.runs.at(-1).status, 'interrupted')
    await assertNoLeftovers(result.tag)
  })
})

// The command lines of the processes whose parent is the CLI: the server worker(s) and the load generator.
function childrenOf (child) {
  const found = []
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === child.pid) found.push(fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1'))
    } catch {}
  }
  return found
}

describe('log-bench http over syslog: the same receiving ends as run', () => {
  it('--syslog rsyslog: every event the server logged is counted in rsyslog\'s output', { skip: rsyslogSkip }, async () => {
    const out = path.join(tmpDir(), 'rs.json')
    const result = await runCli(['http', '--lib', 'none,pino', '--transport', 'udp,tcp', '--syslog', 'rsyslog', '--logs-per-request', '2', ...SHORT, '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const doc = readJson(out)
    assert.equal(doc.env.options.syslog.sink, 'rsyslog')
    const pino = inPlanOrder(doc.runs).filter((r) => r.lib === 'pino')
    assert.deepEqual(pino.map((r) => r.sink), ['rsyslog-udp', 'rsyslog-tcp'])
    for (const run of pino) assertEveryEventArrived(run)
    await assertNoLeftovers(result.tag)
  })

  it('--syslog-host: a server the user runs, counts unknown (null), never 0', async () => {
    const out = path.join(tmpDir(), 'ext.json')
    const server = net.createServer((socket) => socket.resume())
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const result = await runCli(['http', '--lib', 'none,bunyan', '--transport', 'tcp', '--syslog-host', '127.0.0.1', '--syslog-port', String(server.address().port), '--logs-per-request', '1', ...SHORT, '--out', out])
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /the harness cannot see what arrived there/)
      const run = readJson(out).runs.find((r) => r.lib === 'bunyan')
      assert.equal(run.ok, true, run.error)
      assert.equal(run.sink, 'external-tcp')
      assert.ok(run.sent > 0)
      assert.equal(run.received, null)
      assert.equal(run.dropRate, null)
      await assertNoLeftovers(result.tag)
    } finally {
      server.close()
    }
  })
})

// The refusals start no server and each has its own --out: four at a time.
describe('log-bench http: bad input is one line, exit 2, nothing written', { concurrency: 4 }, () => {
  const cases = [
    [['--lib', 'none,nosuchlogger'], /unknown library "nosuchlogger": use one of none, /],
    [['--duration', '0'], /--duration must be a number > 0, got "0"/],
    [['--duration', '-3'], /--duration must be a number > 0/],
    [['--connections', '0'], /--connections must be an integer from 1 to/],
    [['--connections', '-2'], /--connections must be an integer/],
    [['--logs-per-request', '-1'], /--logs-per-request must be an integer from 0 to 10000, got "-1"/],
    [['--size', '0'], /--size must be an integer from 1 to/],
    [['--warmup', 'soon'], /--warmup must be a number >= 0/],
    [['--middleware', '--logs-per-request', '5'], /--logs-per-request applies to route mode/],
    [['--transport', 'carrier-pigeon'], /unknown transport "carrier-pigeon"/],
    [['--syslog', 'rsyslog'], /--syslog applies to the udp and tcp transports only/],
    [['--transport', 'udp', '--syslog', 'syslog-ng'], /unknown syslog sink \(--syslog\) "syslog-ng"/],
    [['--transport', 'tcp', '--syslog-port', '514'], /--syslog-port needs --syslog-host/],
    [['--server-cpus', 'one'], /--server-cpus must be a list of CPU numbers such as 1, 0-1 or 0,2-3/],
    [['--server-cpus', '0', '--load-cpus', '0'], /--server-cpus and --load-cpus share CPU 0: give them disjoint lists/],
    [['--load-cpus', '4000'], /--load-cpus names CPU 4000, which log-bench may not use here/]
  ]
  for (const [args, message] of cases) {
    it(args.join(' '), async () => {
      const out = path.join(tmpDir(), 'bad.json')
      const result = await runCli(['http', ...args, '--out', out])
      assert.equal(result.code, 2, result.stderr)
      assert.match(result.stderr, message)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.doesNotMatch(result.stderr, /\n\s+at /)
      assert.equal(fs.existsSync(out), false)
    })
  }
})
