import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { runCli, syntheticRun, tmpDir } from './helpers.js'
import { loadResults } from '../src/results/read.js'
import { compareDatasets, compareWithBaseline, gateFailures, gateMessage, worstFirst } from '../src/report/compare.js'
import { comparisonMarkdown, MAX_ROWS } from '../src/report/compare-markdown.js'

const ENV = { node: 'v20.0.0', os: 'Linux', cpuModel: 'Test CPU', cpuCount: 2, memoryBytes: 1 << 30, libVersions: {}, command: 'log-bench run', time: '2026-11-23T10:00:00.000Z', hostname: 'h' }
let made = 0

// A results file with the given done times per cell ({ lib, libVersion, transport } → times).
function resultsFile (dir, name, cells) {
  const runs = []
  for (const { lib, libVersion = '1.0.0', transport = 'file', times } of cells) {
    times.forEach((doneMs, i) => runs.push(syntheticRun({ lib, libVersion, transport, run: i + 1, doneMs })))
  }
  const file = path.join(dir, name)
  made++
  fs.writeFileSync(file, JSON.stringify({ schema: 1, tool: 'log-bench', kind: 'results', complete: true, interrupted: false, env: { ...ENV, time: `2026-11-23T10:00:${String(made).padStart(2, '0')}.000Z` }, runs, summary: [] }))
  return file
}

const around = (centre, spread = 0.01) =>
  [0.3, -0.8, 0.1, 0.9, -0.4, 0.6, -0.2, -0.9, 0.5, 0].map((u) => centre * (1 + spread * u))

test('compare --fail-on: exit 3 when a named verdict appears, 0 without it or when none does; the comparison is printed either way', async () => {
  const dir = tmpDir()
  const before = resultsFile(dir, 'before.json', [{ lib: 'pino', times: around(600) }, { lib: 'winston', times: around(800) }])
  const after = resultsFile(dir, 'after.json', [{ lib: 'pino', times: around(600, 0.012) }, { lib: 'winston', times: around(880) }])
  const plain = await runCli(['compare', before, after])
  assert.equal(plain.code, 0, plain.stderr)
  const gated = await runCli(['compare', before, after, '--fail-on', 'slower'])
  assert.equal(gated.code, 3, gated.stderr)
  assert.equal(gated.stdout, plain.stdout.replace(/\n$/, '\n'))
  assert.match(gated.stderr, /^log-bench: --fail-on slower: \d+ of \d+ comparisons read slower \(winston, Filesystem, 1 worker (events\/s slower 0\.909×|unblocked \(ms\) slower 1\.100×|done \(ms\) slower 1\.100×); /)
  assert.equal(gated.stderr.trim().split('\n').length, 1)
  // winston got faster from after to before: faster is named, slower is not.
  const reversed = await runCli(['compare', after, before, '--fail-on', 'slower'])
  assert.equal(reversed.code, 0, reversed.stderr)
  const faster = await runCli(['compare', after, before, '--fail-on', 'slower,faster', '--json'])
  assert.equal(faster.code, 3)
  assert.ok(JSON.parse(faster.stdout).comparisons.some((r) => r.verdict === 'faster'))
  // unclear is a name the gate accepts even where no comparison gives it.
  assert.equal((await runCli(['compare', before, after, '--fail-on', 'unclear'])).code, 0)
  const bad = await runCli(['compare', before, after, '--fail-on', 'worse'])
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /^log-bench: unknown fail-on "worse": use one of slower, faster, unclear, higher, lower\n$/)
  assert.equal(bad.stdout, '')
})

test('compare --fail-on with --baseline: the 3 µs handicap of one cell fails the gate', async () => {
  const dir = tmpDir()
  // 1,000 events per run: 3 µs a call is 3 ms more unblocked time on 300 ms.
  // Runs 0.3% apart: a difference must lie wholly beyond the noise band to read slower.
  const file = resultsFile(dir, 'one.json', [{ lib: 'pino', times: around(600, 0.003) }, { lib: 'pino-handicapped', times: around(606, 0.003) }])
  const gated = await runCli(['compare', file, '--baseline', 'pino', '--fail-on', 'slower', '--noise', '0.5%'])
  assert.equal(gated.code, 3, gated.stderr)
  assert.match(gated.stdout, /pino-handicapped, Filesystem, 1 worker .* slower/)
  assert.equal((await runCli(['compare', file, '--baseline', 'pino', '--noise', '0.5%'])).code, 0)
  const only = resultsFile(dir, 'only.json', [{ lib: 'pino', times: around(600) }])
  const nothing = await runCli(['compare', only, '--baseline', 'pino', '--fail-on', 'slower'])
  assert.equal(nothing.code, 2)
  assert.match(nothing.stderr, /^log-bench: --baseline pino: nothing to compare in .*only\.json: it holds no cell but pino's\n$/)
})

test('compare of two files with no cell in common is an error that says why, in --json too', async () => {
  const dir = tmpDir()
  const v9 = resultsFile(dir, 'pino9.json', [{ lib: 'pino', libVersion: '9.14.0', times: around(600) }])
  const v10 = resultsFile(dir, 'pino10.json', [{ lib: 'pino', libVersion: '10.4.0', times: around(700) }])
  const extras = [[], ['--json'], ['--fail-on', 'slower'], ['--markdown']]
  // Four invocations on the same two files: side by side.
  const results = await Promise.all(extras.map((extra) => runCli(['compare', v9, v10, ...extra])))
  for (const [i, extra] of extras.entries()) {
    const result = results[i]
    assert.equal(result.code, 2, `${extra}: ${result.stderr}`)
    assert.equal(result.stdout, '')
    // Two lines: the gist, then what to do.
    assert.match(result.stderr, /^log-bench: no cell is in both .*pino9\.json and .*pino10\.json: their cells differ in the library's version \(pino 9\.14\.0 in .*; pino 10\.4\.0 in .*\)\nlog-bench: to compare two versions, measure them in one run, interleaved \(log-bench run --lib pino@9,pino@10, then compare that file --baseline pino@9\), or pair these two files' cells across versions with --ignore-version .*\n$/)
  }
  const consoleOnly = resultsFile(dir, 'console.json', [{ lib: 'pino', libVersion: '9.14.0', transport: 'console', times: around(600) }])
  const other = await runCli(['compare', v9, consoleOnly])
  assert.equal(other.code, 2)
  assert.match(other.stderr, /^log-bench: no cell is in both .* \(they differ in transport file vs console; sink file vs pipe\): .*pino9\.json has pino, Filesystem, 1 worker, file; .*console\.json has pino, Console, 1 worker, pipe\nlog-bench: compare pairs cells with the same library, .*; each file's cells: log-bench report .*pino9\.json --format terminal .*\n$/)
  // Many cells and dimensions that differ: still two lines, a few cells named and how many more.
  const many = resultsFile(dir, 'many.json', ['a', 'b', 'c', 'd', 'e'].map((lib) => ({ lib, transport: 'console', times: around(600) })))
  const long = await runCli(['compare', v9, many])
  assert.equal(long.code, 2)
  assert.equal(long.stderr.split('\n').length, 3, long.stderr)
  assert.match(long.stderr, /has a, Console, 1 worker, pipe and 4 more\n/)
  const failed = resultsFile(dir, 'failed.json', [{ lib: 'pino', libVersion: '9.14.0', times: [null, null] }])
  const none = await runCli(['compare', v9, failed])
  assert.equal(none.code, 2)
  assert.match(none.stderr, /nothing to compare between .*: pino, Filesystem, 1 worker \(base: ok; new: failed\)/)
})

test('compare --ignore-version pairs the cells of two versions, says the runs were not interleaved, and refuses a file with two versions in one cell', async () => {
  const dir = tmpDir()
  const v9 = resultsFile(dir, 'pino9.json', [{ lib: 'pino', libVersion: '9.14.0', times: around(600) }])
  const v10 = resultsFile(dir, 'pino10.json', [{ lib: 'pino', libVersion: '10.4.0', times: around(700) }])
  const json = await runCli(['compare', v9, v10, '--ignore-version', '--json', '--fail-on', 'slower'])
  assert.equal(json.code, 3, json.stderr)
  const parsed = JSON.parse(json.stdout)
  assert.equal(parsed.ignoreVersion, true)
  const done = parsed.comparisons.find((r) => r.measure === 'doneMs')
  assert.deepEqual([done.cell, done.baseLibVersion, done.libVersion, done.verdict], ['pino, Filesystem, 1 worker 9.14.0 → 10.4.0', '9.14.0', '10.4.0', 'slower'])
  const text = await runCli(['compare', v9, v10, '--ignore-version'], { env: { COLUMNS: '400' } })  // wide: what it says, not its fit
  assert.equal(text.code, 0, text.stderr)
  assert.match(text.stdout, /note: cells paired across library versions \(--ignore-version\): the two files were measured in two sessions, not interleaved/)
  const both = resultsFile(dir, 'both.json', [{ lib: 'pino', libVersion: '9.14.0', times: around(600) }, { lib: 'pino', libVersion: '10.4.0', times: around(700) }])
  const mixed = compareDatasets(loadResults([v9]), loadResults([both]), { ignoreVersion: true })
  assert.deepEqual(mixed.comparisons, [])
  assert.match(mixed.notCompared[0], /new holds pino 9\.14\.0 and 10\.4\.0 in this cell: --ignore-version pairs one version per file/)
  const refused = await runCli(['compare', v9, '--baseline', 'pino', '--ignore-version'])
  assert.equal(refused.code, 2)
  assert.match(refused.stderr, /--ignore-version pairs the cells of two files/)
})

test('compare --markdown: a short pull-request comment, worst first, names in code spans', async () => {
  const dir = tmpDir()
  const libs = Array.from({ length: 30 }, (_, i) => `lib${i}`)
  const before = resultsFile(dir, 'before.json', [...libs.map((lib) => ({ lib, times: around(600) })), { lib: 'x|_*@y', times: around(600) }])
  const after = resultsFile(dir, 'after.json', [...libs.map((lib, i) => ({ lib, times: around(i === 7 ? 720 : i === 3 ? 660 : 600) })), { lib: 'x|_*@y', times: around(500) }])
  const { code, stdout, stderr } = await runCli(['compare', before, after, '--markdown', '--fail-on', 'slower'])
  assert.equal(code, 3, stderr)
  const lines = stdout.trimEnd().split('\n')
  assert.ok(lines.length < 60, `${lines.length} lines`)
  assert.match(lines[0], /^### log-bench comparison$/)
  assert.match(stdout, /`.*before\.json` → `.*after\.json`: \*\*\d+ slower\*\*, \d+ faster, \d+ same \(\d+ comparisons; p < 0\.05, noise ±2%\)/)
  const rows = lines.filter((l) => /^\| `/.test(l))
  assert.equal(rows.length, MAX_ROWS)
  // lib7 (1.2×) before lib3 (1.1×), both slower, before anything faster or same.
  assert.match(rows[0], /^\| `lib7, Filesystem, 1 worker` \| (unblocked \(ms\)|done \(ms\)|events\/s) \| .* \| \*\*slower\*\* \|$/)
  assert.ok(rows.findIndex((r) => r.includes('lib3 ')) < rows.findIndex((r) => r.includes('faster')))
  assert.ok(rows.some((r) => r.includes('`x\\|_*@y, Filesystem, 1 worker`')), 'the | of a name cannot end the cell; its marks stay in a code span')
  assert.match(stdout, /… and \d+ more \(same\): `log-bench compare` without --markdown prints them all\./)
  assert.equal((await runCli(['compare', before, after, '--markdown', '--json'])).code, 2)
})

test('worstFirst and gateFailures: slower first, the largest change first', () => {
  const rows = [
    { verdict: 'same', ratio: 1.01 },
    { verdict: 'faster', ratio: 0.5 },
    { verdict: 'slower', ratio: 1.1 },
    { verdict: 'unclear', ratio: 1.3 },
    { verdict: 'slower', ratio: 1.5 }
  ]
  assert.deepEqual(worstFirst(rows).map((r) => `${r.verdict} ${r.ratio}`), ['slower 1.5', 'slower 1.1', 'unclear 1.3', 'faster 0.5', 'same 1.01'])
  assert.deepEqual(gateFailures({ comparisons: rows }, ['unclear', 'faster']).map((r) => r.verdict), ['unclear', 'faster'])
  assert.equal(gateMessage([{ cell: 'a\nb\u001b[31m', measure: 'doneMs', type: 'run', verdict: 'slower', ratio: 1.5 }], ['slower'], 4), '--fail-on slower: 1 of 4 comparisons read slower (a b [31m done (ms) slower 1.500×)')
  assert.equal(comparisonMarkdown({ mode: 'baseline', baseline: 'pino', alpha: 0.05, noise: 0.02, comparisons: [], notCompared: [] }).includes('nothing compared'), true)
})

test('--baseline NAME@TAG names the runs that asked for that dist-tag (run --lib ./checkout.mjs,pino@latest)', () => {
  const dir = tmpDir()
  const file = resultsFile(dir, 'tag.json', [{ lib: 'pino', libVersion: '10.4.0', times: around(600) }, { lib: 'pino', libVersion: '9.14.0', times: around(500) }, { lib: 'pino-pr', libVersion: '10.5.0', times: around(660) }])
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'))
  for (const run of doc.runs) if (run.lib === 'pino') run.libRange = run.libVersion === '10.4.0' ? 'latest' : '9'
  fs.writeFileSync(file, JSON.stringify(doc))
  const dataset = loadResults([file])
  const latest = compareWithBaseline(dataset, 'pino@latest')
  const done = latest.comparisons.filter((r) => r.measure === 'doneMs').map((r) => `${r.cell} ${r.verdict}`)
  assert.deepEqual(done.sort(), ['pino-pr, Filesystem, 1 worker slower', 'pino@9.14.0, Filesystem, 1 worker faster'])
  assert.match(compareWithBaseline(dataset, 'pino@next').notCompared.join(), /no cell of pino@next in the results/)
})
