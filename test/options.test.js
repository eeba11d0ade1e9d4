import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, readJson, runCli, tmpDir } from './helpers.js'
import { positiveInt, positiveIntList, wholeNumber } from '../src/api/validate.js'
import { RUN_OPTIONS } from '../src/api/option-tables.js'
import { parseOptions } from '../src/api/options.js'
import { PAIRED_MIN_ROUNDS } from '../src/stats.js'

test('whole numbers as people write them', () => {
  for (const text of ['1000000', '1e6', '1E6', '1e+6', '1_000_000', '1,000,000', ' 1000000 ', '1.0e6']) assert.equal(wholeNumber(text), 1_000_000, text)
  for (const text of ['', '1.5', '1.5e0', '1e', '1,00', '12,345,6', '1,000_000', '0x10', '-1', '1__0', '_1', '1_', '1e400', '1e21', '99999999999999999', 'NaN', 'Infinity']) {
    assert.equal(wholeNumber(text), null, text)
  }
})

test('integer options take those forms and keep their limits; comma lists split first', () => {
  assert.equal(positiveInt('1e3', 'events'), 1000)
  assert.equal(positiveInt('2,000', 'events'), 2000)
  assert.throws(() => positiveInt('1e3', 'runs', { max: 1000 }) && positiveInt('1_001', 'runs', { max: 1000 }), /--runs must be an integer from 1 to 1000, got "1_001"/)
  assert.throws(() => positiveInt('0', 'runs'), /--runs must be an integer >= 1, got "0"/)
  assert.deepEqual(positiveIntList('1,8', 'cpus'), [1, 8])
  assert.deepEqual(positiveIntList('1_000,2e3', 'size'), [1000, 2000])
})

test('run\'s default is the fewest rounds that pair: 6, so a run with no --runs compares round by round', () => {
  assert.equal(PAIRED_MIN_ROUNDS, 6)
  assert.equal(parseOptions(RUN_OPTIONS, {}).runs, PAIRED_MIN_ROUNDS)
})

test('run takes --events 1,000 and --runs 1e0 from the command line', async () => {
  const out = path.join(tmpDir(), 'r.json')
  const result = await runCli(['run', '--lib', 'noop', '--events', '1,000', '--runs', '1e0', '--out', out, '--quiet'])
  assert.equal(result.code, 0, result.stderr)
  const doc = readJson(out)
  assert.equal(doc.runs.length, 1)
  assert.equal(doc.runs[0].events, 1000)
  assert.equal(doc.runs[0].sent, 1000)
})

test('--out creates its directory; an existing results file is replaced only with --force', async () => {
  const cwd = tmpDir()
  const args = ['run', '--lib', 'noop', '--events', '100', '--runs', '1', '--quiet', '--out', 'deep/new/x.json']
  const first = await runCli(args, { cwd })
  assert.equal(first.code, 0, first.stderr)
  const file = path.join(cwd, 'deep', 'new', 'x.json')
  const bytes = fs.readFileSync(file)

  const again = await runCli(args, { cwd })
  assert.equal(again.code, 2)
  assert.match(again.stderr, /deep\/new\/x\.json already holds results \(1 run\): add --force to replace it, or give another --out/)
  assert.equal(again.stderr.trim().split('\n').length, 1)
  assert.deepEqual(fs.readFileSync(file), bytes)

  const both = await runCli([...args, '--force', '--resume'], { cwd })
  assert.equal(both.code, 2)
  assert.match(both.stderr, /--resume continues the results file and --force replaces it/)

  const forced = await runCli([...args, '--force'], { cwd })
  assert.equal(forced.code, 0, forced.stderr)
  assert.notEqual(readJson(file).env.time, JSON.parse(bytes).env.time)

  fs.writeFileSync(path.join(cwd, 'notes.txt'), 'mine')
  const notes = await runCli(['run', '--lib', 'noop', '--events', '100', '--out', 'notes.txt'], { cwd })
  assert.equal(notes.code, 2)
  assert.match(notes.stderr, /notes\.txt already exists: add --force to replace it/)
  assert.equal(fs.readFileSync(path.join(cwd, 'notes.txt'), 'utf8'), 'mine')

  const http = await runCli(['http', '--lib', 'pino', '--out', 'deep/new/x.json'], { cwd })
  assert.equal(http.code, 2)
  assert.match(http.stderr, /already holds results \(1 run\): add --force/)
})

test('scenarios/schema.json, the option tables of docs/cli.md and index.d.ts are what the option tables make', async () => {
  const { schemaText, withOptionTables } = await import('../scripts/docs-options.js')
  const { indexTypes } = await import('../scripts/index-types.js')
  const stale = 'out of date: run npm run docs:options'
  assert.equal(fs.readFileSync(path.join(ROOT, 'scenarios', 'schema.json'), 'utf8'), schemaText(), `scenarios/schema.json is ${stale}`)
  const cli = fs.readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8')
  assert.equal(cli, withOptionTables(cli), `docs/cli.md is ${stale}`)
  assert.ok(fs.readFileSync(path.join(ROOT, 'index.d.ts'), 'utf8') === indexTypes(), `index.d.ts is ${stale}`)
})

test('each option of run and http is defined once, and the scenario schema takes the same values and limits', async () => {
  const { HTTP_OPTIONS, RUN_OPTIONS } = await import('../src/api/option-tables.js')
  const { scenarioSchema } = await import('../src/api/scenario-schema.js')
  for (const table of [RUN_OPTIONS, HTTP_OPTIONS]) {
    const names = table.map((o) => o.name)
    assert.deepEqual(names, [...new Set(names)])
  }
  const run = scenarioSchema().properties.run.items.properties
  assert.deepEqual(run.transports.items.enum, RUN_OPTIONS.find((o) => o.name === 'transport').values)
  assert.equal(run.cpus.items.maximum, 256)
  assert.equal(run.runs.oneOf[0].maximum, 1000)
  assert.equal(run.runs.oneOf[1].pattern, '^auto(:[0-9]+\\.\\.[0-9]+)?$')
  assert.equal(
    scenarioSchema().properties.http.items.properties.transport.enum.length,
    run.transports.items.enum.length
  )
})
