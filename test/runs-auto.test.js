import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { runCells } from '../src/runner/orchestrator.js'
import { runSession } from '../src/runner/session.js'
import { mergeShards } from '../src/results/merge.js'
import { createProgress } from '../src/cli/progress.js'
import { createStore } from '../src/results/store.js'
import { cellKey, summarize } from '../src/results/model.js'
import { parseRuns } from '../src/api/runs-option.js'
import { canDecide, fewestDecidingMax, looksFor, lookAlphaFor, sequentialDesign } from '../src/results/sequential.js'
import { compareWithBaseline } from '../src/report/compare.js'
import { closingAnswer, renderAnswer } from '../src/report/answer.js'
import { seededRandom, smallestSignedRankP } from '../src/stats.js'
import { simulateAA } from '../benchmarks/runs-auto.js'
import fs from 'node:fs'
import { runCli, tmpDir } from './helpers.js'

test('--runs: a number, auto (6 to 20) or auto:MIN..MAX; anything else is one line', () => {
  assert.equal(parseRuns('5'), 5)
  assert.deepEqual(parseRuns('auto'), { min: 6, max: 20 })
  assert.deepEqual(parseRuns('auto:6..12'), { min: 6, max: 12 })
  for (const bad of ['0', 'x', '1001']) assert.throws(() => parseRuns(bad), /^UsageError: --runs must be an integer from 1 to 1000 \(or auto, or auto:MIN\.\.MAX such as auto:6\.\.12\), got/)
  for (const bad of ['auto:1..5', 'auto:8..6', 'auto:6..2000', 'auto6', 'auto:6-12']) assert.throws(() => parseRuns(bad), /^UsageError: --runs must be auto \(6 to 20 rounds\) or auto:MIN\.\.MAX with 2 <= MIN <= MAX <= 1000/)
})

test('log-bench run --runs with a bad value, or auto with --order blocked: one line, exit 2', async () => {
  for (const [args, message] of [
    [['--runs', 'auto:9..3'], /^log-bench: --runs must be auto \(6 to 20 rounds\) or auto:MIN\.\.MAX/],
    [['--runs', 'auto', '--order', 'blocked'], /^log-bench: --runs auto adds rounds to interleaved runs: it cannot be combined with --order blocked/]
  ]) {
    const result = await runCli(['run', '--lib', 'noop', '--transport', 'file', '--events', '10', '--quiet', '--out', path.join(tmpDir(), 'r.json'), ...args])
    assert.equal(result.code, 2, result.stderr)
    assert.match(result.stderr, message)
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
  }
})

test('--runs auto:MIN..MAX whose looks can never reach p < α is refused before it runs, naming the fewest rounds that could', async () => {
  // Every look is paired: 5 pairs give p ≥ 0.0625, so auto:2..5 (looks 2, 3, 5) could only run to 5
  // rounds and read unclear. 6 pairs reach 0.031, below the 0.05 that auto:2..6's looks test at.
  assert.equal(canDecide(sequentialDesign({ min: 2, max: 5 })), false)
  assert.equal(canDecide(sequentialDesign({ min: 2, max: 6 })), true)
  assert.equal(fewestDecidingMax(2), 6)
  assert.equal(fewestDecidingMax(7), 7)
  // At α 0.01: 8 pairs (0.0078); auto (6..20) always decides.
  assert.equal(fewestDecidingMax(2, 0.01), 8)
  assert.equal(canDecide(sequentialDesign({ min: 6, max: 20 })), true)
  const dir = tmpDir()
  const out = path.join(dir, 'r.json')
  const refused = (result, message) => {
    assert.equal(result.code, 2, result.stderr)
    assert.match(result.stderr, message)
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
    assert.equal(fs.existsSync(out), false)
  }
  refused(
    await runCli(['run', '--lib', 'noop,raw', '--transport', 'file', '--events', '10', '--quiet', '--out', out, '--runs', 'auto:2..5']),
    /^log-bench: --runs auto:2\.\.5 can never decide: its looks are paired and fewer than 6 rounds cannot reach p < 0\.05; ask for a maximum of at least 6 \(auto:2\.\.6\)$/m
  )
  refused(
    await runCli(['run', '--lib', 'noop,raw', '--transport', 'file', '--events', '10', '--quiet', '--out', out, '--runs', 'auto:6..7', '--alpha', '0.01']),
    /^log-bench: --runs auto:6\.\.7 can never decide: its looks are paired and fewer than 8 rounds cannot reach p < 0\.01; ask for a maximum of at least 8 \(auto:6\.\.8\)$/m
  )
  // A scenario group asking for it: the same line, naming the file and the group.
  const scenario = path.join(dir, 'few.json')
  fs.writeFileSync(scenario, JSON.stringify({ name: 'few', run: [{ libs: ['noop'], transports: ['file'], events: 10, runs: 6 }, { libs: ['noop', 'raw'], transports: ['file'], events: 10, runs: 'auto:3..4' }] }))
  refused(
    await runCli(['run', '--scenario', scenario, '--quiet', '--out', out]),
    /^log-bench: .*few\.json: run\[1\]: runs auto:3\.\.4 can never decide: its looks are paired and fewer than 6 rounds cannot reach p < 0\.05; ask for a maximum of at least 6 \(auto:3\.\.6\)$/m
  )
})

test('the design: looks at fixed round counts, α split over the looks that can reach it', () => {
  assert.deepEqual(looksFor({ min: 6, max: 20 }), [6, 9, 14, 20])
  assert.deepEqual(looksFor({ min: 6, max: 12 }), [6, 9, 12])
  assert.deepEqual(looksFor({ min: 5, max: 5 }), [5])
  for (const [min, max] of [[6, 20], [6, 12], [4, 10], [2, 50], [10, 30]]) {
    const looks = looksFor({ min, max })
    const each = lookAlphaFor(0.05, looks)
    // Bonferroni over the looks whose pairs can reach p < each: at most α in all.
    assert.ok(looks.filter((n) => smallestSignedRankP(n) < each).length * each <= 0.05 + 1e-12, `${min}..${max}`)
  }
  assert.equal(sequentialDesign({ min: 6, max: 20 }).lookAlpha, 0.05 / 3)
})

// Cells of runCells' shape in one group (plain settings; the run type below executes them), each
// run's done time from `value(lib, run)`.
function autoCells (libs, value, { min = 6, max = 20, baseline = libs[0] } = {}) {
  const design = sequentialDesign({ min, max }, { baseline })
  const cells = libs.map((lib) => {
    const settings = { type: 'run', lib, variant: 'default', workload: 'string', transport: 'file', cpus: 1, events: 10, size: 13 }
    return {
      key: cellKey(settings),
      label: lib,
      settings,
      runs: max,
      rounds: { design, baseline: lib === baseline },
      unsupported: null
    }
  })
  const runsOf = new Map(libs.map((lib) => [lib, 0]))
  const runTypes = {
    run: {
      describe: () => 'ok',
      execute: async (settings) => {
        runsOf.set(settings.lib, runsOf.get(settings.lib) + 1)
        const ms = value(settings.lib, runsOf.get(settings.lib))
        return { ok: true, status: 'ok', error: null, doneMs: ms, unblockedMs: ms / 2 }
      }
    }
  }
  return Object.assign(cells, { runTypes })
}

async function rounds (cells) {
  const store = createStore({ out: null, env: { time: 't' }, summarizers: [summarize] })
  const skipped = []
  const progress = {
    ...createProgress({ quiet: true }),
    skip: (label, n, reason) => skipped.push({ label, n, reason })
  }
  await runCells({ cells: [...cells], runTypes: cells.runTypes, store, progress, order: { mode: 'interleaved', seed: 3 } })
  const counts = Object.fromEntries(cells.map((c) => [c.label, store.doc.runs.filter((r) => r.lib === c.label).length]))
  return { counts, skipped, store }
}

// Drift shared by the round (as much as ±40%), and a little of each run's own.
const drift = (seed) => {
  const next = seededRandom(seed)
  const shared = Array.from({ length: 100 }, () => 0.6 + 0.8 * next())
  return (factor) => (lib, run) => 1000 * shared[run] * factor(lib) * (1 + 0.004 * (next() - 0.5))
}

test('--runs auto stops a group at the first look where every comparison is decided', async () => {
  // Identical but for c, 30% slower: a = b reads same at once, c slower only from 9 rounds (6 pairs
  // cannot reach p < 0.0167): the group stops after the look at 9.
  const { counts, skipped } = await rounds(autoCells(['a', 'b', 'c'], drift(1)((lib) => (lib === 'c' ? 1.3 : 1))))
  assert.deepEqual(counts, { a: 9, b: 9, c: 9 })
  assert.equal(skipped.length, 3)
  assert.ok(skipped.every((s) => s.n === 11 && /^stopped after 9 rounds \(--runs auto, at most 20\): every comparison of its group is decided$/.test(s.reason)))
  // All the same: decided (same) at the first look.
  assert.deepEqual((await rounds(autoCells(['a', 'b'], drift(2)(() => 1)))).counts, { a: 6, b: 6 })
})

test('--runs auto runs to the maximum where a comparison stays undecided', async () => {
  // b is 1.5% slower than a, with runs of their own spread ±5%: neither slower for sure nor within ±2%.
  const next = seededRandom(9)
  const { counts, skipped } = await rounds(autoCells(['a', 'b'], (lib) => 1000 * (lib === 'b' ? 1.015 : 1) * (1 + 0.1 * (next() - 0.5)), { min: 6, max: 12 }))
  assert.deepEqual(counts, { a: 12, b: 12 })
  assert.deepEqual(skipped, [])
})

test('--runs auto records its design (looks, α and the α of each look, the groups), and compare tests at the α of a look', async () => {
  // b 3% slower, every round: p of 6 pairs is 0.031, below 0.05 but not below the look's 0.0167.
  const cells = autoCells(['a', 'b'], (lib, run) => 1000 * (1 + run / 100) * (lib === 'b' ? 1.03 : 1), { max: 6 })
  const doc = await runSession({ cells: [...cells], runTypes: cells.runTypes, env: { time: 't' }, order: { mode: 'interleaved', seed: 1 } })
  const [design] = doc.env.order.sequential
  assert.deepEqual(design, { min: 6, max: 6, looks: [6], alpha: 0.05, lookAlpha: 0.05, noise: 0.02, baseline: 'a', groups: [{ type: 'run', runtime: null, workload: 'string', transport: 'file', sink: 'file', cpus: 1, events: 10, size: 13, rate: null, ending: 'close', receiverRate: null, receiverStallMs: null, measure: 'time', instructionsMethod: null, profile: null, cores: null, burst: null }] })
  // One look: all of α. Recorded with looks [6, 9, 14, 20] instead, the look's α is a third of it.
  const slower = compareWithBaseline(doc, 'a').comparisons.find((r) => r.measure === 'doneMs')
  assert.equal(slower.verdict, 'slower')
  assert.equal(slower.alpha, 0.05)
  const split = {
    ...doc,
    env: {
      ...doc.env,
      order: { ...doc.env.order, sequential: [{ ...design, max: 20, looks: [6, 9, 14, 20], lookAlpha: 0.05 / 3 }] }
    }
  }
  const row = compareWithBaseline(split, 'a').comparisons.find((r) => r.measure === 'doneMs')
  assert.equal(row.paired, true)
  assert.equal(row.pairs, 6)
  assert.equal(row.alpha, 0.05 / 3)
  assert.deepEqual(row.looks, [6, 9, 14, 20])
  assert.equal(row.verdict, 'unclear')
  // compare --alpha 0.01 splits 0.01 across the same looks.
  assert.equal(compareWithBaseline(split, 'a', { alpha: 0.01 }).comparisons[0].alpha, lookAlphaFor(0.01, [6, 9, 14, 20]))
  // The closing answer says its verdicts were tested at the look's α, not the header's 0.05.
  const answer = renderAnswer(closingAnswer(split))
  assert.match(answer, /under --runs auto: judged at 6, 9, 14, 20 rounds, each look at p < 0\.0167 \(0\.05 split across the looks\), paired/)
  // Without the design the same runs read slower at 0.05.
  const plain = { ...doc, env: { ...doc.env, order: { mode: 'interleaved', seed: 1 } } }
  assert.equal(compareWithBaseline(plain, 'a').comparisons.find((r) => r.measure === 'doneMs').verdict, 'slower')
})

test('A/A under --runs auto: the share read faster or slower stays at or under α (quick simulation)', () => {
  const { falsePositives, aas } = simulateAA({ aas: 400, seed: 7 })
  assert.equal(aas, 400)
  assert.ok(falsePositives / aas <= 0.05, `${falsePositives} of ${aas}`)
})

test('merge keeps every shard\'s --runs auto groups under their design', () => {
  const design = {
    min: 6,
    max: 20,
    looks: [6, 9, 14, 20],
    alpha: 0.05,
    lookAlpha: 0.05 / 3,
    noise: 0.02,
    baseline: null
  }
  const shard = (k, transport) => ({
    file: `s${k}.json`,
    doc: {
      schema: 1,
      complete: true,
      env: { time: 't', plan: { id: 'p', shard: `${k}/2`, cells: 2 }, libVersions: {}, order: { mode: 'interleaved', seed: 1, sequential: [{ ...design, groups: [{ transport }] }] } },
      runs: [{ type: 'run', lib: 'a', transport, cpus: 1, events: 10, size: 13, run: 1, ok: true, status: 'ok', doneMs: 1, planIndex: k - 1 }]
    }
  })
  const { doc } = mergeShards([shard(1, 'file'), shard(2, 'console')], { summarizers: [] })
  assert.deepEqual(doc.env.order.sequential, [{ ...design, groups: [{ transport: 'file' }, { transport: 'console' }] }])
})
