import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { closingAnswer, renderAnswer } from '../src/report/answer.js'
import { formatCountedDifference } from '../src/draw/labels.js'
import { loadResults } from '../src/results/read.js'
import { escapeRegExp, runCli, syntheticRun, tmpDir } from './helpers.js'

const ENV = { node: 'v20.0.0', os: 'Linux', cpuModel: 'Test CPU', cpuCount: 2, memoryBytes: 1 << 30, libVersions: {}, command: 'log-bench run', time: '2026-11-23T10:00:00.000Z', hostname: 'h' }
const around = (centre, spread = 0.01) =>
  [0.3, -0.8, 0.1, 0.9, -0.4, 0.6, -0.2, -0.9, 0.5, 0].map((u) => centre * (1 + spread * u))

function resultsFile (dir, runs) {
  const file = path.join(dir, 'r.json')
  fs.writeFileSync(file, JSON.stringify({ schema: 1, tool: 'log-bench', kind: 'results', complete: true, interrupted: false, env: ENV, runs, summary: [] }))
  return file
}

const cell = (lib, times, rest = {}) => times.map((doneMs, i) => syntheticRun({ lib, run: i + 1, doneMs, ...rest }))

test('the closing answer: per group the fastest library (baselines aside), each other as times slower or faster with the interval and verdict of compare --baseline', () => {
  const dir = tmpDir()
  const file = resultsFile(dir, [...cell('raw', around(100)), ...cell('pino', around(600)), ...cell('winston', around(900)), ...cell('pino', around(500), { transport: 'console' })])
  const answer = closingAnswer(loadResults([file]))
  const [fileGroup, consoleGroup] = answer.groups
  assert.equal(fileGroup.reference.library, 'pino')
  assert.equal(fileGroup.measure, 'doneMs')
  const rows = Object.fromEntries(fileGroup.rows.map((r) => [r.library, r]))
  assert.equal(rows.winston.verdict, 'slower')
  assert.equal(rows.winston.direction, 'slower')
  assert.ok(Math.abs(rows.winston.times - 1.5) < 0.02 &&
    rows.winston.low < rows.winston.times &&
    rows.winston.high > rows.winston.times, JSON.stringify(rows.winston))
  assert.equal(rows.raw.verdict, 'faster')
  assert.ok(Math.abs(rows.raw.times - 6) < 0.1, JSON.stringify(rows.raw))
  assert.equal(consoleGroup.rows.length, 0)

  const text = renderAnswer(answer, { width: 80, file: 'r.json' })
  for (const line of text.split('\n')) assert.ok(line.length <= 80, line)
  assert.match(text, /^Filesystem, 1 worker: fastest pino, done \(ms\): 600 \(median of 10 runs\)$/m)
  assert.match(text, /^ {2}winston {2}1\.500× \[1\.4\d\d, 1\.5\d\d\] slower than pino$/m)
  assert.match(text, /^ {2}raw {6}6\.0\d\d× \[5\.9\d\d, 6\.0\d\d\] faster than pino$/m)
  assert.match(text, /^ {2}pino is the only library in its group: nothing to compare it with$/m)
  assert.match(text, /log-bench report r\.json/)
})

test('the closing answer names as fastest the fastest library that delivered every event; a faster one that lost events is a row with its loss', () => {
  const dir = tmpDir()
  const lossy = (sent) => ({ sent, expected: sent, received: Math.round(sent * 0.04), dropRate: 0.96 })
  const file = resultsFile(dir, [...cell('winston', around(300), lossy(1000)), ...cell('bunyan', around(600)), ...cell('pino', around(900))])
  const [group] = closingAnswer(loadResults([file])).groups
  assert.equal(group.reference.library, 'bunyan')
  assert.equal(group.passedOver, true)
  const text = renderAnswer({ ...closingAnswer(loadResults([file])) }, { width: 200 })
  assert.match(text, /^Filesystem, 1 worker: fastest bunyan \(of those that delivered every event\), done \(ms\): 600 /m)
  assert.match(text, /^ {2}winston +2\.0\d*× \[[\d.]+, [\d.]+\] faster than bunyan, 96\.00% of its events lost/m)
  // Where no library lost an event, the fastest is named as before.
  const whole = closingAnswer(loadResults([resultsFile(dir, [...cell('bunyan', around(600)), ...cell('pino', around(900))])])).groups[0]
  assert.equal(whole.reference.library, 'bunyan')
  assert.equal(whole.passedOver, false)
})

test('counted runs: the difference in instructions per log call (and per request) beside the ratio', () => {
  assert.equal(formatCountedDifference(69_571, { type: 'http', logsPerRequest: 5 }), '+69,571 instructions per request, +13,914 per log call')
  assert.equal(formatCountedDifference(-318, { type: 'http', logsPerRequest: 0 }), '−318 instructions per request')
  assert.equal(formatCountedDifference(1234.4), '+1,234 instructions per log call')
  const dir = tmpDir()
  const counted = (lib, centre) => around(centre, 0.001).map((instructionsPerEvent, i) => syntheticRun({ lib, run: i + 1, doneMs: 1, measure: 'instructions', instructionsMethod: 'valgrind', instructionsPerEvent }))
  const answer = closingAnswer(loadResults([resultsFile(dir, [...counted('pino', 10_000), ...counted('winston', 13_000)])]))
  const text = renderAnswer(answer)
  assert.match(text, /cheapest pino, instructions per event: 10,0\d\d \(median of 10 runs\)/)
  assert.match(text, /noise ±1%/, 'the threshold counted instructions are compared with')
  assert.match(text, /winston {2}1\.300× \[1\.\d{3}, 1\.\d{3}\] slower than pino \(\+3,000 instructions per log call\)/)
})

test('run ends with the answer, one line per library naming a ratio with its interval, and COLUMNS=100 keeps every stdout line within 100 characters', async () => {
  const dir = tmpDir()
  const out = path.join(dir, 'r.json')
  const result = await runCli(['run', '--lib', 'raw,pino', '--transport', 'file', '--events', '2000', '--runs', '5', '--out', out, '--quiet'], { env: { COLUMNS: '100' } })
  assert.equal(result.code, 0, result.stderr)
  const lines = result.stdout.trimEnd().split('\n')
  for (const line of lines) assert.ok(line.length <= 100, `${line.length}: ${line}`)
  const answer = lines.lastIndexOf('Answer')
  assert.ok(answer > 0, result.stdout)
  const tail = lines.slice(answer).join('\n')
  assert.match(tail, /^Filesystem, 1 worker: fastest pino, done \(ms\): [\d,.]+ \(median of 5 runs\)$/m)
  assert.match(tail, /^ {2}raw {2}[\d.]+× \[[\d.]+, [\d.]+\] (faster than pino|slower than pino|same as pino|(faster|slower) than pino\? not decided on [^\n]+)/m)
  assert.match(tail, new RegExp(`Full tables and charts: log-bench report ${escapeRegExp(out)}`))

  // --json: the answer alone on stdout, as JSON.
  const json = await runCli(['run', '--lib', 'raw', '--transport', 'file', '--events', '200', '--runs', '1', '--out', path.join(dir, 'j.json'), '--quiet', '--json'])
  assert.equal(json.code, 0, json.stderr)
  const parsed = JSON.parse(json.stdout)
  assert.equal(parsed.results, path.join(dir, 'j.json'))
  assert.equal(parsed.groups[0].reference.library, 'raw')
  assert.equal(parsed.groups[0].measure, 'doneMs')

  const narrow = await runCli(['report', out, '--format', 'terminal'], { env: { COLUMNS: '60' } })
  assert.equal(narrow.code, 0, narrow.stderr)
  for (const line of narrow.stdout.split('\n')) assert.ok(line.length <= 60, `${line.length}: ${line}`)
  assert.match(narrow.stdout, /\nAnswer\n=+\n/)
})

test('the closing answer follows the pages\' one rule: no ranking where SIGTERM, SIGKILL or the kill timer ended the runs, no fastest where a cell\'s runs fall in two groups', () => {
  const dir = tmpDir()
  const killed = resultsFile(dir, [...cell('pino', around(600), { ending: 'sigterm' }), ...cell('winston', around(900), { ending: 'sigterm' })])
  const [group] = closingAnswer(loadResults([killed])).groups
  assert.match(group.withheld, /^not ranked: .*SIGTERM/i)
  assert.equal(group.rows.length, 1, 'the rows stay in the data (--json)')
  const text = renderAnswer(closingAnswer(loadResults([killed])), { width: 100 })
  assert.doesNotMatch(text, /fastest pino|than pino/)
  assert.match(text, /not ranked/)

  const timer = resultsFile(tmpDir(), [...cell('pino', around(600)), ...cell('winston', around(5900), { keptAlive: true })])
  assert.match(closingAnswer(loadResults([timer])).groups[0].withheld, /kill timer ended winston/)

  const twoGroups = [100, 101, 99, 100, 102, 400, 401, 399, 400, 398]
  const split = resultsFile(tmpDir(), [...cell('pino', twoGroups), ...cell('winston', around(900))])
  assert.match(closingAnswer(loadResults([split])).groups[0].withheld, /^not decided: pino's runs fall in two groups/)

  const plain = resultsFile(tmpDir(), [...cell('pino', around(600)), ...cell('winston', around(900))])
  assert.equal(closingAnswer(loadResults([plain])).groups[0].withheld, null)
})

test('a group of one library says so, with no ratio and no empty interval in the header', () => {
  const text = renderAnswer(closingAnswer(loadResults([resultsFile(tmpDir(), cell('pino', around(600)))])), { width: 100 })
  assert.doesNotMatch(text, /no interval|\[the ratio/)
  assert.match(text, /no ratio and no verdict/)
  assert.match(text, /^ {2}pino is the only library in its group: nothing to compare it with$/m)
})

test('a paired ratio that differs from the ratio of the medians says that it is the per-round estimate', () => {
  const dir = tmpDir()
  const file = path.join(dir, 'paired.json')
  const base = [100, 110, 120, 130, 140, 150]
  const other = [101, 111, 121, 131, 230, 250]
  const runs = base.flatMap((doneMs, i) => [syntheticRun({ lib: 'pino', run: i + 1, doneMs }), syntheticRun({ lib: 'winston', run: i + 1, doneMs: other[i] })])
  fs.writeFileSync(file, JSON.stringify({ schema: 1, tool: 'log-bench', kind: 'results', complete: true, interrupted: false, env: { ...ENV, order: { mode: 'interleaved', seed: 0 } }, runs, summary: [] }))
  const answer = closingAnswer(loadResults([file]))
  const [row] = answer.groups[0].rows
  assert.equal(row.paired, true)
  const text = renderAnswer(answer, { width: 200 })
  const ofMedians = ((121 + 131) / 2) / ((120 + 130) / 2)
  assert.match(text, new RegExp(`winston .*per-round estimate, paired; the medians' ratio is ${ofMedians.toFixed(2).replace('.', '\\.')}×`))
  assert.match(text, /Where the runs pair by round, the ratio is the per-round estimate/)
})

test('a paced group is answered on the steady state\'s response p99, not on done (which the pacer sets); a ratio of 1.000 is never slower', () => {
  const dir = tmpDir()
  const response = (p99) => ({
    responseLatencyNs: { p50: p99 / 4, p90: p99 / 2, p99, p999: p99 * 2, p9999: p99 * 3, max: p99 * 4, count: 20000 }
  })
  const paced = (lib, p99s) => p99s.map((p99, i) =>
    syntheticRun({ lib, run: i + 1, doneMs: 2000, rate: 10000, ...response(p99) }))
  const answer = closingAnswer(loadResults([resultsFile(dir, [...paced('bunyan', around(2e5)), ...paced('log4js', around(6e5))])]))
  const [group] = answer.groups
  assert.equal(group.measure, 'responseP99Ns')
  assert.equal(group.reference.library, 'bunyan')
  assert.equal(group.rows[0].verdict, 'slower')
  assert.ok(Math.abs(group.rows[0].times - 3) < 0.1, JSON.stringify(group.rows[0]))
  // Done alike to the millisecond: one run a side, 1.000 [1.000, 1.000] leans neither way.
  const level = closingAnswer(loadResults([resultsFile(dir, [...cell('bunyan', [2000]), ...cell('log4js', [2000])])]))
  const text = renderAnswer(level, { width: 200 })
  assert.match(text, /log4js +1\.000× \[1\.000, 1\.000\] against bunyan: one run a side: no verdict/)
  assert.doesNotMatch(text, /slower than bunyan/)
})
