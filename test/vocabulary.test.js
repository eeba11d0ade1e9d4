import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { compareWithBaseline } from '../src/report/compare.js'
import { comparisonMarkdown } from '../src/report/compare-markdown.js'
import { comparisonTable } from '../src/report/http/tables.js'
import { coverageNote, coverageTitle } from '../src/draw/labels.js'
import { renderTerminal } from '../src/report/terminal.js'
import { loadResults } from '../src/results/read.js'
import { summarize } from '../src/results/model.js'
import { runCli, syntheticRun, tmpDir } from './helpers.js'

const around = (centre, spread = 0.001) => [0.3, -0.8, 0.1, 0.9, -0.4].map((u) => centre * (1 + spread * u))
// Counted runs have no times (src/run/counted.js).
const counted = (lib, centre) => around(centre).map((instructionsPerEvent, i) => ({ ...syntheticRun({ lib, run: i + 1, doneMs: 1, measure: 'instructions', instructionsMethod: 'valgrind', instructionsPerEvent }), doneMs: null, unblockedMs: null, eventsPerSec: null }))

test('an interval below 95% is titled by its real coverage, the same in every format', () => {
  assert.equal(coverageTitle(0.9375), '93.7%')
  assert.equal(coverageNote(0.9375), '; 93.7%')
  assert.equal(coverageNote(0.96), '')
})

test('compare --markdown: the ratio titled by the coverage its rows reach, the threshold the verdicts applied, and a counted difference per log call', () => {
  const runs = [...counted('pino', 10_000), ...counted('winston', 13_000)]
  const result = compareWithBaseline({ runs, summary: summarize(runs) }, 'pino')
  const markdown = comparisonMarkdown(result)
  const coverage = coverageTitle(result.comparisons[0].coverage)
  assert.ok(markdown.includes(`ratio [${coverage} interval]`), markdown)
  assert.doesNotMatch(markdown, /95% CI/)
  assert.match(markdown, /noise ±1%\)/)
  assert.doesNotMatch(markdown, /±2%/)
  assert.match(markdown, /<br>\+3,000 instructions per log call \|/)
})

test('a counted group\'s Median row is titled by its instructions\' coverage; its glance row says a counted run takes no times', () => {
  const runs = [...counted('pino', 10_000), ...counted('winston', 13_000)]
  const text = renderTerminal({ runs, summary: summarize(runs), env: { cpuCount: 2 } })
  assert.match(text, /Median \[93\.7% interval\]|\[93\.7% interval\]/)
  assert.doesNotMatch(text, /\[no interval\]/)
  assert.match(text, /a counted run takes no times/)
})

test('http counted table: the difference against none per request and per log call beside the change', () => {
  const doc = loadResults(['results/http-cost.json'])
  const cell = doc.summary.filter((s) => s.measure === 'instructions' && s.logsPerRequest === 5 && s.mode === 'route')
  const table = comparisonTable(cell)
  const pino = table.rows.find((row) => row[0] === 'pino')
  const none = cell.find((s) => s.lib === 'none').instructionsPerRequest.median
  const difference = cell.find((s) => s.lib === 'pino').instructionsPerRequest.median - none
  assert.deepEqual(pino[3].lines[1], `+${Math.round(difference).toLocaleString('en-US')} instructions per request, +${Math.round(difference / 5).toLocaleString('en-US')} per log call`)
})

test('progress is numbered over the runs that run: an unsupported cell is said without a number', async () => {
  const dir = tmpDir()
  const result = await runCli(['run', '--lib', 'log4js,raw', '--transport', 'tcp', '--events', '200', '--runs', '2', '--out', path.join(dir, 'r.json')])
  assert.equal(result.code, 0, result.stderr)
  assert.match(result.stderr, /^log4js, Syslog TCP, 1 worker: unsupported: /m)
  const counters = [...result.stderr.matchAll(/^\[\s*(\d+)\/(\d+)\] raw, Syslog TCP/gm)].map((m) => `${m[1]}/${m[2]}`)
  assert.deepEqual(counters, ['1/2', '2/2'])
})
