import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { runCells, scheduleRuns } from '../src/runner/orchestrator.js'
import { createProgress } from '../src/cli/progress.js'
import { createStore } from '../src/results/store.js'
import { cellKey, comparisonGroupKey, inPlanOrder, summarize } from '../src/results/model.js'
import { readJson, runCli, tmpDir } from './helpers.js'

// Cells of runCells' shape (plain data) whose runs only record that they ran.
function fakeCells ({ libs = ['a', 'b', 'c'], transports = ['console', 'file'], runs = 3 } = {}) {
  const cells = []
  for (const transport of transports) {
    for (const lib of libs) {
      const settings = { type: 'run', lib, variant: 'default', workload: 'string', transport, cpus: 1, events: 10, size: 13 }
      cells.push({ key: cellKey(settings), label: `${lib} ${transport}`, settings, runs, unsupported: null })
    }
  }
  return cells
}

// A run type that executes a cell's settings with `execute` (by default: a run that took 1 ms).
const fakeTypes = (execute = async () => ({ ok: true, status: 'ok', error: null, doneMs: 1 })) => ({ run: { name: 'run', execute, describe: () => 'ok' } })

const label = ({ cell, run }) => `${cell.settings.lib}/${cell.settings.transport}#${run}`

test('interleaved: rounds, each comparison group together, shuffled from the seed', () => {
  const cells = fakeCells()
  const order = scheduleRuns(cells, { mode: 'interleaved', seed: 42 })
  assert.equal(order.length, 18)
  // Round r holds run r of every cell.
  for (let round = 0; round < 3; round++) {
    const slice = order.slice(round * 6, round * 6 + 6)
    assert.ok(slice.every((o) => o.run === round + 1))
    assert.equal(new Set(slice.map((o) => o.cell)).size, 6)
    // A group's cells run one after the other: the first three are one transport, all libraries.
    assert.equal(new Set(slice.slice(0, 3).map((o) => comparisonGroupKey(o.cell.settings))).size, 1)
    assert.deepEqual(slice.slice(0, 3).map((o) => o.cell.settings.lib).sort(), ['a', 'b', 'c'])
  }
  // The same seed, the same order; other seeds, other orders.
  assert.deepEqual(scheduleRuns(cells, { seed: 42 }).map(label), order.map(label))
  const others = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => scheduleRuns(cells, { seed }).map(label).join()))
  assert.ok(others.size > 4)
  // Position inside a round varies across rounds (not A B C every time) for some seed.
  assert.ok([...others].some((o) => { const l = o.split(','); return l[0].split('#')[0] !== l[6].split('#')[0] }))
})

test('blocked: every run of a cell back to back, in plan order', () => {
  const order = scheduleRuns(fakeCells({ runs: 2 }), { mode: 'blocked' })
  assert.deepEqual(order.slice(0, 4).map(label), ['a/console#1', 'a/console#2', 'b/console#1', 'b/console#2'])
})

test('cells with different run counts: later rounds hold the cells that still have runs', () => {
  const cells = fakeCells({ transports: ['file'] })
  cells[0].runs = 1
  cells[2].runs = 4
  const order = scheduleRuns(cells, { seed: 1 })
  assert.equal(order.length, 1 + 3 + 4)
  assert.deepEqual(order.map((o) => o.run), [1, 1, 1, 2, 2, 3, 3, 4])
  assert.deepEqual(order.filter((o) => o.run === 4).map(label), ['c/file#4'])
  assert.deepEqual(order.filter((o) => o.cell === cells[0]).map((o) => o.run), [1])
})

test('runCells: records startedAt and plan positions, lists runs as they ran, skips the rest of a timed-out cell, resumes', async () => {
  const out = path.join(tmpDir(), 'r.json')
  let calls = 0
  const cells = fakeCells({ runs: 3 })
  const runTypes = fakeTypes(async (settings) => {
    calls++
    if (settings.lib === 'b' && settings.transport === 'file') return { ok: false, status: 'failed', error: 'timed out after 1 s', doneMs: null }
    return { ok: true, status: 'ok', error: null, doneMs: 1 }
  })
  cells.forEach((cell, i) => { cell.planIndex = 10 + i })
  const store = createStore({ out, env: { time: 't' }, summarizers: [summarize] })
  await runCells({ cells, runTypes, store, progress: createProgress({ quiet: true }), order: { mode: 'interleaved', seed: 5 } })
  const runs = store.doc.runs
  // b/file timed out in round 1: its runs 2 and 3 are recorded skipped on its next turn, not run.
  assert.equal(calls, 3 * 6 - 2)
  assert.equal(runs.length, 18)
  assert.deepEqual(runs.filter((r) => r.status === 'skipped').map((r) => r.run), [2, 3])
  const ran = runs.filter((r) => r.status !== 'skipped')
  assert.ok(ran.every((r) => typeof r.startedAt === 'number'))
  assert.ok(ran.every((r, i) => i === 0 || r.startedAt >= ran[i - 1].startedAt))
  assert.deepEqual(runs.slice(0, 6).map((r) => r.run), [1, 1, 1, 1, 1, 1])
  assert.deepEqual(
    inPlanOrder(runs).map((r) => r.planIndex),
    [10, 10, 10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15]
  )
  assert.equal(store.doc.complete, true)
  // The summary lists cells in plan order, whatever order they ran in.
  assert.deepEqual(store.doc.summary.map((s) => `${s.lib}/${s.transport}`), ['a/console', 'b/console', 'c/console', 'a/file', 'b/file', 'c/file'])

  // --resume: a document missing some runs gets exactly those, in the recorded order.
  const previous = { ...store.doc, runs: runs.slice(0, 7) }
  const resumed = createStore({ out, env: { time: 'u' }, previous, summarizers: [summarize] })
  calls = 0
  await runCells({ cells, runTypes, store: resumed, progress: createProgress({ quiet: true }), order: { mode: 'interleaved', seed: 5 } })
  assert.equal(calls, 18 - 7 - 2)
  assert.deepEqual(resumed.doc.runs.map((r) => `${r.lib}/${r.transport}#${r.run}`).sort(), runs.map((r) => `${r.lib}/${r.transport}#${r.run}`).sort())
})

test('log-bench run: the first runs are different libraries, the order and its seed are recorded, --seed repeats it, --order blocked keeps cells together', async () => {
  const dir = tmpDir()
  const args = (out, ...more) => ['run', '--lib', 'noop,raw,pino', '--transport', 'file', '--events', '200', '--runs', '2', '--out', path.join(dir, out), '--quiet', ...more]
  const first = await runCli(args('a.json'))
  assert.equal(first.code, 0, first.stderr)
  const doc = readJson(path.join(dir, 'a.json'))
  assert.equal(doc.env.order.mode, 'interleaved')
  assert.ok(Number.isInteger(doc.env.order.seed))
  assert.deepEqual(doc.runs.slice(0, 3).map((r) => r.lib).sort(), ['noop', 'pino', 'raw'])
  assert.deepEqual(doc.runs.map((r) => r.run), [1, 1, 1, 2, 2, 2])
  const again = await runCli(args('b.json', '--seed', String(doc.env.order.seed)))
  assert.equal(again.code, 0, again.stderr)
  assert.deepEqual(readJson(path.join(dir, 'b.json')).runs.map((r) => r.lib), doc.runs.map((r) => r.lib))
  const blocked = await runCli(args('c.json', '--order', 'blocked'))
  assert.equal(blocked.code, 0, blocked.stderr)
  const blockedDoc = readJson(path.join(dir, 'c.json'))
  assert.deepEqual(blockedDoc.runs.map((r) => `${r.lib}#${r.run}`), ['noop#1', 'noop#2', 'raw#1', 'raw#2', 'pino#1', 'pino#2'])
  assert.deepEqual(blockedDoc.env.order, { mode: 'blocked', seed: null })
})

test('bad --order and --seed: one line, exit 2, nothing written', async () => {
  const dir = tmpDir()
  for (const [more, message] of [[['--order', 'random'], /unknown order "random": use one of interleaved, blocked/], [['--seed', '-1'], /--seed must be an integer from 0 to 2147483647/], [['--seed', '3', '--order', 'blocked'], /--seed orders interleaved runs/]]) {
    const result = await runCli(['run', '--lib', 'noop', '--events', '10', '--out', path.join(dir, 'x.json'), ...more])
    assert.equal(result.code, 2, result.stderr)
    assert.match(result.stderr, message)
    assert.equal(result.stderr.trim().split('\n').length, 1)
  }
  assert.deepEqual(fs.readdirSync(dir), [])
})
