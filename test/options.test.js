import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { readJson, runCli, tmpDir } from './helpers.js'
import { positiveInt, positiveIntList, wholeNumber } from '../src/cli/validate.js'

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

test('run takes --events 1,000 and --runs 1e0 from the command line', async () => {
  const out = path.join(tmpDir(), 'r.json')
  const result = await runCli(['run', '--lib', 'noop', '--events', '1,000', '--runs', '1e0', '--out', out, '--quiet'])
  assert.equal(result.code, 0, result.stderr)
  const doc = readJson(out)
  assert.equal(doc.runs.length, 1)
  assert.equal(doc.runs[0].events, 1000)
  assert.equal(doc.runs[0].sent, 1000)
})
