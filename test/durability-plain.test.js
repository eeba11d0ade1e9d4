import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { ROOT } from './helpers.js'

const SCRIPT = path.join(ROOT, 'benchmarks', 'durability.js')

// The plain scripts that confirm the durability page's losses (npm run bench:durability): raw, which
// writes every line before its last call returns, keeps them all however its process ends.
test('bench:durability --quick: the plain scripts end as asked, and plain raw keeps every event under every ending', () => {
  const result = spawnSync(process.execPath, [SCRIPT, '--quick', '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })
  assert.equal(result.status, 0, result.stderr)
  const { events, rows } = JSON.parse(result.stdout)
  assert.equal(events, 2000)
  assert.equal(rows.length, 12)
  const exits = { close: 'code 0', exit: 'code 0', sigkill: 'signal 9' }
  for (const row of rows) {
    assert.deepEqual(row.plainExits, [exits[row.ending]], `${row.lib} ${row.transport} ${row.ending}`)
    if (row.lib === 'raw' || row.ending === 'close') assert.deepEqual(row.plainKept, [2000], `${row.lib} ${row.transport} ${row.ending}`)
  }
})

test('bench:durability refuses an unknown ending with one line and exit code 2', () => {
  const result = spawnSync(process.execPath, [SCRIPT, '--endings', 'crash'], { cwd: ROOT, encoding: 'utf8' })
  assert.equal(result.status, 2)
  assert.equal(result.stderr, 'bench:durability: --endings: "crash" is not one of close, return, exit, uncaught, sigterm, sigterm-recipe, sigkill\n')
})
