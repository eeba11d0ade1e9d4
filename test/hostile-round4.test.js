import assert from 'node:assert/strict'
import { execFile, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import net from 'node:net'
import { terminalTable, wrap } from '../src/draw/table.js'
import { displayWidth } from '../src/draw/width.js'
import { createForwardReceiver } from '../src/sinks/forward.js'
import { compare, UsageError } from '../src/api/index.js'
import { ADAPTERS, BIN, leftovers, ROOT, runCli, syntheticResults, syntheticRun, tmpDir, waitFor } from './helpers.js'

// Hostile round four (issue 55): each case failed before its fix.

// A refusal: one line on stderr, exit 2, no stack.
function assertRefused (result, pattern) {
  assert.equal(result.code, 2, result.stderr + result.stdout)
  assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
  assert.match(result.stderr, pattern)
  assert.doesNotMatch(result.stderr, /internal error|\n\s+at /)
}

// The widest line's columns; the line naming the results file is a path, never wrapped.
const widest = (text) => Math.max(...text.split('\n').filter((line) => !line.startsWith('results: ')).map(displayWidth))

describe('wide characters in a column: measured in terminal columns, never a crash', () => {
  const emoji = 'write failed: ' + '📁'.repeat(150)
  const mixed = 'e\u0301crit 漢字 👨‍👩‍👧 ok'

  it('a table with an emoji error fits 40, 60 and 100 columns (was: RangeError: Invalid count value in pad)', () => {
    for (const width of [40, 60, 100]) {
      const table = { columns: [{ title: 'library', align: 'left' }, { title: 'error', align: 'left' }], rows: [['📁📁📁', emoji], ['raw', mixed]] }
      const drawn = terminalTable(table, { width })
      assert.ok(widest(drawn) <= width, `${widest(drawn)} > ${width}`)
      const lengths = new Set(drawn.split('\n\n')[0].split('\n').map(displayWidth))
      assert.equal(lengths.size, 1, 'every line of the grid is as wide as the others')
    }
  })

  it('a paragraph wraps at columns: no emoji cut in two, no line wider', () => {
    const text = wrap(emoji + ' ' + mixed, 21)
    assert.ok(widest(text) <= 21)
    assert.doesNotMatch(text, /[\ud800-\udbff](?![\udc00-\udfff])/, 'no lone high surrogate')
    assert.match(text, /👨‍👩‍👧/, 'a family emoji stays whole')
  })

  it('run with an adapter whose error is 150 emoji: exit 0, the tables and the answer on stdout; report --format terminal at COLUMNS=40', async () => {
    const dir = tmpDir()
    const out = path.join(dir, 'r.json')
    const result = await runCli(['run', '--lib', `${path.join(ADAPTERS, 'emoji-error.mjs')},raw`, '--transport', 'file', '--events', '2000', '--runs', '1', '--out', out], { env: { COLUMNS: '60' } })
    assert.equal(result.code, 0, result.stderr)
    assert.doesNotMatch(result.stderr, /internal error|RangeError/)
    assert.match(result.stdout, /📁/)
    assert.ok(widest(result.stdout) <= 60, `a line of ${widest(result.stdout)} columns`)
    assert.ok(fs.existsSync(out))
    for (const columns of ['40', '100']) {
      const report = await runCli(['report', out, '--format', 'terminal'], { env: { COLUMNS: columns } })
      assert.equal(report.code, 0, report.stderr)
      assert.ok(widest(report.stdout) <= Number(columns), `a line of ${widest(report.stdout)} columns at ${columns}`)
    }
  })
})

describe('--help in a narrow terminal', () => {
  it('every help at 8 to 30 columns, from $COLUMNS and from a terminal\'s own width: exit 0, no stack (was: RangeError at merge <= 30, run <= 24, the top level at 8)', async () => {
    for (const words of [['merge', '--help'], ['run', '--help'], ['report', '--help'], ['--help']]) {
      for (const columns of ['8', '20', '30']) {
        const result = await runCli(words, { env: { COLUMNS: columns } })
        assert.equal(result.code, 0, `${words.join(' ')} at COLUMNS=${columns}: ${result.stderr}`)
        assert.equal(result.stderr, '')
        assert.match(result.stdout, /--help/)
      }
    }
    const script = spawnSync('script', ['-qec', `stty cols 30; ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} merge --help`, '/dev/null'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '' }, timeout: 120_000 })
    if (script.error?.code !== 'ENOENT') {
      assert.equal(script.status, 0, script.stdout)
      assert.doesNotMatch(script.stdout, /RangeError|at .*help\.js/)
    }
  })

  it('help honours $COLUMNS as the tables do (was: ignored)', async () => {
    const wide = await runCli(['run', '--help'], { env: { COLUMNS: '100' } })
    const narrow = await runCli(['run', '--help'], { env: { COLUMNS: '50' } })
    assert.equal(Math.max(...narrow.stdout.split('\n').map(displayWidth)), 50)
    assert.ok(Math.max(...wide.stdout.split('\n').map(displayWidth)) > 50)
  })
})

describe('merge: shards of one document share one order', () => {
  // Two shards of one plan, their runs in different comparison groups, 6 rounds each, under the given orders.
  function shards (dir, orders) {
    return orders.map((order, i) => {
      const runs = ['pino', 'raw'].flatMap((lib) => [1, 2, 3, 4, 5, 6].map((run) => syntheticRun({ lib, transport: i ? 'console' : 'file', run, doneMs: 600 + run + (lib === 'raw' ? 0 : 100) })))
      const file = path.join(dir, `s${i + 1}.json`)
      fs.writeFileSync(file, JSON.stringify(syntheticResults(runs, { order, plan: { id: 'plan-1', kind: 'options', name: null, shard: `${i + 1}/2`, cells: 4 } })))
      return file
    })
  }

  it('an interleaved and a blocked shard: refused in one line, nothing written (was: merged as interleaved, the blocked runs paired as rounds)', async () => {
    const dir = tmpDir()
    const out = path.join(dir, 'm.json')
    assertRefused(await runCli(['merge', ...shards(dir, [{ mode: 'interleaved', seed: 7 }, { mode: 'blocked', seed: null }]), '--out', out]), /^log-bench: .*s1\.json ran its runs interleaved and .*s2\.json blocked \(--order\)/m)
    assert.equal(fs.existsSync(out), false)
  })

  it('different seeds: merged, the document names no seed and env.shards names each (was: the first shard\'s seed alone); one seed is kept where all share it', async () => {
    const dir = tmpDir()
    const out = path.join(dir, 'm.json')
    const result = await runCli(['merge', ...shards(dir, [{ mode: 'interleaved', seed: 7 }, { mode: 'interleaved', seed: 9 }]), '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const { env } = JSON.parse(fs.readFileSync(out, 'utf8'))
    assert.equal(env.order.seed, null)
    assert.equal(env.order.mode, 'interleaved')
    assert.deepEqual(env.shards.map((s) => s.seed), [7, 9])
    const same = path.join(dir, 'same.json')
    assert.equal((await runCli(['merge', ...shards(tmpDir(), [{ mode: 'interleaved', seed: 7 }, { mode: 'interleaved', seed: 7 }]), '--out', same])).code, 0)
    assert.equal(JSON.parse(fs.readFileSync(same, 'utf8')).env.order.seed, 7)
  })
})

describe('delivery latency to a file is timed by content, not by a size that ran ahead of it', () => {
  it('an adapter that extends its file to 4 MiB first and writes at close(): delivery latency null with the reason, every event counted (was: p50 = p99 = max = 0)', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'preallocating.js'), '--transport', 'file', '--events', '2000', '--runs', '1', '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const [record] = JSON.parse(fs.readFileSync(out, 'utf8')).runs
    assert.equal(record.ok, true, record.error)
    assert.equal(record.received, 2000)
    assert.equal(record.deliveryLatencyMs, null)
    assert.match(record.deliveryLatencyNote, /grew ahead of its content/)
  })

  it('a plain logger to a file is still timed', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'raw', '--transport', 'file', '--events', '2000', '--runs', '1', '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const [record] = JSON.parse(fs.readFileSync(out, 'utf8')).runs
    assert.ok(record.deliveryLatencyMs?.samples > 0, record.deliveryLatencyNote)
  })
})

describe('the forward receiver\'s byte limit holds whatever the socket reads', () => {
  const protocol = createRequire(import.meta.url)('@fluent-org/logger/build/src/protocol.js')

  it('a whole 18 KB message in one write, at --receiver-max-bytes 1024: refused, the connection closed, the cause kept (was: accepted when it arrived in one read)', async () => {
    const receiver = await createForwardReceiver({ workers: 1, events: 100, payload: 'x'.repeat(180), workload: 'string', quietMs: 100, receiverMaxBytes: 1024 })
    try {
      const entries = Array.from({ length: 100 }, (_, seq) => [1, { message: `w0 ${seq}: ${'x'.repeat(180)}` }])
      const message = protocol.encode(['log-bench', entries])
      assert.ok(message.length > 18_000)
      const socket = net.connect(receiver.target(0).port, '127.0.0.1')
      await once(socket, 'connect')
      socket.on('error', () => {})
      const closed = new Promise((resolve) => socket.on('close', resolve))
      socket.write(message)
      socket.end()
      // The refusal closes the connection at once; an accepted message leaves it half-open.
      const timer = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref())
      await Promise.race([closed, timer(10_000)])
      const counts = await receiver.settle({ sent: 100 })
      assert.equal(counts.received, 0)
      assert.equal(counts.receiverStats.refusedMessages, 1)
      assert.match(await receiver.failureCause(), /^the forward receiver closed a connection: a forward message of 1[89]\.\d KiB runs past 1 KiB$/)
    } finally {
      await receiver.stop()
    }
  })
})

describe('a crafted design (env.order.sequential) is bad input', () => {
  const WORKLOADS = path.join(ROOT, 'results', 'workloads.json')
  const crafted = (change) => {
    const doc = JSON.parse(fs.readFileSync(WORKLOADS, 'utf8'))
    change(doc.env.order.sequential[0], doc.env.order)
    const file = path.join(tmpDir(), 'crafted.json')
    fs.writeFileSync(file, JSON.stringify(doc))
    return file
  }
  const CASES = [
    ['looks: 5', (design) => { design.looks = 5 }, /env\.order\.sequential\[0\]\.looks must be an array of 1 to 20 entries, got 5$/m],
    ['groups: "abc"', (design) => { design.groups = 'abc' }, /env\.order\.sequential\[0\]\.groups must be an array of at most 100,000 entries, got "abc"$/m],
    ['sequential: {}', (design, order) => { order.sequential = {} }, /env\.order\.sequential must be an array of at most 1,000 entries, got \{\}$/m],
    ['100,000 looks', (design) => { design.looks = Array.from({ length: 100_000 }, (_, i) => i + 2) }, /env\.order\.sequential\[0\]\.looks must hold at most 20 entries, got 100000$/m]
  ]

  for (const [name, change, message] of CASES) {
    it(`${name}: compare and report refuse it in one line, exit 2 (was: an internal error with a stack${name.startsWith('100') ? ', or busy for more than 5 minutes' : ''})`, async () => {
      const file = crafted(change)
      assertRefused(await runCli(['compare', file, '--baseline', 'pino', '--json'], { timeoutMs: 120_000 }), message)
      assertRefused(await runCli(['report', file, '--format', 'terminal'], { timeoutMs: 120_000 }), message)
    })
  }

  it('the API: compare() of the document rejects with a UsageError', async () => {
    const doc = JSON.parse(fs.readFileSync(crafted((design) => { design.looks = 5 }), 'utf8'))
    await assert.rejects(compare(doc, { baseline: 'pino' }), (err) => err instanceof UsageError && /looks must be an array/.test(err.message))
  })
})

// Each case waits out rsyslogd's time limits on its own stand-in, found by its own tag: all three at once.
describe('LOG_BENCH_RSYSLOGD: a wrapper\'s children end with it, and a bad value is named', { concurrency: 3 }, () => {
  // A stand-in for rsyslogd that starts a process in the background and then becomes another that
  // never answers: at the configuration check (-N1) when `hangsAt` is '-N1', else once started (-n).
  function wrapper (hangsAt) {
    const file = path.join(tmpDir(), 'rsyslogd')
    fs.writeFileSync(file, `#!/bin/sh\n${hangsAt === '-N1' ? '' : '[ "$1" = -N1 ] && exit 0\n'}sleep 600 &\nexec sleep 600\n`, { mode: 0o755 })
    return file
  }
  const syslogRun = (binary) => runCli(['run', '--lib', 'raw', '--transport', 'udp', '--syslog', 'rsyslog', '--events', '100', '--runs', '1', '--out', path.join(tmpDir(), 'r.json'), '--quiet'], { env: { LOG_BENCH_RSYSLOGD: binary }, timeoutMs: 240_000 })

  for (const hangsAt of ['-N1', '-n']) {
    it(`a wrapper that hangs at ${hangsAt}: the run fails with the reason, and nothing it started is left running (was: its background child left under init${hangsAt === '-N1' ? ' after the check timed out' : ''})`, async () => {
      const result = await syslogRun(wrapper(hangsAt))
      assert.equal(result.code, 0, result.stderr)
      await waitFor(() => leftovers(result.tag).length === 0, 10_000).catch(() => {})
      assert.deepEqual(leftovers(result.tag), [])
    })
  }

  it('a directory: one line naming the variable, exit 2 (was: "rsyslogd not found: install it with apt-get")', async () => {
    assertRefused(await syslogRun(tmpDir()), /^log-bench: LOG_BENCH_RSYSLOGD=.* is not an executable file/m)
  })
})

describe('a group in which every run failed', () => {
  it('the answer names each group with the reason and each library with its failure; no empty delivery-latency table (was: no Answer, --json rows: [] and withheld: null without a reason)', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const libs = `${path.join(ADAPTERS, 'crashing.js')},${path.join(ADAPTERS, 'crashing-too.js')}`
    const result = await runCli(['run', '--lib', libs, '--transport', 'file,console', '--events', '2000', '--runs', '1', '--out', out, '--json'])
    assert.equal(result.code, 0, result.stderr)
    const answer = JSON.parse(result.stdout)
    assert.equal(answer.groups.length, 2)
    for (const group of answer.groups) {
      assert.equal(group.reference, null)
      assert.match(group.withheld, /no run of this group finished/)
      assert.deepEqual(group.notCompared.map((text) => text.split(':')[0]), ['crashing', 'crashing-too'])
      assert.match(group.notCompared[1], /boom from the second crashing adapter/)
    }
    const report = await runCli(['report', out, '--format', 'terminal'])
    assert.equal(report.code, 0, report.stderr)
    assert.match(report.stdout, /^Answer$/m)
    assert.match(report.stdout, /Filesystem, 1 worker: no finished run\n {2}no run of this group finished/)
    assert.doesNotMatch(report.stdout, /Delivery p50/)
  })
})

describe('the plan-size guard counts paced runs by their pace', () => {
  it('--rate 1 --events 1000000 --runs 5: refused with its size, about 58 days, and --yes (was: started without asking)', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'raw', '--transport', 'file', '--rate', '1', '--events', '1000000', '--runs', '5', '--timeout', '1000000', '--out', out], { timeoutMs: 120_000 })
    assertRefused(result, /^log-bench: this plan is 5 runs of 1 cells, at least 1,389 hours .*--yes/m)
    assert.equal(fs.existsSync(out), false)
  })

  it('a paced run whose events ÷ rate exceed --timeout: one line, exit 2, nothing started (was: started, to time out)', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'raw', '--transport', 'file', '--rate', '100', '--events', '100000', '--runs', '1', '--out', out], { timeoutMs: 120_000 })
    assertRefused(result, /^log-bench: --events 100000 at --rate 100 takes 1000 s per run, past --timeout 600: every run would time out/m)
    assert.equal(fs.existsSync(out), false)
  })
})

describe('the API: three faults', () => {
  const API = JSON.stringify(path.join(ROOT, 'src', 'api', 'index.js'))
  const SLOW = JSON.stringify(path.join(ADAPTERS, 'slow.js'))
  // A script using the API in a process of its own, as a caller's would be.
  const apiScript = (source, env = {}) => new Promise((resolve) => {
    const dir = tmpDir()
    const file = path.join(dir, 'script.mjs')
    fs.writeFileSync(file, source)
    const done = (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr })
    execFile(process.execPath, [file], { env: { ...process.env, ...env }, timeout: 300_000 }, done)
  })

  it('a \'live\' listener that throws undefined, or null, rejects the job with it (was: swallowed, the job resolved)', async () => {
    const tmp = tmpDir()
    const r = await apiScript(`
      import { run } from ${API}
      for (const thrown of [undefined, null]) {
        const job = run({ libs: [${SLOW}], transports: ['file'], events: 3000, runs: 1 })
        job.on('live', () => { throw thrown })
        await job.then(() => console.log('resolved'), (err) => console.log('rejected: ' + err))
      }
    `, { TMPDIR: tmp })
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout, 'rejected: undefined\nrejected: null\n')
    assert.deepEqual(fs.readdirSync(tmp), [], 'no run directory')
  })

  it('an AbortSignal already aborted: Interrupted without a document, out not written (was: out written with an invented interrupted run)', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const r = await apiScript(`
      import { run } from ${API}
      const controller = new AbortController()
      controller.abort()
      const options = { libs: ['raw'], transports: ['file'], events: 10, runs: 1, out: ${JSON.stringify(out)}, signal: controller.signal }
      await run(options).then(() => console.log('resolved'), (err) => console.log(err.name + ': ' + err.message + ', document: ' + (err.document ? 'yes' : 'none')))
    `)
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout, 'Interrupted: interrupted by abort, document: none\n')
    assert.deepEqual(fs.readdirSync(path.dirname(out)), [])
  })

  it('compare() of a document whose runs array has a hole: a UsageError naming it (was: a TypeError)', async () => {
    const doc = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'report', 'results.json'), 'utf8'))
    doc.runs.splice(1, 0, null)
    delete doc.runs[1]
    assert.equal(1 in doc.runs, false)
    await assert.rejects(compare(doc, { baseline: 'pino' }), (err) => err instanceof UsageError && /runs\[1\] is not an object/.test(err.message))
  })
})
