import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { ROOT, runCli, syntheticResults, syntheticRun, tmpDir } from './helpers.js'
import { loadDocuments, loadResults } from '../src/results/read.js'
import fs from 'node:fs'
import { comparisonJson, compareDatasets, compareWithBaseline, renderComparison } from '../src/report/compare.js'
import { comparisonMarkdown } from '../src/report/compare-markdown.js'
import { mannWhitneyU, smallestMannWhitneyP } from '../src/stats.js'

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'report')
const BASE = path.join(FIXTURES, 'compare-base.json')
const NEW = path.join(FIXTURES, 'compare-new.json')

// A terminal wide enough for every table in one piece: these check what the tables say, not
// that they fit (test/fits-terminal.test.js).
const WIDE = { env: { COLUMNS: '400' } }

test('Mann-Whitney U: exact p for small samples, the normal approximation with ties', () => {
  // Every arrangement of 5 + 4 values counted by hand: U = 17 (or 3), P(U <= 3) = 7 / 126.
  const exact = mannWhitneyU([19, 22, 16, 29, 24], [20, 11, 17, 12])
  assert.equal(exact.u, 17)
  assert.equal(exact.exact, true)
  assert.ok(Math.abs(exact.p - 14 / 126) < 1e-12, `p = ${exact.p}`)
  assert.equal(mannWhitneyU([1, 2, 3], [4, 5, 6]).p, 0.1)
  assert.equal(smallestMannWhitneyP(3, 3), 0.1)
  assert.ok(Math.abs(smallestMannWhitneyP(4, 4) - 2 / 70) < 1e-12)
  const tied = mannWhitneyU([1, 1, 2, 3], [3, 4, 5, 5])
  assert.equal(tied.exact, false)
  assert.ok(tied.p > 0.02 && tied.p < 0.06, `p = ${tied.p}`)
  assert.equal(mannWhitneyU([5, 5, 5], [5, 5, 5]).p, 1)
  assert.equal(mannWhitneyU([], [1]), null)
})

const ENV = { node: 'v20.0.0', os: 'Linux', cpuModel: 'Test CPU', cpuCount: 2, memoryBytes: 1 << 30, libVersions: {}, command: 'log-bench run', time: '2026-11-23T10:00:00.000Z', hostname: 'h' }

// A results file with the given done times per library (file, 1 worker), unblocked at half of them.
function resultsFile (dir, name, doneByLib, { transport = 'file', extra = [], order = undefined } = {}) {
  const runs = []
  for (const [lib, times] of Object.entries(doneByLib)) {
    times.forEach((doneMs, i) => runs.push(syntheticRun({ lib, transport, run: i + 1, doneMs })))
  }
  const file = path.join(dir, name)
  fs.writeFileSync(file, JSON.stringify({ schema: 1, tool: 'log-bench', kind: 'results', complete: true, interrupted: false, env: { ...ENV, time: `2026-11-23T10:00:0${name.length % 10}.000Z`, order }, runs: [...runs, ...extra], summary: [] }))
  return file
}

// A machine that drifts by up to ±30% from round to round, the same for every library of a round:
// the factors of 8 rounds. pino's cell and a 5% slower one, each within 0.5% of that in every round.
const DRIFT = [1.21, 0.74, 1.05, 0.83, 1.29, 0.92, 0.71, 1.13]
const drifting = (centre) => DRIFT.map((f, i) => centre * f * (1 + 0.005 * Math.sin(i * 7 + centre)))

test('log-bench compare --baseline pairs the rounds of an interleaved document: drift common to a round cancels; --json says paired and pairs', async () => {
  const dir = tmpDir()
  const libs = { pino: drifting(600), slow: drifting(630) }
  const interleaved = resultsFile(dir, 'interleaved.json', libs, { order: { mode: 'interleaved', seed: 1 } })
  const blocked = resultsFile(dir, 'blocked.json', libs, { order: { mode: 'blocked', seed: null } })
  const other = resultsFile(dir, 'other.json', { slow: drifting(630) }, { order: { mode: 'interleaved', seed: 2 } })
  const base = resultsFile(dir, 'base.json', { slow: drifting(600) }, { order: { mode: 'interleaved', seed: 3 } })
  const five = resultsFile(dir, 'five.json', { pino: drifting(600).slice(0, 5), slow: drifting(630).slice(0, 5) }, { order: { mode: 'interleaved', seed: 1 } })
  // Six separate invocations on files written above: side by side.
  const [interleavedJson, blockedJson, filesJson, text, markdown, fiveJson] = await Promise.all([
    runCli(['compare', interleaved, '--baseline', 'pino', '--json']),
    runCli(['compare', blocked, '--baseline', 'pino', '--json']),
    runCli(['compare', base, other, '--json']),
    runCli(['compare', interleaved, '--baseline', 'pino'], WIDE),
    runCli(['compare', interleaved, '--baseline', 'pino', '--markdown']),
    runCli(['compare', five, '--baseline', 'pino', '--json'])
  ])
  const rowOf = (ran) => {
    assert.equal(ran.code, 0, ran.stderr)
    return JSON.parse(ran.stdout).comparisons.find((r) => r.lib === 'slow' && r.measure === 'doneMs')
  }
  const paired = rowOf(interleavedJson)
  assert.equal(paired.paired, true)
  assert.equal(paired.pairs, 8)
  assert.equal(paired.verdict, 'slower')
  assert.equal(paired.p, 2 / 256)
  assert.ok(paired.ciLow > 1.04 && paired.ciHigh < 1.06, JSON.stringify(paired))
  // The same runs not run in rounds: the drift is noise to the unpaired test.
  const unpaired = rowOf(blockedJson)
  assert.equal(unpaired.paired, false)
  assert.equal(unpaired.pairs, null)
  assert.equal(unpaired.verdict, 'unclear')
  // Two documents are never paired, even when both ran in rounds.
  const files = JSON.parse(filesJson.stdout)
  assert.ok(files.comparisons.every((r) => r.paired === false && r.pairs === null), JSON.stringify(files.comparisons))
  // The tables say which: a pairs column in the terminal and in --markdown.
  assert.match(text.stdout, /\| +p \| +pairs \| +verdict \|/)
  assert.match(text.stdout, /\| slow, Filesystem, 1 worker +\|.*\| +0\.008 \| +paired, 8 \| +slower \|/)
  assert.match(markdown.stdout, /\| 0\.008 \| paired, 8 \| \*\*slower\*\* \|/)
  // 5 rounds cannot reach p < 0.05 paired: unpaired, and the row says how many rounds it had.
  const short = rowOf(fiveJson)
  assert.deepEqual([short.paired, short.pairs], [false, 5])
})

// 7 interleaved rounds of raw and noop on the drifting machine, noop 5% slower in every round; each
// run started when its round says (startedAt), the document's records in the order they ran.
const roundRuns = () => DRIFT.slice(0, 7).flatMap((factor, i) => [
  syntheticRun({ lib: 'raw', run: i + 1, doneMs: drifting(600)[i], startedAt: 1.8e12 + i * 60000 }),
  syntheticRun({ lib: 'noop', run: i + 1, doneMs: drifting(630)[i], startedAt: 1.8e12 + i * 60000 + 30000 })
])
const noopRow = (runs, file = 'rounds.json') => {
  const dataset = loadDocuments([{ file, doc: syntheticResults(runs, { order: { mode: 'interleaved', seed: 1 } }) }])
  const result = compareWithBaseline(dataset, 'raw')
  return { result, row: result.comparisons.find((r) => r.measure === 'doneMs') }
}

test('compare pairs two runs by the round they recorded, not by where they sit in the file: a deleted record or a reversed file reads as the whole file', () => {
  const whole = noopRow(roundRuns()).row
  assert.deepEqual([whole.verdict, whole.paired, whole.pairs], ['slower', true, 7])
  assert.ok(whole.ratio > 1.045 && whole.ratio < 1.055, JSON.stringify(whole))
  // One noop record deleted: its round drops out, the other six stay paired with their own rounds
  // (by position every later noop run met the raw run of the round before it: 0.939, unclear).
  const deleted = noopRow(roundRuns().filter((r) => !(r.lib === 'noop' && r.run === 3))).row
  assert.deepEqual([deleted.verdict, deleted.paired, deleted.pairs], ['slower', true, 6])
  assert.ok(deleted.ratio > 1.045 && deleted.ratio < 1.055, JSON.stringify(deleted))
  // noop's records listed in reverse: the same pairs, the same row (by position: p 0.81).
  const runs = roundRuns()
  const reversed = noopRow([...runs.filter((r) => r.lib === 'raw'), ...runs.filter((r) => r.lib === 'noop').reverse()]).row
  for (const field of ['verdict', 'paired', 'pairs', 'ratio', 'ciLow', 'ciHigh', 'p']) assert.equal(reversed[field], whole[field], field)
  // The report's Test rows keep the recorded numbers too.
  const dataset = loadDocuments([{ file: 'r.json', doc: syntheticResults(runs.slice().reverse(), { order: { mode: 'interleaved', seed: 1 } }) }])
  assert.deepEqual(dataset.runs.filter((r) => r.lib === 'noop').map((r) => r.run), [7, 6, 5, 4, 3, 2, 1])
  assert.deepEqual(noopRow(runs).result.unpairedDocuments, [])
})

test('a document whose runs did not run in rounds, though it says interleaved, is compared unpaired, and compare says why', () => {
  // raw's seven runs back to back, then noop's: blocked order under an interleaved label.
  const blocked = roundRuns().map((r) => ({ ...r, startedAt: 1.8e12 + (r.lib === 'raw' ? 0 : 1e6) + r.run * 60000 }))
  const { result, row } = noopRow(blocked, 'blocked.json')
  assert.deepEqual([row.paired, row.pairs, row.verdict], [false, null, 'unclear'])
  assert.equal(result.unpairedDocuments.length, 1)
  assert.equal(result.unpairedDocuments[0].file, 'blocked.json')
  assert.match(result.unpairedDocuments[0].reason, /noop file 1 worker run 1 started after raw file 1 worker run 7/)
  assert.match(renderComparison(result), /note: blocked\.json is compared unpaired: its rounds cannot be read \(noop file 1 worker run 1 started after/)
  assert.match(comparisonMarkdown(result), /> blocked\.json is compared unpaired: its rounds cannot be read/)
  assert.equal(JSON.parse(comparisonJson(result)).unpairedDocuments[0].file, 'blocked.json')
  // The same runs in their rounds, whatever order the file lists them in: paired.
  assert.equal(noopRow(roundRuns().reverse()).row.paired, true)
})

test('a cell pooled from several files is not paired, though each file ran in rounds', () => {
  const docs = [0, 1].map((k) => ({ file: `part${k}.json`, doc: syntheticResults(roundRuns(), { order: { mode: 'interleaved', seed: k } }) }))
  const row = compareWithBaseline(loadDocuments(docs), 'raw').comparisons.find((r) => r.measure === 'doneMs')
  assert.deepEqual([row.paired, row.pairs, row.n], [false, null, 14])
})

const around = (centre, spread = 0.01) =>
  [0.3, -0.8, 0.1, 0.9, -0.4, 0.6, -0.2, -0.9, 0.5, 0].map((u) => centre * (1 + spread * u))

test('compareWithBaseline: every cell against the baseline library of its group, a verdict per speed measure', () => {
  const dir = tmpDir()
  const file = resultsFile(dir, 'one.json', { pino: around(600), twin: around(601), slow: around(660), broken: [null, null] })
  const result = compareWithBaseline(loadResults([file]), 'pino')
  const done = Object.fromEntries(result.comparisons.filter((r) => r.measure === 'doneMs').map((r) => [r.lib, r]))
  assert.deepEqual(Object.keys(done).sort(), ['slow', 'twin'])
  assert.equal(done.twin.verdict, 'same')
  assert.equal(done.slow.verdict, 'slower')
  assert.ok(done.slow.ciLow > 1.08 && done.slow.ciHigh < 1.12, JSON.stringify(done.slow))
  for (const field of ['lib', 'variant', 'workload', 'transport', 'cpus', 'measure', 'baseline', 'ratio', 'ciLow', 'ciHigh', 'p', 'verdict', 'n']) assert.ok(field in done.slow, field)
  assert.equal(done.slow.baseline, 'pino')
  assert.deepEqual(result.comparisons.map((r) => r.measure).sort(), ['doneMs', 'doneMs', 'unblockedMs', 'unblockedMs'])
  assert.match(result.notCompared.join(), /broken, .*failed/)
})

test('compareWithBaseline: cells of other groups are compared with their own group\'s baseline only', () => {
  const dir = tmpDir()
  const file = resultsFile(dir, 'two.json', { pino: around(600), slow: around(900) }, { transport: 'file' })
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'))
  // The console cell of `slow` has no pino console cell beside it.
  doc.runs.push(...doc.runs.filter((r) => r.lib === 'slow').map((r) => ({ ...r, transport: 'console', sink: 'pipe', doneMs: r.doneMs / 3 })))
  fs.writeFileSync(file, JSON.stringify(doc))
  const result = compareWithBaseline(loadResults([file]), 'pino')
  assert.deepEqual(result.comparisons.map((r) => `${r.transport} ${r.lib} ${r.measure} ${r.verdict}`), ['file slow unblockedMs slower', 'file slow doneMs slower'])
  assert.match(result.notCompared.join(), /slow, Console, 1 worker, pipe .*no pino cell/)
})

test('compareWithBaseline: --baseline NAME@RANGE picks a version of the library; a bare name with two versions in a group asks for one', () => {
  const dir = tmpDir()
  const file = resultsFile(dir, 'versions.json', { pino: around(600), slow: around(700) })
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'))
  // pino 9.4.0 and 10.1.0 of --lib pino@9,pino@10 beside slow.
  doc.runs = doc.runs.flatMap((r) => (r.lib === 'pino'
    ? [{ ...r, libVersion: '9.4.0', libRange: '9' }, { ...r, libVersion: '10.1.0', libRange: '10', doneMs: r.doneMs * 0.8, unblockedMs: r.unblockedMs * 0.8 }]
    : [r]))
  fs.writeFileSync(file, JSON.stringify(doc))
  const dataset = loadResults([file])
  const nine = compareWithBaseline(dataset, 'pino@9')
  const done = Object.fromEntries(nine.comparisons.filter((r) => r.measure === 'doneMs').map((r) => [`${r.lib} ${r.cell}`, r.verdict]))
  assert.deepEqual(done, { 'pino pino@10.1.0, Filesystem, 1 worker': 'faster', 'slow slow, Filesystem, 1 worker': 'slower' })
  assert.equal(compareWithBaseline(dataset, 'pino@^10.1').comparisons.find((r) => r.lib === 'slow' && r.measure === 'doneMs').verdict, 'slower')
  assert.equal(compareWithBaseline(dataset, 'pino@9.4.0').comparisons.length, 4)
  const bare = compareWithBaseline(dataset, 'pino')
  assert.equal(bare.comparisons.length, 0)
  assert.match(bare.notCompared.join(), /slow, Filesystem, 1 worker \(pino is pino@9\.4\.0 and pino@10\.1\.0 in its group: name one, e\.g\. --baseline pino@9\.4\.0\)/)
  assert.match(compareWithBaseline(dataset, 'pino@8').notCompared.join(), /no cell of pino@8 in the results/)
  assert.throws(() => compareWithBaseline(dataset, 'pino@>=banana'), /--baseline pino@>=banana: ">=banana" is not a version, range or dist-tag/)
  assert.throws(() => compareWithBaseline(dataset, 'pino@'), /--baseline pino@: "" is not a version, range or dist-tag/)
})

test('compare --baseline naming a local copy matches that copy alone, not the release whose version satisfies its range, build metadata aside', async () => {
  const dir = tmpDir()
  // --lib pino,pino+sonic-boom@./a,pino+sonic-boom@./b as run records them: the release (no range), two
  // local copies of it, each its own cell (10.4.0+local.<id>, libSource).
  const local = (id, path) => ({ libVersion: `10.4.0+local.${id}`, libRange: `+sonic-boom@${path}`, libSource: { lib: null, release: '10.4.0', overrides: [{ name: 'sonic-boom', path, version: '4.2.1', sha256: id.repeat(8) }] } })
  const cells = [['release', { libVersion: '10.4.0' }, 600], ['a', local('1a2b3c4d', './a'), 300], ['b', local('5e6f7a8b', './b'), 300]]
  const runs = cells.flatMap(([, fields, centre]) => around(centre).map((doneMs, i) => syntheticRun({ lib: 'pino', run: i + 1, doneMs, ...fields })))
  const file = path.join(dir, 'local.json')
  fs.writeFileSync(file, JSON.stringify({ schema: 1, tool: 'log-bench', kind: 'results', complete: true, interrupted: false, env: ENV, runs, summary: [] }))
  // semver reads 10.4.0+local.1a2b3c4d as the range 10.4.0: the release satisfies it.
  const result = compareWithBaseline(loadResults([file]), 'pino@10.4.0+local.1a2b3c4d')
  assert.deepEqual(result.notCompared, [])
  const done = Object.fromEntries(result.comparisons.filter((r) => r.measure === 'doneMs').map((r) => [r.cell, r.verdict]))
  assert.deepEqual(done, { 'pino 10.4.0, Filesystem, 1 worker': 'slower', 'pino@10.4.0+local.5e6f7a8b, Filesystem, 1 worker': 'same' })
  assert.ok(result.comparisons.every((r) => r.baseline === 'pino@10.4.0+local.1a2b3c4d'), JSON.stringify(result.comparisons.map((r) => r.baseline)))
  // The command says the same.
  const text = await runCli(['compare', file, '--baseline', 'pino@10.4.0+local.1a2b3c4d'], WIDE)
  assert.equal(text.code, 0, text.stderr)
  assert.match(text.stdout, /^\| pino 10\.4\.0, Filesystem, 1 worker +\| .* slower \|$/m)
  assert.doesNotMatch(text.stdout, /^\| pino@10\.4\.0\+local\.1a2b3c4d, Filesystem/m)
})

test('log-bench compare --baseline: tables with ratio, interval, p and verdict; --json rows; bad input', async () => {
  const dir = tmpDir()
  const file = resultsFile(dir, 'one.json', { pino: around(600), twin: around(601), slow: around(660) })
  const refused = [
    [[file, '--baseline', 'bunyan'], /--baseline bunyan: no cell of bunyan in the results \(libraries: pino, twin, slow\)/],
    [[file, file, '--baseline', 'pino'], /--baseline compares the cells of one results file/],
    [[file, '--baseline', 'pino', '--noise', '2'], /--noise must be a fraction/],
    [[file, '--baseline', 'pino', '--noise', 'x%'], /--noise must be a fraction/],
    [[file], /compare needs two results files/]
  ]
  // Separate invocations reading one file: side by side.
  const [text, json, wideRun, ...refusals] = await Promise.all([
    runCli(['compare', file, '--baseline', 'pino']),
    runCli(['compare', file, '--baseline', 'pino', '--json', '--noise', '5%']),
    runCli(['compare', file, '--baseline', 'pino', '--json', '--noise', '0.2']),
    ...refused.map(([args]) => runCli(['compare', ...args]))
  ])
  assert.equal(text.code, 0, text.stderr)
  assert.match(text.stdout, /done \(ms\)\n\| cell +\| +pino \| +cell \| +ratio \[95\.6% interval\] \| +p \| verdict \|/)
  assert.match(text.stdout, /\| slow, Filesystem, 1 worker +\| +600 \(n=10\) \| +660 \(n=10\) \| +1\.100 \[1\.0\d\d, 1\.1\d\d\] \| <0\.001 \| +slower \|/)
  assert.match(text.stdout, /\| twin, Filesystem, 1 worker .* +same \|/)
  assert.equal(json.code, 0, json.stderr)
  const parsed = JSON.parse(json.stdout)
  assert.equal(parsed.noise, 0.05)
  assert.equal(parsed.comparisons.length, 4)
  assert.ok(parsed.comparisons.every((r) => ['same', 'slower'].includes(r.verdict)), JSON.stringify(parsed.comparisons.map((r) => r.verdict)))
  // 10% slower is outside ±5%: still slower; inside ±20% it reads same.
  assert.equal(parsed.comparisons.find((r) => r.lib === 'slow' && r.measure === 'doneMs').verdict, 'slower')
  const wide = JSON.parse(wideRun.stdout)
  assert.equal(wide.comparisons.find((r) => r.lib === 'slow' && r.measure === 'doneMs').verdict, 'same')
  refused.forEach(([args, message], i) => {
    const result = refusals[i]
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`)
    assert.match(result.stderr, message)
    assert.equal(result.stdout, '')
  })
})

test('log-bench compare a b: per cell and measure; 3 + 3 runs warn and no closing line contradicts the warning', async () => {
  const result = compareDatasets(loadResults([BASE]), loadResults([NEW]))
  const done = result.comparisons.filter((r) => r.measure === 'doneMs')
  // 3 + 3 runs cannot reach p < 0.05: the runs cannot tell, which is unclear, not same.
  assert.deepEqual(done.map((r) => [r.cell, r.verdict]), [['pino, Filesystem, 1 worker', 'unclear'], ['winston, Filesystem, 1 worker', 'unclear']])
  assert.deepEqual(result.onlyBase, ['raw, Filesystem, 1 worker'])
  assert.deepEqual(result.onlyNew, ['log4js, Filesystem, 1 worker'])
  const { code, stdout, stderr } = await runCli(['compare', BASE, NEW], WIDE)
  assert.equal(code, 0, stderr)
  assert.match(stdout, /\| pino, Filesystem, 1 worker +\| +100 \(n=3\) \| +150 \(n=3\) \| +1\.500 \[1\.\d+, 1\.\d+\] \| 0\.100 \| +not decided \(~\d+ runs\) \|/)
  assert.match(stdout, /warning: with 3\+3 runs the smallest p the test can give is 0\.100, not below 0\.05: no comparison can read faster or slower/)
  assert.match(stdout, /new\/base \[90% interval\]/)
  assert.match(stdout, /intervals below 95% coverage: with 3\+3 runs .* \(90% instead\)/)
  assert.doesNotMatch(stdout, /by chance/)
  assert.match(stdout, /only in base \(not compared\): raw, Filesystem, 1 worker/)
})

test('log-bench compare a b with enough runs: verdicts, and the closing line counts only comparisons that could be significant', async () => {
  const dir = tmpDir()
  const a = resultsFile(dir, 'a.json', { pino: around(600), winston: around(800) })
  const b = resultsFile(dir, 'bb.json', { pino: around(600, 0.012), winston: around(880) })
  const { code, stdout, stderr } = await runCli(['compare', a, b], WIDE)
  assert.equal(code, 0, stderr)
  assert.match(stdout, /\| winston, Filesystem, 1 worker +\| +800 \(n=10\) \| +880 \(n=10\) \| +1\.100 .* +slower \|/)
  assert.match(stdout, /\| pino, Filesystem, 1 worker .* +same \|/)
  assert.doesNotMatch(stdout, /warning:/)
  assert.match(stdout, /\d+ of \d+ comparisons that could reach p < 0\.05 read faster or slower, \d+ same, \d+ not decided; on identical code about \d+\.\d tests would be significant by chance/)
})

test('compare does not skip http runs: it compares them on requests/s and latency', async () => {
  const dir = tmpDir()
  const http = (lib, reqPerSec, i) => ({ type: 'http', lib, libVersion: '1', mode: 'route', middleware: null, transport: 'console', sink: 'pipe', cpus: 1, logsPerRequest: 1, size: 20, connections: 10, pipelining: 1, durationSeconds: 5, warmupSeconds: 1, run: i + 1, ok: true, status: 'ok', error: null, reqPerSec: { mean: reqPerSec }, latencyMs: { p50: 5, p99: 10 }, sent: 10, received: 10, dropRate: 0 })
  const extra = [...around(5000).map((v, i) => http('none', v, i)), ...around(4000).map((v, i) => http('pino', v, i))]
  const file = resultsFile(dir, 'h.json', {}, { extra })
  const result = compareWithBaseline(loadResults([file]), 'none')
  const rate = result.comparisons.find((r) => r.measure === 'reqPerSec')
  assert.equal(rate.lib, 'pino')
  assert.equal(rate.verdict, 'slower')
  assert.ok(Math.abs(rate.ratio - 0.8) < 1e-9)
})
