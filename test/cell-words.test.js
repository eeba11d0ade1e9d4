import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, syntheticRun, tmpDir } from './helpers.js'
import { loadResults } from '../src/results/read.js'
import { dimensionWords } from '../src/results/schema.js'
import { RUN_WORDS } from '../src/results/run-types/run.js'
import { cellWords, varyingDimensions } from '../src/results/model.js'
import { comparisonJson, compareDatasets, compareWithBaseline, gateMessage, renderComparison } from '../src/report/compare.js'

test('compare --baseline pino on the durability results: cells that differ only by ending have names of their own, which say the ending', () => {
  const result = compareWithBaseline(loadResults([path.join(ROOT, 'results', 'durability.json')]), 'pino')
  const rows = result.comparisons.filter((r) => r.measure === 'doneMs')
  assert.ok(rows.length > 8)
  assert.equal(new Set(rows.map((r) => r.cell)).size, rows.length, 'one name per compared cell')
  const log4js = rows.filter((r) => r.lib === 'log4js' && r.transport === 'console' && r.receiverStallMs == null)
  assert.equal(log4js.length, 7)
  assert.ok(rows.some((r) => r.receiverStallMs != null && r.cell.includes(', reader stalled 2,000 ms')))
  for (const row of log4js) assert.ok(row.cell.includes(`ending ${row.ending}`), row.cell)
  // The gate's message names the cells the same way.
  assert.match(gateMessage(log4js, ['slower'], rows.length), /log4js, Console, 1 worker, pipe, 10,000 events, ending \w+/)
})

test('compare --json rows carry every dimension of the cell, ending, rate and the receiver\'s settings among them', () => {
  const result = compareWithBaseline(loadResults([path.join(ROOT, 'results', 'durability.json')]), 'pino')
  const row = JSON.parse(comparisonJson(result)).comparisons.find((r) => r.lib === 'bunyan' && r.ending === 'sigterm' && r.measure === 'doneMs')
  assert.ok(row, 'a row of bunyan under SIGTERM')
  for (const field of ['ending', 'rate', 'receiverRate', 'receiverStallMs', 'runtime', 'libVersion', 'measurement']) assert.ok(Object.hasOwn(row, field), field)
  assert.equal(row.measurement, 'time')
})

test('a dimension without words is an error when the run type loads; words for a field that is no dimension too', () => {
  const { ending, ...withoutEnding } = RUN_WORDS
  assert.throws(() => dimensionWords('run', withoutEnding), /run's dimensions without words: ending/)
  assert.throws(() => dimensionWords('run', { ...RUN_WORDS, doneMs: { words: String } }), /no dimension: doneMs/)
  assert.equal(dimensionWords('run', { ...withoutEnding, ending }).length, Object.keys(RUN_WORDS).length)
})

test('cellWords says what varies among the cells shown, in the schema\'s words; a version the name carries is not said twice', () => {
  const base = { type: 'run', lib: 'pino', libVersion: '10.4.0', transport: 'console', cpus: 1, events: 10000, size: 13 }
  const cells = [base, { ...base, ending: 'sigterm', rate: 10000 }, { ...base, lib: 'bunyan', libVersion: '2.0.5' }]
  const shown = varyingDimensions(cells, { always: ['lib', 'transport', 'cpus'] })
  assert.deepEqual(shown, ['lib', 'transport', 'cpus', 'rate', 'ending'])
  assert.equal(cellWords(cells[0], shown), 'pino, Console, 1 worker, tight loop, ending close')
  assert.equal(cellWords(cells[1], shown), 'pino, Console, 1 worker, 10,000/s, ending sigterm')
  const ranged = [{ ...base, libRange: '9', libVersion: '9.14.0' }, { ...base, libRange: '10' }]
  assert.deepEqual(varyingDimensions(ranged), ['lib'])
  assert.equal(cellWords(ranged[0], ['lib', 'libVersion']), 'pino@9.14.0')
  assert.equal(cellWords(base, ['lib', 'libVersion', 'transport']), 'pino 10.4.0, Console')
})

// A console results file whose runs got the given pipe buffer, asked for with --pipe-bytes.
function consoleFile (dir, name, pipeBytes) {
  const runs = ['pino', 'winston'].flatMap((lib) => [100, 110, 120].map((doneMs, i) => ({ ...syntheticRun({ lib, transport: 'console', run: i + 1, doneMs }), pipeBytes })))
  const env = { node: 'v20.0.0', os: 'Linux', cpuModel: 'Test CPU', cpuCount: 2, memoryBytes: 1 << 30, libVersions: {}, command: 'log-bench run', time: `2026-11-23T10:00:0${name.length % 10}.000Z`, hostname: 'h', options: { pipeBytes } }
  const file = path.join(dir, name)
  fs.writeFileSync(file, JSON.stringify({ schema: 1, tool: 'log-bench', kind: 'results', complete: true, interrupted: false, env, runs, summary: [] }))
  return file
}

test('compare of two files measured with different --pipe-bytes says so in a note (terminal and --json); the same settings say nothing', () => {
  const dir = tmpDir()
  const small = loadResults([consoleFile(dir, 'small.json', 65536)])
  const large = loadResults([consoleFile(dir, 'large-pipe.json', 1048576)])
  const result = compareDatasets(small, large)
  assert.ok(result.comparisons.length > 0, 'the cells pair: the pipe buffer is no dimension')
  assert.match(result.settingsNote, /pipe buffer \(--pipe-bytes\) 65,536 vs 1,048,576/)
  assert.match(renderComparison(result, { baseLabel: 'small', newLabel: 'large' }), /note: the two files were measured with different settings/)
  assert.match(JSON.parse(comparisonJson(result)).settingsNote, /--pipe-bytes/)
  const same = loadResults([consoleFile(dir, 'same.json', 65536)])
  assert.equal(compareDatasets(small, same).settingsNote, null)
})

test('a dimension\'s descriptor gives the page\'s group titles and file tags and the CI names\' defaults', async () => {
  const { DISTINCT } = await import('../src/report/run/section.js')
  const { RUN_TYPE } = await import('../src/results/run-types/run.js')
  const titled = RUN_TYPE.words.filter((w) => w.title).map((w) => w.field).sort()
  assert.deepEqual(DISTINCT.filter((d) => d.field !== 'machine').map((d) => d.field).sort(), titled)
  for (const d of DISTINCT.filter((x) => x.field !== 'machine')) assert.equal(d, RUN_TYPE.words.find((w) => w.field === d.field))
  assert.equal(RUN_TYPE.words.find((w) => w.field === 'cores').title(1), ', on 1 core')
  assert.equal(RUN_TYPE.words.find((w) => w.field === 'cores').tag(null), '')
  assert.deepEqual(RUN_TYPE.words.filter((w) => Object.hasOwn(w, 'unsaidAt')).map((w) => [w.field, w.unsaidAt]), [['ending', 'close'], ['measure', 'time']])
})

test('a group\'s title says its dimensions in their descriptors\' titleAt order, and a titled dimension without one does not load', async () => {
  const { DISTINCT } = await import('../src/report/run/section.js')
  // The order the committed pages' titles and file names were written in: the workload first.
  assert.deepEqual(DISTINCT.map((d) => d.field), ['workload', 'runtime', 'sink', 'events', 'size', 'rate', 'burst', 'cores', 'machine'])
  const { titleAt, ...unplaced } = RUN_WORDS.cores
  assert.equal(titleAt, 8)
  assert.throws(() => dimensionWords('run', { ...RUN_WORDS, cores: unplaced }), /with a page title but no tag or titleAt[^:]*: cores$/)
})

test('"every core" is one reading: a record without --cores, or from before the field, and it sorts after every limit', async () => {
  const { checkCores, coresOf, EVERY_CORE, fewestCoresFirst } = await import('../src/engine/cores.js')
  assert.equal(coresOf({}), EVERY_CORE)
  assert.equal(coresOf({ cores: null }), EVERY_CORE)
  assert.equal(coresOf({ cores: 2 }), 2)
  assert.deepEqual(checkCores(undefined), [EVERY_CORE])
  assert.deepEqual([EVERY_CORE, 4, 1, 2].sort(fewestCoresFirst), [1, 2, 4, EVERY_CORE])
  const { reproducing } = await import('../src/report/run/then-and-now.js')
  assert.deepEqual([reproducing(1), reproducing(8)], [{ cpus: 1, cores: 1 }, { cpus: 1, cores: EVERY_CORE }])
})
