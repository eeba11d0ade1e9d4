import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { recordedCommand, recordedPath } from '../src/results/env.js'

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')

test('a record names no folder of the machine that measured: paths inside the working directory relative, outside it by file name', () => {
  assert.equal(recordedPath(path.join(process.cwd(), 'scenarios', 'latency.json')), path.join('scenarios', 'latency.json'))
  assert.equal(recordedPath('/somewhere/else/mine.json'), 'mine.json')
  const cwd = process.cwd()
  assert.equal(recordedCommand(`log-bench run --scenario ${cwd}/scenarios/x.json --out ${cwd}/results/x.json --force`), 'log-bench run --scenario scenarios/x.json --out results/x.json --force')
  assert.equal(recordedCommand('log-bench run --out /tmp/x.json'), 'log-bench run --out /tmp/x.json')
})

test('the committed results files name no absolute scenario file and no working directory in their commands', () => {
  const dir = path.join(ROOT, 'results')
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'pages.json')) {
    const env = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')).env ?? {}
    const file = env.plan?.file
    if (file != null) assert.ok(!path.isAbsolute(file), `results/${name}: env.plan.file is ${file}`)
    for (const command of [env.command, ...(env.commands ?? [])].filter((c) => typeof c === 'string')) {
      assert.doesNotMatch(command, / \/(work|home|root|Users)\//, `results/${name}: a command names a folder: ${command}`)
    }
  }
})
