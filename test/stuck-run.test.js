import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { renderTerminal } from '../src/report/terminal.js'
import { closingAnswer, renderAnswer } from '../src/report/answer.js'
import { loadResults } from '../src/results/read.js'
import { ADAPTERS, leftovers, runCli, syntheticResults, syntheticRun, tmpDir } from './helpers.js'

// A run that is not getting anywhere says so and ends with its cause (issue 54, item 1). The live
// line is tested in progress.test.js.

function dataset (runs) {
  const file = path.join(tmpDir(), 'r.json')
  fs.writeFileSync(file, JSON.stringify(syntheticResults(runs)))
  return loadResults([file])
}

const timedOut = (run) => syntheticRun({
  lib: 'winston',
  libVersion: '3.19.0',
  transport: 'udp',
  cpus: 8,
  run,
  doneMs: null,
  error: 'timed out after 600 s while waiting for the logger\'s close() to resolve (0 of 8000000 events had arrived)',
  failure: { kind: 'timeout', limitS: 600 }
})

test('a failure whose cause an anomaly rule knows is printed with that cause, beside the failure, where run ends', () => {
  const text = renderTerminal(dataset([timedOut(1)]), { width: 100 })
  const failed = text.indexOf('winston udp 8 workers run 1 failed: timed out after 600 s')
  const cause = text.indexOf('Known cause, winston 3.19.0, Syslog UDP, 8 workers: winston-syslog 2.7 over UDP queues every message')
  assert.ok(failed > 0 && cause > failed, text)
  for (const line of text.split('\n')) assert.ok(line.length <= 100, line)
  // A failure without a known cause says nothing more.
  assert.doesNotMatch(renderTerminal(dataset([syntheticRun({ lib: 'pino', run: 1, doneMs: null })]), { width: 100 }), /Known cause/)
})

test('where no run finished, the Answer says so instead of being left out', () => {
  const text = renderAnswer(closingAnswer(dataset([timedOut(1)])), { width: 100 })
  assert.match(text, /^Answer\n======\nNo run finished: no library to name, nothing to compare/)
  assert.match(text, /Syslog UDP, 8 workers: no finished run/)
})

test('run with a logger that never finishes: stopped at --timeout, and stdout ends with the failure and an Answer that says no run finished', async () => {
  const dir = tmpDir()
  const out = path.join(dir, 'stuck.json')
  const ran = await runCli(['run', '--lib', path.join(ADAPTERS, 'hanging.js'), '--transport', 'file', '--events', '100', '--runs', '2', '--timeout', '3', '--out', out], { env: { COLUMNS: '100' } })
  assert.equal(ran.code, 0, ran.stderr)
  assert.deepEqual(leftovers(ran.tag), [])
  assert.match(ran.stderr, /run 1: FAILED: timed out after 3 s/)
  assert.match(ran.stdout, /run 1 failed: timed out after 3 s/)
  assert.match(ran.stdout, /No run finished: no library to name, nothing to compare/)
  for (const line of ran.stdout.split('\n')) assert.ok(line.length <= 100, line)
  fs.rmSync(dir, { recursive: true, force: true })
})
