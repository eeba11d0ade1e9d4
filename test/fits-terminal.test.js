import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { runCli, syntheticResults, syntheticRun, tmpDir } from './helpers.js'

// Every command's output fits $COLUMNS, as run's does (issue 54, item 3).

const longest = (text) => Math.max(0, ...text.split('\n').map((line) => [...line].length))

test('list stays within COLUMNS=100 (it printed lines of 135 to 620 characters)', async () => {
  const ran = await runCli(['list'], { env: { COLUMNS: '100' } })
  assert.equal(ran.code, 0, ran.stderr)
  assert.ok(longest(ran.stdout) <= 100, ran.stdout)
  assert.match(ran.stdout, /scenarios \(run --scenario NAME\):/)
  const narrow = await runCli(['list'], { env: { COLUMNS: '60' } })
  assert.ok(longest(narrow.stdout) <= 60, narrow.stdout)
})

test('compare stays within COLUMNS=100, its explanations wrapped (one was 846 characters)', async () => {
  const dir = tmpDir()
  const file = path.join(dir, 'r.json')
  const times = [100, 103, 98, 101, 99, 102]
  const runs = times.flatMap((doneMs, i) => [syntheticRun({ lib: 'pino', run: i + 1, doneMs }), syntheticRun({ lib: 'winston', run: i + 1, doneMs: doneMs * 1.5 })])
  fs.writeFileSync(file, JSON.stringify(syntheticResults(runs)))
  const ran = await runCli(['compare', file, '--baseline', 'pino'], { env: { COLUMNS: '100' } })
  assert.equal(ran.code, 0, ran.stderr)
  assert.ok(longest(ran.stdout) <= 100, ran.stdout)
  assert.match(ran.stdout, /winston/)
  fs.rmSync(dir, { recursive: true, force: true })
})
