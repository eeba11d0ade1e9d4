import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, runCli, tmpDir } from './helpers.js'
import { loadResults } from '../src/results/read.js'
import { cellKey, dimensionValue, runTypeName, summarize } from '../src/results/model.js'
import { summarizeHttp } from '../src/results/http-summary.js'
import { RUN_TYPES, runTypeNamed, runTypeOf, summarised } from '../src/results/run-types/index.js'
import { MEASURES } from '../src/report/compare.js'
import { REPORT_RUN_TYPES } from '../src/report/run-types.js'
import { formatMs } from '../src/draw/labels.js'
import { RESULTS_SCHEMA } from '../src/results/schema.js'
import { SYSLOG_TRANSPORTS, TRANSPORT_DESCRIPTORS, TRANSPORTS } from '../src/engine/transports.js'
import { sinkName } from '../src/sinks/syslog.js'

// Each run type is one module (src/results/run-types/): its dimensions, measures, validation and
// summary; compare, merge, the reader and the report work through the registry.

const RESULTS = path.join(ROOT, 'test', 'fixtures', 'report', 'results.json')
const HTTP = path.join(ROOT, 'test', 'fixtures', 'pages', 'http.json')
const UNITS = ['ms', 'ns', 'µs', 'bytes', 'bytes/s', 'share', 'count', '%', 'events/s', 'requests/s', 'MB/s', 'per 10,000 events', 'instructions', 'syscalls', 'calls']

test('every measure of every run type says its unit and direction; a compared one its title', () => {
  assert.deepEqual(RUN_TYPES.map((t) => t.name), ['run', 'http'])
  for (const type of RUN_TYPES) {
    assert.ok(type.measures.length > 0, type.name)
    for (const m of type.measures) {
      assert.ok(UNITS.includes(m.unit), `${type.name} ${m.field}: unit ${m.unit}`)
      assert.ok(['lower', 'higher', null].includes(m.better), `${type.name} ${m.field}: better ${m.better}`)
      assert.ok(m.summary || m.compare, `${type.name} ${m.field} is neither summarised nor compared`)
      if (m.compare) assert.equal(typeof m.title, 'string', `${type.name} ${m.field}`)
    }
    assert.equal(new Set(type.measures.map((m) => m.field)).size, type.measures.length, `${type.name}: a field twice`)
  }
})

test('the summary entries hold exactly the type\'s identity, counts and summarised measures', () => {
  const checks = [[RESULTS, summarize, 'run', ['doneVsRaw']], [HTTP, summarizeHttp, 'http', ['throughputVsBaseline', 'throughputChangePct', 'p99VsBaseline', 'cpuPerRequestVsBaseline', 'instructionsPerRequestVsBaseline']]]
  for (const [file, summarizeRuns, name, related] of checks) {
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'))
    const type = runTypeNamed(name)
    const entries = summarizeRuns(doc.runs)
    assert.ok(entries.length > 0, name)
    const expected = ['type', ...Object.keys(type.identity(doc.runs.find((r) => runTypeName(r) === name))), 'runs', 'okRuns', ...Object.keys(type.counts([])), 'status', 'errors', ...summarised(type).map((m) => m.field), ...related]
    for (const entry of entries) assert.deepEqual(Object.keys(entry), expected)
    const measured = entries.find((e) => e.okRuns > 0)
    for (const m of summarised(type)) assert.ok(measured[m.field] === null || 'median' in measured[m.field], `${name} ${m.field}`)
  }
})

test('compare\'s measures are the registry\'s compared ones, speed measures included for both types', () => {
  assert.deepEqual(Object.keys(MEASURES), ['run', 'http'])
  assert.deepEqual(MEASURES.http.filter((m) => m.speed).map((m) => m.measure), ['reqPerSec', 'latencyP99Ms', 'serverCpuUsPerRequest', 'instructionsPerRequest'])
  assert.deepEqual(MEASURES.run.filter((m) => m.speed).map((m) => m.measure), ['unblockedMs', 'doneMs', 'instructionsPerEvent', 'responseP99Ns'])
  assert.equal(MEASURES.run.find((m) => m.measure === 'instructionsPerEvent').noise, 0.01, 'counted instructions have their own threshold')
  assert.equal(MEASURES.run.find((m) => m.measure === 'eventLoopDelayP99Ns').format(2_500_000), formatMs(2.5), 'event-loop delay is recorded in ns, shown in ms')
  for (const entry of REPORT_RUN_TYPES) {
    assert.ok(entry.type.words.length >= entry.type.dimensions.length, `${entry.type.name}: a cell's words, one entry per dimension`)
    assert.ok(entry.sections.length > 0, entry.type.name)
  }
})

test('a record\'s type: one reading, `run` for records before types; an unknown type keyed as run', () => {
  assert.equal(runTypeName({}), 'run')
  assert.equal(dimensionValue({ type: 'http' }, 'type'), 'http')
  assert.equal(runTypeOf({ type: 'future' }), null)
  assert.equal(runTypeOf({}).name, 'run')
  const http = { type: 'http', lib: 'pino', transport: 'console', cpus: 1, size: 20, mode: 'route', logsPerRequest: 1 }
  assert.notEqual(cellKey(http), cellKey({ ...http, logsPerRequest: 5 }), 'the load tells http cells apart')
  assert.equal(cellKey({ ...http, type: 'future' }), cellKey({ ...http, type: 'future', logsPerRequest: 5 }), 'an unknown type has run\'s dimensions')
})

// Two http results files of one cell: pino against none, the new file's pino at 80% of the
// requests and 150% of the p99 latency.
function httpFile (dir, name, { rate = 1, latency = 1 } = {}) {
  const doc = JSON.parse(fs.readFileSync(HTTP, 'utf8'))
  const spread = [0.3, -0.8, 0.1, 0.9, -0.4, 0.6, -0.2, -0.9, 0.5, 0]
  const template = doc.runs.find((r) => r.lib === 'pino' && r.ok)
  const runs = []
  for (const lib of ['none', 'pino']) {
    spread.forEach((u, i) => {
      const scale = lib === 'pino' ? 1 : 1.2
      runs.push({ ...template, lib, run: i + 1, reqPerSec: { ...template.reqPerSec, mean: 1000 * scale * (lib === 'pino' ? rate : 1) * (1 + 0.01 * u) }, latencyMs: { ...template.latencyMs, p99: 20 * (lib === 'pino' ? latency : 1) * (1 - 0.01 * u) } })
    })
  }
  fs.writeFileSync(path.join(dir, name), JSON.stringify({ ...doc, env: { ...doc.env, time: `2026-11-23T10:00:0${name.length}.000Z` }, runs, summary: [] }))
  return path.join(dir, name)
}

test('log-bench compare on two http results files: verdicts on requests/s and p99 latency', async () => {
  const dir = tmpDir()
  const base = httpFile(dir, 'a.json')
  const next = httpFile(dir, 'bb.json', { rate: 0.8, latency: 1.5 })
  const { code, stdout, stderr } = await runCli(['compare', base, next, '--json'])
  assert.equal(code, 0, stderr)
  const rows = JSON.parse(stdout).comparisons.filter((r) => r.lib === 'pino')
  const rate = rows.find((r) => r.measure === 'reqPerSec')
  const p99 = rows.find((r) => r.measure === 'latencyP99Ms')
  assert.equal(rate.verdict, 'slower')
  assert.ok(Math.abs(rate.ratio - 0.8) < 0.01, JSON.stringify(rate))
  assert.equal(p99.verdict, 'slower')
  assert.ok(Math.abs(p99.ratio - 1.5) < 0.02, JSON.stringify(p99))
  const none = JSON.parse(stdout).comparisons.filter((r) => r.lib === 'none' && r.measure === 'reqPerSec')
  assert.equal(none[0].verdict, 'same')
  const text = await runCli(['compare', base, next], { env: { COLUMNS: '400' } })  // wide: what it says, not its fit
  assert.match(text.stdout, /http requests\/s\n[\s\S]*\| pino, Console, 1 worker +\|[^|]*\|[^|]*\| +0\.8\d\d \[[^|]*\|[^|]*\| +slower \|/)
  assert.match(text.stdout, /http latency p99 \(ms\)\n[\s\S]*\| pino, Console, 1 worker +\|[^|]*\|[^|]*\| +1\.[45]\d\d \[[^|]*\|[^|]*\| +slower \|/)
})

test('an http record read from a file is checked by its type: one line, exit 2', async () => {
  const dir = tmpDir()
  const doc = JSON.parse(fs.readFileSync(HTTP, 'utf8'))
  delete doc.runs[2].mode
  const file = path.join(dir, 'h.json')
  fs.writeFileSync(file, JSON.stringify(doc))
  assert.throws(() => loadResults([file]), { name: 'UsageError', message: /h\.json: runs\[2\] \(winston console 1 worker run 1\) is missing field "mode"$/ })
  const broken = JSON.parse(fs.readFileSync(HTTP, 'utf8'))
  broken.runs[0].latencyMs = null
  fs.writeFileSync(file, JSON.stringify(broken))
  const { code, stderr } = await runCli(['compare', file, '--baseline', 'none'])
  assert.equal(code, 2)
  assert.equal(stderr, `log-bench: ${file}: runs[0] (none console 1 worker run 1) is marked ok but has no reqPerSec/latencyMs figures\n`)
})

test('the schema says every transport and every receiving end a record can name', () => {
  const sinks = [...TRANSPORT_DESCRIPTORS.map((t) => t.sink), ...SYSLOG_TRANSPORTS.flatMap((t) => [sinkName(t, { syslog: 'rsyslog' }), sinkName(t, { syslogHost: 'logs.example' })])]
  for (const type of ['runRecord', 'httpRecord']) {
    const { transport, sink } = RESULTS_SCHEMA.$defs[type].properties
    for (const name of TRANSPORTS) assert.ok(transport.description.includes(`\`${name}\``), `$defs.${type}.transport does not name ${name}: "${transport.description}"`)
    for (const name of sinks) assert.ok(sink.description.includes(`\`${name}\``), `$defs.${type}.sink does not name ${name}: "${sink.description}"`)
  }
})
