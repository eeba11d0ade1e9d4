import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { run, http, compare, report, UsageError, Interrupted, RESULTS_SCHEMA_FILE } from '../src/api/index.js'
import { RESULTS_SCHEMA, fieldsMarkdown } from '../src/results/schema.js'
import { MAX_EVENTS, MAX_RUNS, MAX_SIZE_BYTES, MAX_WORKERS } from '../src/limits.js'
import { RUN_OPTIONS } from '../src/api/option-tables.js'
import { loadDocuments } from '../src/results/read.js'
import { renderPage } from '../src/report/markdown.js'
import { withFieldTables } from '../scripts/docs-results.js'
import { ROOT, tmpDir } from './helpers.js'
import { assertApiUse, assertRequired, assertValid, requireApi, useApi } from './api-helpers.js'

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'exit']
const listeners = () => SIGNALS.map((signal) => process.listenerCount(signal))

test('run() returns the results document: four delivered runs, nothing on stdout, no signal listeners left; compare() gives a verdict for noop', async () => {
  const seen = useApi(path.join(ROOT, 'src', 'api', 'index.js'))
  assertApiUse(seen)
  const dir = tmpDir()
  const before = listeners()
  const written = await report(seen.doc, { format: ['csv', 'terminal'], out: path.join(dir, 'page.md') })
  assert.deepEqual(listeners(), before)
  assert.deepEqual(written.files.map((f) => path.basename(f)), ['page.csv', 'page-summary.csv'])
  assert.match(written.terminal, /raw/)
  const header = fs.readFileSync(path.join(dir, 'page.csv'), 'utf8').split('\n')[0].split(',')
  assert.ok(header.indexOf('sent') < header.indexOf('received') && header.indexOf('received') < header.indexOf('unblockedMs'), 'CSV columns in the schema\'s order')
})

test('a CommonJS caller require()s log-bench: no top-level await in the API\'s import graph (the file verifier\'s threads included)', () => {
  assertRequired(requireApi(ROOT))
})

test('every field a run records is in the results schema: console and udp runs, an unsupported cell, a failed and a skipped run', async () => {
  const delivered = await run({ libs: ['raw', 'consola'], transports: ['console', 'udp'], events: 2000, runs: 1 })
  assert.deepEqual(delivered.runs.map((r) => `${r.lib} ${r.transport} ${r.status}`).sort(), ['consola console ok', 'consola udp unsupported', 'raw console ok', 'raw udp ok'])
  assertValid(delivered)
  const failed = await run({ libs: ['raw'], transports: ['file'], events: 2000, runs: 2, timeout: 0.001 })
  assert.deepEqual(failed.runs.map((r) => r.status), ['failed', 'skipped'])
  assertValid(failed)
})

test('what a killed log-bench left in the runs\' directory is removed and said as a warning event, not printed', async () => {
  const base = tmpDir()
  const stale = path.join(base, 'log-bench-Stale1')
  fs.mkdirSync(stale)
  const gone = spawnSync(process.execPath, ['-e', '']).pid
  fs.writeFileSync(path.join(stale, '.log-bench-owner'), JSON.stringify({ pid: gone, started: '1' }))
  const warnings = []
  const job = run({ libs: ['noop'], transports: ['file'], events: 10, runs: 1, dir: base })
  job.on('warning', (text) => warnings.push(text))
  await job
  assert.equal(fs.existsSync(stale), false)
  assert.equal(warnings.length, 1, warnings.join('\n'))
  assert.match(warnings[0], /^removed 1 run directory \(.+\) left in .+ by a log-bench that was killed$/)
})

test('the machine\'s load when the command began is in env and the page\'s Hardware table; a busy machine is a warning event, never printed', async () => {
  const threshold = process.env.LOG_BENCH_BUSY_LOAD
  const measure = async (busyLoad) => {
    process.env.LOG_BENCH_BUSY_LOAD = busyLoad
    const warnings = []
    const job = run({ libs: ['noop'], transports: ['file'], events: 10, runs: 1 })
    job.on('warning', (text) => warnings.push(text))
    return { doc: await job, warnings }
  }
  try {
    const busy = await measure('0')
    assert.equal(busy.doc.env.loadAverage.length, 3)
    assert.ok(busy.doc.env.loadAverage.every((v) => typeof v === 'number' && v >= 0), busy.doc.env.loadAverage)
    assert.ok(busy.doc.env.availableMemoryBytes > 0)
    assertValid(busy.doc)
    assert.deepEqual(busy.warnings.filter((w) => /^the machine is busy: load average \d+\.\d\d over the last minute on \d+ CPUs?, [\d.]+ GiB of memory available; times measured now are slower/.test(w)).length, 1, busy.warnings.join('\n'))
    const { markdown } = renderPage(loadDocuments([{ file: 'r.json', doc: busy.doc }]), { imageLink: (f) => f })
    assert.match(markdown, /\| Load at start +\| load average \d[\d,.]*, \d[\d,.]*, \d[\d,.]* \(1, 5, 15 min\) on \d+ cores; [\d.]+ [MG]iB memory available +\|/)
    const quiet = await measure('off')
    assert.deepEqual(quiet.warnings.filter((w) => /machine is busy/.test(w)), [])
    process.env.LOG_BENCH_BUSY_LOAD = 'busy'
    await assert.rejects(run({ libs: ['noop'], transports: ['file'], events: 10, runs: 1 }), { name: 'UsageError', message: 'LOG_BENCH_BUSY_LOAD must be a load average per CPU such as 0.5 (0 warns always), or off, got "busy"' })
  } finally {
    if (threshold === undefined) delete process.env.LOG_BENCH_BUSY_LOAD
    else process.env.LOG_BENCH_BUSY_LOAD = threshold
  }
})

test('bad options reject with a UsageError carrying the command line\'s one-line message, before anything runs', async () => {
  const before = listeners()
  const cases = [
    [() => run({ events: 0 }), /^--events must be an integer from 1 to 1073741824/],
    [() => run({ evnts: 10 }), /^unknown option "evnts" for run\(\): give one of lib, libs, /],
    [() => run({ libs: ['raw'], lib: 'noop' }), /^libs and lib are one option \(--lib\) for run\(\): give it once/],
    [() => run({ events: [1, 2] }), /^events takes one value, not a list/],
    [() => run({ transports: 'carrier-pigeon' }), /^unknown transport "carrier-pigeon"/],
    [() => run({ quiet: true }), /^unknown option "quiet"/],
    [() => run('pino'), /^run\(\) takes an options object/],
    [() => http({ connections: -1 }), /^--connections must be an integer/],
    [() => compare({ tool: 'nope' }, { baseline: 'raw' }), /^results document 1: not a log-bench results document/],
    [() => report([], { format: 'terminal' }), /^give the results JSON files to report/]
  ]
  for (const [call, message] of cases) {
    await assert.rejects(call(), (err) => err instanceof UsageError && message.test(err.message) && !err.message.includes('\n'), String(message))
  }
  assert.deepEqual(listeners(), before)
})

test('aborting through the signal stops the current run, ends its workers and rejects with Interrupted holding the runs so far', async () => {
  const controller = new AbortController()
  const dir = tmpDir()
  const out = path.join(dir, 'r.json')
  const job = run({ libs: ['raw'], transports: ['file'], events: 50_000_000, runs: 2, out, signal: controller.signal })
  let aliveAtAbort = []
  job.on('run-start', () => setTimeout(() => {
    aliveAtAbort = workerPids()
    controller.abort()
  }, 1500))
  await assert.rejects(job, (err) => {
    assert.ok(err instanceof Interrupted, err.stack)
    assert.equal(err.document.interrupted, true)
    assert.equal(err.document.runs.at(-1).status, 'interrupted')
    assert.equal(err.document.runs.at(-1).error, 'interrupted by abort')
    return true
  })
  assert.equal(aliveAtAbort.length, 1, 'the run\'s worker was running when the signal aborted')
  assert.deepEqual(workerPids(), [])
  const saved = JSON.parse(fs.readFileSync(out, 'utf8'))
  assert.equal(saved.interrupted, true)
  assert.equal(fs.existsSync(path.join(dir, '.r.json.lock')), false)
})

// The workers (src/run/worker.js) this process has forked and that are alive now.
function workerPids () {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
  return out.split('\n').map((line) => line.trim().split(/\s+/)).filter(([, ppid, ...args]) => Number(ppid) === process.pid && args.join(' ').includes(path.join(ROOT, 'src', 'run', 'worker.js'))).map(([pid]) => Number(pid))
}

test('the results schema: its limits are the command line\'s, every field has a meaning, docs/results.md is generated from it', () => {
  assert.equal(RESULTS_SCHEMA_FILE, path.join(ROOT, 'schema', 'results.schema.json'))
  const record = RESULTS_SCHEMA.$defs.runRecord.properties
  assert.deepEqual(
    [record.cpus.maximum, record.events.maximum, record.size.maximum, record.run.maximum],
    [MAX_WORKERS, MAX_EVENTS, MAX_SIZE_BYTES, MAX_RUNS]
  )
  for (const type of ['runRecord', 'httpRecord']) {
    assert.equal(RESULTS_SCHEMA.$defs[type].additionalProperties, false, `${type} describes every field`)
    for (const [field, schema] of Object.entries(RESULTS_SCHEMA.$defs[type].properties)) assert.ok(schema.description, `${type}.${field} has a description`)
  }
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'results.md'), 'utf8')
  assert.equal(doc, withFieldTables(doc), 'docs/results.md is out of date: npm run docs:results')
  assert.match(fieldsMarkdown('run'), /\| `dropRate` \| number 0 to 1 or null \| share \|/)
})

test('the option table gives each default once: run\'s help and README say the default number of runs', () => {
  const runs = RUN_OPTIONS.find((o) => o.name === 'runs').default
  const help = execFileSync(process.execPath, [path.join(ROOT, 'bin', 'log-bench.js'), 'run', '--help'], { encoding: 'utf8' }).replace(/\s+/g, ' ')
  assert.match(help, new RegExp(`1,000,000 events, ${runs} runs`))
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  assert.doesNotMatch(readme, /runs? (3|three) times/)
})
