import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { renderTerminal } from '../src/report/terminal.js'
import { loadResults } from '../src/results/read.js'
import { syntheticResults, syntheticRun, tmpDir } from './helpers.js'

// No sentence contradicts a figure beside it (issue 54, item 2).

function dataset (runs) {
  const file = path.join(tmpDir(), 'r.json')
  fs.writeFileSync(file, JSON.stringify(syntheticResults(runs)))
  return loadResults([file])
}

test('a cell whose runs failed with nothing arrived is never described as losing nothing', () => {
  const text = renderTerminal(dataset([1, 2].map((run) => syntheticRun({ lib: 'stderr', run, doneMs: null }))), { width: 1000 })
  assert.doesNotMatch(text, /No event was lost/)
  assert.match(text, /No run finished on Filesystem; failed runs lost events \(stderr, 1 worker: 100\.00% in run 1, 2; see their rows\)/)
  // At a glance's Lost column counts them, apart from the finished runs'.
  assert.match(text, /stderr: 2,000 of 2,000 in failed runs \(100\.00%\)/)
})

test('beside finished runs that lost nothing, a failed run\'s loss is named, not hidden', () => {
  const runs = [syntheticRun({ lib: 'pino', run: 1, doneMs: 10 }), syntheticRun({ lib: 'pino', run: 2, doneMs: null }), syntheticRun({ lib: 'pino', run: 3, doneMs: 11 })]
  const text = renderTerminal(dataset(runs), { width: 1000 })
  assert.doesNotMatch(text, /No event was lost/)
  assert.match(text, /No finished run lost an event on Filesystem, but failed runs lost events \(pino, 1 worker: 100\.00% in run 2;/)
  assert.match(text, /pino: 1,000 of 1,000 in failed runs \(100\.00%\)/)
})

test('a run that lost nothing still says so', () => {
  const text = renderTerminal(dataset([1, 2].map((run) => syntheticRun({ lib: 'pino', run, doneMs: 10 + run }))), { width: 1000 })
  assert.match(text, /No event was lost on Filesystem: every counted event arrived intact/)
})

test('an interval title is the coverage, or "no interval": never a bare "[no]"', () => {
  const text = renderTerminal(dataset([syntheticRun({ lib: 'pino', run: 1, doneMs: 10 })]), { width: 1000 })
  assert.doesNotMatch(text, /\[no\]/)
  assert.match(text, /Done ms \[no interval\]/)
  const five = renderTerminal(dataset([1, 2, 3, 4, 5].map((run) => syntheticRun({ lib: 'pino', run, doneMs: 10 + run }))), { width: 1000 })
  assert.match(five, /Done ms \[93\.7%\]/)
  assert.match(five, /Median \[93\.7% interval\]/)
})
