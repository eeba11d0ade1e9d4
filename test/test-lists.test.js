import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { ALONE, QUICK, SIDE_BY_SIDE } from '../scripts/test.js'
import { ROOT } from './helpers.js'

const TEST_DIR = path.join(ROOT, 'test')
const testFiles = () => fs.readdirSync(TEST_DIR).filter((f) => f.endsWith('.test.js')).map((f) => f.slice(0, -'.test.js'.length)).sort()

test('every test file is in exactly one of scripts/test.js\'s lists, and every name listed is a test file', () => {
  const listed = [...QUICK, ...SIDE_BY_SIDE, ...ALONE]
  const twice = listed.filter((name, i) => listed.indexOf(name) !== i)
  assert.deepEqual(twice, [], 'in two lists')
  const files = testFiles()
  assert.deepEqual(files.filter((f) => !listed.includes(f)), [], 'not in any list of scripts/test.js: add each to QUICK, SIDE_BY_SIDE or ALONE')
  assert.deepEqual(listed.filter((name) => !files.includes(name)), [], 'listed in scripts/test.js but no such test file')
})

// The unit layer stays one: a file that starts the CLI for a run, an http command or a benchmark
// script, or drives a browser, is process-heavy whatever its time was when it was placed.
test('no file of the quick layer starts a run, an http command, a worker, rsyslogd or a browser', () => {
  const heavy = /runCli\(\s*\[\s*'(run|http|sink|merge)'|from '\.\.\/src\/api\/index\.js'|\b(fork|spawnSink|startRsyslog)\(|puppeteer|benchmarks\//
  // This file names those marks in its pattern, so it is not read for them.
  const found = QUICK.filter((name) => name !== 'test-lists' && heavy.test(fs.readFileSync(path.join(TEST_DIR, `${name}.test.js`), 'utf8')))
  assert.deepEqual(found, [])
})

test('npm test runs the lint, then every test file through scripts/test.js; test:quick the unit layer', () => {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
  assert.equal(scripts.test, 'npm run lint && node scripts/test.js')
  assert.equal(scripts['test:quick'], 'node scripts/test.js quick')
})
