import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { compare, report, run, UsageError } from '../src/api/index.js'
import { assignGroups } from '../src/api/scenario.js'
import { MAX_DRAWN, refuseUndrawable } from '../src/draw/chart-values.js'
import { fill, mountTmpfs, readJson, ROOT, runCli, syntheticResults, syntheticRun, tmpDir } from './helpers.js'

// Hostile documents and outputs (issue 42, sections 4 and 5): each case names its family, the input,
// what is expected; a refusal is one line on stderr, exit 2, no stack, nothing half-written.

const RESULTS = path.join(ROOT, 'test', 'fixtures', 'report', 'results.json')

function assertRefused (result, pattern) {
  assert.equal(result.code, 2, result.stderr + result.stdout)
  assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
  assert.match(result.stderr, pattern)
  assert.doesNotMatch(result.stderr, /internal error|\n\s+at /)
}

describe('outputs: all of a command\'s files land together or none', () => {
  it('report --format csv,bmf,benchmark-action on a 16 KB file system: exit 2, nothing written; the retry with room is not refused', async (t) => {
    const dir = mountTmpfs(t, 'size=16k')
    if (!dir) return
    const args = ['report', RESULTS, '--format', 'csv,bmf,benchmark-action', '--out', path.join(dir, 'page.md')]
    assertRefused(await runCli(args), /^log-bench: cannot write .*: no space left on device \(ENOSPC\)$/m)
    assert.deepEqual(fs.readdirSync(dir), [])
    execFileSync('mount', ['-o', 'remount,size=1m', dir])
    const retry = await runCli(args)
    assert.equal(retry.code, 0, retry.stderr)
    assert.deepEqual(fs.readdirSync(dir).sort(), ['page-bigger-is-better.json', 'page-smaller-is-better.json', 'page-summary.csv', 'page.bmf.json', 'page.csv'])
  })

  it('report --pages with room for one page of two: neither page in either format, no chart', async (t) => {
    // One page and its charts take about 830 KB here, its results file 100 KB.
    const dir = mountTmpfs(t, 'size=1300k')
    if (!dir) return
    fs.copyFileSync(RESULTS, path.join(dir, 'r.json'))
    const page = (name) => ({ out: `${name}.md`, results: ['r.json'], images: `img-${name}` })
    fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [page('a'), page('b')] }))
    assertRefused(await runCli(['report', '--pages', 'pages.json', '--format', 'md,html'], { cwd: dir }), /^log-bench: cannot write .*no space left on device \(ENOSPC\)$/m)
    assert.deepEqual(fs.readdirSync(dir).sort(), ['pages.json', 'r.json'])
  })
})

describe('bad --shard values: one line, exit 2; a UsageError through the API', () => {
  const cases = [
    { input: '1/1000000000', before: 'a V8 out-of-memory abort (exit 134)', pattern: /^log-bench: --shard must be k\/n with 1 <= k <= n <= 1,000 \(e\.g\. 1\/2\), got "1\/1000000000"$/m },
    { input: '1/4294967296', before: 'exit 1, a RangeError stack', pattern: /^log-bench: --shard must be k\/n .*got "1\/4294967296"$/m },
    { input: '-1/2', before: '"unknown option or command: 1"', pattern: /^log-bench: --shard must be k\/n .*got "-1\/2"$/m }
  ]
  for (const { input, before, pattern } of cases) {
    it(`--shard ${input} (was ${before})`, async () => {
      const out = path.join(tmpDir(), 'r.json')
      assertRefused(await runCli(['run', '--lib', 'noop', '--events', '10', '--runs', '1', '--shard', input, '--out', out]), pattern)
      assert.equal(fs.existsSync(out), false)
      await assert.rejects(run({ libs: ['noop'], events: 10, runs: 1, shard: input }), (err) => err instanceof UsageError && /^--shard must be k\/n/.test(err.message))
    })
  }

  it('--shard with no value after it: one line naming the option', async () => {
    assertRefused(await runCli(['run', '--lib', 'noop', '--shard']), /^log-bench: --shard needs a value after it/)
  })

  it('merge and compare with no file, list --versions with no name: one line saying what to give', async () => {
    const [merged, compared, listed] = await Promise.all([runCli(['merge', '--out', path.join(tmpDir(), 'm.json')]), runCli(['compare']), runCli(['list', '--versions', ''])])
    assertRefused(merged, /^log-bench: log-bench merge needs at least 1 results file \(JSON from log-bench run or http\) after it, got 0 \(see log-bench merge --help\)$/m)
    assertRefused(compared, /^log-bench: log-bench compare needs at least 1 results file \(JSON from log-bench run or http\) after it, got 0 \(see log-bench compare --help\)$/m)
    assertRefused(listed, /^log-bench: --versions: give a library \(/)
  })

  it('more shards than comparison groups: assigned as with one shard per group, no shard counted past them', () => {
    const cell = (transport) => ({ settings: { type: 'run', lib: 'noop', variant: 'default', workload: 'string', transport, cpus: 1, events: 1000, size: 13 }, runs: 1, unsupported: null })
    const cells = ['console', 'file', 'udp'].map(cell)
    assert.deepEqual([...assignGroups(cells, 1000)], [...assignGroups(cells, 3)])
  })
})

describe('API options of the wrong type: a UsageError naming the value as it was given', () => {
  const cases = [
    { label: 'events: NaN', options: { events: NaN }, before: '"got null"', pattern: /^events must be a finite number or a string, got NaN$/ },
    { label: 'events: Infinity', options: { events: Infinity }, before: '"got null"', pattern: /^events must be a finite number or a string, got Infinity$/ },
    { label: 'events: 10n', options: { events: 10n }, before: 'a TypeError (Do not know how to serialize a BigInt)', pattern: /^events must be a finite number or a string, got 10n \(a BigInt\)$/ },
    { label: 'force: 10n', options: { force: 10n }, before: 'a TypeError', pattern: /^force must be true or false, got 10n \(a BigInt\)$/ },
    { label: 'libs: [\'noop\', NaN]', options: { libs: ['noop', NaN] }, before: '"got [noop,null]"', pattern: /^libs must be a list of finite numbers or strings, got \["noop", NaN\]$/ }
  ]
  for (const { label, options, before, pattern } of cases) {
    it(`${label} (was ${before})`, async () => {
      await assert.rejects(run({ libs: ['noop'], ...options }), (err) => err instanceof UsageError && pattern.test(err.message))
    })
  }
})

// The fixture with its first doneMs replaced.
function withDoneMs (dir, value) {
  const file = path.join(dir, 'r.json')
  fs.writeFileSync(file, fs.readFileSync(RESULTS, 'utf8').replace(/"doneMs": ?[0-9.]+/, `"doneMs": ${value}`))
  return file
}

describe('absurd figures in a schema-valid document: a clear refusal within seconds, never a hang', () => {
  for (const format of ['md', 'html']) {
    it(`report --format ${format} of a doneMs of 1.7e308 (was: the chart's tick loop never ended, memory growing)`, async () => {
      const dir = tmpDir()
      const file = withDoneMs(dir, '1.7e308')
      assertRefused(await runCli(['report', file, '--format', format, '--out', path.join(dir, 'p.md'), '--images', path.join(dir, 'img')], { timeoutMs: 60_000 }), /^log-bench: cannot draw the chart \S+\.png: it would plot 1\.7e\+308, beyond the ±1e300 a chart's axis can span/m)
      assert.deepEqual(fs.readdirSync(dir), ['r.json'])
    })
  }

  it('the refusal\'s bound: 1e300 is drawn, 1.7e308 and -1.7e308 are not', () => {
    const spec = (value) => ({ file: 'x.png', config: { type: 'bar', data: { labels: ['a'], datasets: [{ label: 'a', data: [value], errorBars: [{ low: 0, high: value }] }] } } })
    assert.doesNotThrow(() => refuseUndrawable(spec(MAX_DRAWN)))
    for (const value of [1.7e308, -1.7e308]) {
      assert.throws(() => refuseUndrawable(spec(value)), (err) => err instanceof UsageError)
    }
  })

  it('an SVG axis whose step is below its ends\' precision (1e20 to 1e20 + 16384) ends (was: an endless loop)', () => {
    const script = `import { chartFigure } from ${JSON.stringify(path.join(ROOT, 'src', 'report', 'svg-chart.js'))}
const svg = chartFigure({ width: 600, height: 400, config: { type: 'line', data: { datasets: [{ label: 'a', data: [{ x: 1, y: 1e20 }, { x: 2, y: 1e20 + 16384 }] }] }, options: { scales: { x: { type: 'linear' }, y: { type: 'linear' } } } } }, { id: 'c1' })
process.stdout.write(String(svg.match(/class="tick"/g).length))`
    // In a child process: the endless loop was synchronous, and only a kill ends it.
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 })
    assert.equal(child.status, 0, child.stderr || `ended by ${child.signal}`)
    assert.ok(Number(child.stdout) > 0)
  })
})

// Two documents of one cell, 5 runs each, the new one 10% slower: 5 + 5 runs reach p = 0.008.
function beforeAfter (dir, { double = false } = {}) {
  const times = [600, 606, 597, 603, 601]
  const write = (name, factor) => {
    const runs = times.map((t, i) => syntheticRun({ lib: 'pino', run: i + 1, doneMs: t * factor }))
    const file = path.join(dir, name)
    fs.writeFileSync(file, JSON.stringify(syntheticResults(double ? [...runs, ...runs.map((r) => ({ ...r }))] : runs)))
    return file
  }
  return [write('before.json', 1), write('after.json', 1.1)]
}

describe('duplicated records are refused at read', () => {
  it('compare of two documents whose every run is recorded twice (was: n = 10 per side, p < 0.001 instead of 0.008)', async () => {
    const dir = tmpDir()
    const once = await runCli(['compare', ...beforeAfter(dir), '--json'])
    assert.equal(once.code, 0, once.stderr)
    const row = JSON.parse(once.stdout).comparisons.find((r) => r.measure === 'doneMs')
    assert.equal(row.p.toFixed(3), '0.008')
    const twice = await runCli(['compare', ...beforeAfter(tmpDir(), { double: true })])
    assertRefused(twice, /^log-bench: .*before\.json: runs\[0\] and runs\[5\] are both pino file 1 worker run 1 of one cell: a run recorded twice would be counted twice; keep one of them$/m)
  })

  it('report and merge refuse the same file', async () => {
    const [doubled] = beforeAfter(tmpDir(), { double: true })
    assertRefused(await runCli(['report', doubled, '--format', 'terminal']), /runs\[0\] and runs\[5\] are both pino file 1 worker run 1/)
    assertRefused(await runCli(['merge', doubled, doubled, '--out', path.join(tmpDir(), 'm.json')]), /runs\[0\] and runs\[5\] are both pino file 1 worker run 1/)
  })
})

describe('merge of shards measured at different commits', () => {
  // Two shards of one plan, their runs in different comparison groups, at the given commits.
  function shards (dir, commits) {
    return commits.map((gitCommit, i) => {
      const runs = [1, 2].map((run) => syntheticRun({ lib: 'pino', transport: i ? 'console' : 'file', run, doneMs: 600 + run }))
      const file = path.join(dir, `s${i + 1}.json`)
      fs.writeFileSync(file, JSON.stringify(syntheticResults(runs, { gitCommit, logBenchVersion: '1.0.0', plan: { id: 'plan-1', kind: 'options', name: null, shard: `${i + 1}/2`, cells: 2 } })))
      return file
    })
  }
  const A = 'a'.repeat(40)
  const B = 'b'.repeat(40)

  it('refused naming both commits (was: merged, keeping the first shard\'s commit silently)', async () => {
    const dir = tmpDir()
    const out = path.join(dir, 'm.json')
    assertRefused(await runCli(['merge', ...shards(dir, [A, B]), '--out', out]), new RegExp(`^log-bench: .*s1\\.json and .*s2\\.json were measured by different log-bench code: commit ${A.slice(0, 12)} \\(log-bench 1\\.0\\.0\\) vs commit ${B.slice(0, 12)} \\(log-bench 1\\.0\\.0\\): .*--allow-mixed-commits`, 'm'))
    assert.equal(fs.existsSync(out), false)
  })

  it('--allow-mixed-commits: merged, the document names no commit, env.shards names each; one commit is kept where all shards share it', async () => {
    const dir = tmpDir()
    const out = path.join(dir, 'm.json')
    const result = await runCli(['merge', ...shards(dir, [A, B]), '--out', out, '--allow-mixed-commits'])
    assert.equal(result.code, 0, result.stderr)
    const { env } = JSON.parse(fs.readFileSync(out, 'utf8'))
    assert.equal(env.gitCommit, null)
    assert.deepEqual(env.shards.map((s) => s.gitCommit), [A, B])
    const same = path.join(dir, 'same.json')
    const alike = await runCli(['merge', ...shards(tmpDir(), [A, A]), '--out', same])
    assert.equal(alike.code, 0, alike.stderr)
    assert.equal(JSON.parse(fs.readFileSync(same, 'utf8')).env.gitCommit, A)
  })
})

describe('compare: what it cannot compare, in words', () => {
  const write = (dir, name, runs) => {
    const file = path.join(dir, name)
    fs.writeFileSync(file, JSON.stringify(syntheticResults(runs)))
    return file
  }
  const pino = (times) => times.map((doneMs, i) => syntheticRun({ lib: 'pino', run: i + 1, doneMs }))

  it('a file with 0 runs, as base, as new and with --baseline: "has no runs" (was: "they differ in type run vs ; lib pino vs ; …")', async () => {
    const dir = tmpDir()
    const empty = write(dir, 'empty.json', [])
    const full = write(dir, 'full.json', pino([600, 601, 602]))
    for (const args of [[full, empty], [empty, full], [empty, '--baseline', 'pino']]) {
      assertRefused(await runCli(['compare', ...args]), /^log-bench: .*empty\.json has no runs: nothing to compare/m)
    }
  })

  it('a base median of 0: the difference in the ratio column carries its unit (was: "+1.0 [+0.90, +1.2]", read as a ratio)', async () => {
    const dir = tmpDir()
    const zero = write(dir, 'zero.json', pino([0, 0, 0, 0, 0]))
    const some = write(dir, 'some.json', pino([1, 1.2, 0.9, 1.1, 1]))
    for (const flag of [[], ['--markdown']]) {
      const result = await runCli(['compare', zero, some, ...flag])
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /\| \+1\.0 ms \[\+0\.90 ms, \+1\.2 ms\] \|/)
      assert.match(result.stdout, /\| \+1,000,000 events\/s \[\+833,333 events\/s, \+1,111,111 events\/s\] \|/)
    }
  })
})

describe('names from a results file in CSV and JSON output', () => {
  // pino renamed to a formula, winston to an @-formula, noop to C1 and bidi characters; a failed
  // run's reason starting with "-".
  function injected (dir) {
    const doc = JSON.parse(fs.readFileSync(RESULTS, 'utf8'))
    const names = { pino: '=HYPERLINK("http://evil/")', winston: '@SUM(1)', noop: 'abc\u202eevil\x9b31m' }
    for (const run of doc.runs) if (Object.hasOwn(names, run.lib)) run.lib = names[run.lib]
    Object.assign(doc.runs.find((r) => r.status === 'failed'), { error: '-2+3+cmd|x' })
    const file = path.join(dir, 'r.json')
    fs.writeFileSync(file, JSON.stringify(doc))
    return file
  }

  it('CSV: text starting with = + - @ gets a leading \' (OWASP), negative numbers stay numbers (already so: recorded)', async () => {
    const dir = tmpDir()
    const result = await runCli(['report', injected(dir), '--format', 'csv', '--out', path.join(dir, 'p.md')])
    assert.equal(result.code, 0, result.stderr)
    for (const name of ['p.csv', 'p-summary.csv']) {
      const csv = fs.readFileSync(path.join(dir, name), 'utf8')
      assert.match(csv, /,"'=HYPERLINK\(""http:\/\/evil\/""\)",/)
      assert.match(csv, /,'@SUM\(1\),/)
      assert.doesNotMatch(csv, /(^|,)"?[=+@]/m)
    }
    assert.match(fs.readFileSync(path.join(dir, 'p.csv'), 'utf8'), /,'-2\+3\+cmd\|x(,|$)/m)
    const { csvTable } = await import('../src/draw/table.js')
    assert.equal(csvTable({ columns: [{ title: 'a' }, { title: 'b' }], rows: [[-1.5, '-1.5']] }), "a,b\n-1.5,'-1.5\n")
  })

  it('compare --json: C1 and bidi characters are \\u escapes in every string, the values read back unchanged (was: raw)', async () => {
    const dir = tmpDir()
    const result = await runCli(['compare', injected(dir), '--baseline', 'raw', '--json'])
    assert.equal(result.code, 0, result.stderr)
    assert.doesNotMatch(result.stdout, /[\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/)
    assert.match(result.stdout, /"lib": "abc\\u202eevil\\u009b31m"/)
    assert.ok(JSON.parse(result.stdout).comparisons.some((r) => r.lib === 'abc\u202eevil\x9b31m'))
  })
})

// Section 5: compare --fail-on and every export fed crafted documents through the API (a document
// object can hold what JSON cannot: NaN, Infinity). Each: a UsageError of one line, or a correct output.
describe('crafted documents: compare --baseline and the exports', () => {
  const pino = (times, extra = {}) => times.map((doneMs, i) => syntheticRun({ lib: 'pino', run: i + 1, doneMs, ...extra }))
  const raw = (times) => times.map((doneMs, i) => syntheticRun({ lib: 'raw', run: i + 1, doneMs }))
  const FORMATS = ['csv', 'bmf', 'benchmark-action', 'md', 'html']
  const refused = (pattern) => Object.fromEntries(['compare', ...FORMATS].map((what) => [what, pattern]))
  const cases = [
    { name: 'NaN', runs: () => [...pino([NaN, 600, 601]), ...raw([500, 501, 502])], expect: refused(/^results document 1: runs\[0\] \(pino file 1 worker run 1\): unblockedMs must be a finite number >= 0 or null, got NaN$/) },
    { name: 'Infinity', runs: () => [...pino([Infinity, 600, 601]), ...raw([500, 501, 502])], expect: refused(/^results document 1: runs\[0\] .*: unblockedMs must be a finite number >= 0 or null, got a number beyond a double's range/) },
    { name: 'a negative count', runs: () => [...pino([600, 601, 602], { sent: -5 }), ...raw([500, 501, 502])], expect: refused(/^results document 1: runs\[0\] .*: sent must be a whole number of events >= 0 or null, got -5$/) },
    { name: 'duplicated cells', runs: () => { const runs = [...pino([600, 601, 602]), ...raw([500, 501, 502])]; return [...runs, ...runs] }, expect: refused(/^results document 1: runs\[0\] and runs\[6\] are both pino file 1 worker run 1 of one cell/) },
    { name: 'done at 1e308 against 500 ms', runs: () => [...pino([1e308, 1e308, 1e308, 1e308, 1e308]), ...raw([500, 501, 502, 503, 504])], expect: { compare: 'slower', csv: true, bmf: true, 'benchmark-action': true, md: /^cannot draw the chart \S+\.png: it would plot/, html: /^cannot draw the chart \S+\.png/ } },
    { name: 'zero runs', runs: () => [], expect: { compare: /^results document 1 has no runs: nothing to compare/, csv: true, bmf: true, 'benchmark-action': true, md: true, html: true } },
    { name: 'one run a side', runs: () => [...pino([600]), ...raw([500])], expect: { compare: 'unclear', csv: true, bmf: true, 'benchmark-action': true, md: true, html: true } }
  ]
  for (const { name, runs, expect } of cases) {
    it(name, async () => {
      const doc = syntheticResults(runs())
      const gate = expect.compare
      if (gate instanceof RegExp) await assert.rejects(compare(doc, { baseline: 'raw' }), (err) => err instanceof UsageError && gate.test(err.message))
      else assert.deepEqual((await compare(doc, { baseline: 'raw' })).comparisons.filter((r) => r.measure === 'doneMs').map((r) => r.verdict), [gate])
      for (const format of FORMATS) {
        const dir = tmpDir()
        const options = { format, out: path.join(dir, 'p.md'), images: path.join(dir, 'img') }
        if (expect[format] instanceof RegExp) {
          await assert.rejects(report(doc, options), (err) => err instanceof UsageError && expect[format].test(err.message) && !err.message.includes('\n'), format)
          assert.deepEqual(fs.readdirSync(dir), [], format)
        } else {
          const { files } = await report(doc, options)
          assert.ok(files.length > 0 && files.every((file) => fs.statSync(file).size > 0), format)
        }
      }
    })
  }

  it('compare --fail-on on a crafted file: exit 3 for a verdict it names, 2 for a refused file, never 0 for nothing compared', async () => {
    const dir = tmpDir()
    const file = (name, runs) => {
      const f = path.join(dir, name)
      fs.writeFileSync(f, JSON.stringify(syntheticResults(runs)))
      return f
    }
    const big = await runCli(['compare', file('big.json', [...pino([1e308, 1e308, 1e308, 1e308, 1e308]), ...raw([500, 501, 502, 503, 504])]), '--baseline', 'raw', '--fail-on', 'slower'])
    assert.equal(big.code, 3, big.stderr)
    const one = file('one.json', [...pino([600]), ...raw([500])])
    assert.equal((await runCli(['compare', one, '--baseline', 'raw', '--fail-on', 'slower'])).code, 0)
    assert.equal((await runCli(['compare', one, '--baseline', 'raw', '--fail-on', 'unclear'])).code, 3)
    assertRefused(await runCli(['compare', file('none.json', []), '--baseline', 'raw', '--fail-on', 'slower']), /none\.json has no runs/)
  })
})

// A registry nothing listens on. npm still retries once (log-bench asks for --fetch-retries=1), but
// after 0.1 s rather than its default 10 s back-off: the refusal is the same, the wait is not a test.
const UNREACHABLE = { npm_config_registry: 'http://127.0.0.1:9', npm_config_fetch_retry_mintimeout: '100', npm_config_fetch_retry_maxtimeout: '100' }

describe('version ranges, the registry and the version cache', () => {
  const marker = path.join(tmpDir(), 'touched')
  const cases = [
    { lib: `pino@$(touch ${marker})`, pattern: /^log-bench: "pino@\$\(touch .*\)": "\$\(touch .*\)" is neither a version range \(9, 2\.4\.7, \^9\.1\) nor a dist-tag \(latest\)$/m },
    { lib: 'pino@`id`', pattern: /is neither a version range/ },
    { lib: 'pino@;rm -rf /', pattern: /is neither a version range/ },
    // A range that is a path is a local copy (docs/versions.md): refused where it is not there.
    { lib: 'pino@../../x', pattern: /^log-bench: --lib: \.\.\/\.\.\/x does not exist \(give the folder of pino, or its npm pack \.tgz\)$/m },
    // A name holding "/" is an adapter's path: resolved and refused as a file that is not there.
    { lib: '@../../x@1', pattern: /^log-bench: adapter file not found: .*x@1$/m }
  ]
  for (const { lib, pattern } of cases) {
    it(`--lib '${lib}': one line, exit 2, nothing run or installed (already so: recorded)`, async () => {
      const cache = tmpDir()
      assertRefused(await runCli(['run', '--lib', lib, '--cache', cache, '--events', '10', '--runs', '1', '--out', path.join(tmpDir(), 'r.json')]), pattern)
      assert.equal(fs.existsSync(marker), false)
      assert.deepEqual(fs.readdirSync(cache), [])
    })
  }

  // Probed again (family: version ranges with shell metacharacters; input: the range; expected: one
  // line, exit 2, nothing run, installed or executed; observed: so, recorded).
  const shellRanges = [
    ['pino@>=9 <10 && touch', /"pino@>=9 <10 && touch .*": ">=9 <10 && touch .*" is neither a version range/],
    ['pino@9 || $(touch', /"9 \|\| \$\(touch .*\)" is neither a version range/],
    ['pino@9 | touch', /"9 \| touch .*" is neither a version range/],
    ['pino@latest;touch', /"latest;touch .*" is neither a version range/]
  ]
  for (const [prefix, pattern] of shellRanges) {
    const lib = prefix.endsWith('$(touch') ? `${prefix} ${marker})` : `${prefix} ${marker}`
    it(`--lib '${lib}': one line, exit 2, nothing run, installed or executed (already so: recorded)`, async () => {
      const cache = tmpDir()
      assertRefused(await runCli(['run', '--lib', lib, '--cache', cache, '--events', '10', '--runs', '1', '--out', path.join(tmpDir(), 'r.json')]), pattern)
      assert.equal(fs.existsSync(marker), false)
      assert.deepEqual(fs.readdirSync(cache), [])
    })
  }

  // Family: runtimes by range (the same check, under the runtime's package name); observed: so, recorded.
  // (A range holding "/" is a path to a runtime: refused as one that does not exist.)
  it('--runtime \'node@$(id)\' and --runtime node@../../x: one line, exit 2 (already so: recorded)', async () => {
    assertRefused(await runCli(['run', '--lib', 'raw', '--runtime', 'node@$(id)', '--cache', tmpDir(), '--events', '10', '--runs', '1', '--out', path.join(tmpDir(), 'r.json')]), /^log-bench: "node-[\w-]+@\$\(id\)": "\$\(id\)" is neither a version range/m)
    assertRefused(await runCli(['run', '--lib', 'raw', '--runtime', 'node@../../x', '--events', '10', '--runs', '1', '--out', path.join(tmpDir(), 'r.json')]), /^log-bench: --runtime node@\.\.\/\.\.\/x: .* does not exist$/m)
    assert.equal(fs.existsSync(marker), false)
  })

  // Family: a corrupted version cache. Input: its libs directory is a file; expected and observed
  // (recorded): without the registry, the one line that nothing cached matches, exit 2.
  it('a cache whose libs directory is a file, the registry unreachable: one line, exit 2 (already so: recorded)', async () => {
    const cache = tmpDir()
    fs.writeFileSync(path.join(cache, 'libs'), '')
    const result = await runCli(['run', '--lib', 'pino@9', '--cache', cache, '--events', '10', '--runs', '1', '--out', path.join(tmpDir(), 'r.json')], { env: UNREACHABLE })
    assertRefused(result, /^log-bench: cannot install pino@9: the npm registry is unreachable \(ECONNREFUSED\) and no cached version matches/m)
  })

  // Input: a version marked complete whose package is gone; expected and observed (recorded): a
  // failed run with the loader's reason, the results saved, exit 0.
  it('a cached version marked complete whose package is missing: a failed run with the reason (already so: recorded)', async () => {
    const cache = tmpDir()
    fs.mkdirSync(path.join(cache, 'libs', 'pino@9.1.0'), { recursive: true })
    fs.writeFileSync(path.join(cache, 'libs', 'pino@9.1.0', '.log-bench-complete'), '')
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'pino@9.1.0', '--cache', cache, '--transport', 'file', '--events', '10', '--runs', '1', '--quiet', '--out', out], { env: UNREACHABLE })
    assert.equal(result.code, 0, result.stderr)
    const [record] = readJson(out).runs
    assert.equal(record.status, 'failed')
    assert.match(record.error, /^worker 0 failed while building the logger: Cannot find module 'pino'/)
  })

  it('a registry that cannot be reached and nothing cached: one line naming it, exit 2 (already so: recorded)', async () => {
    const result = await runCli(['run', '--lib', 'pino@9', '--cache', tmpDir(), '--events', '10', '--runs', '1', '--out', path.join(tmpDir(), 'r.json')], { env: UNREACHABLE })
    assertRefused(result, /^log-bench: cannot install pino@9: the npm registry is unreachable \(ECONNREFUSED\) and no cached version matches/m)
  })

  it('a corrupted version in the cache (its package.json not JSON): a failed run with the reason (already so: recorded)', async () => {
    const cache = tmpDir()
    const dir = path.join(cache, 'libs', 'pino@9.1.0')
    fs.mkdirSync(path.join(dir, 'node_modules', 'pino'), { recursive: true })
    fs.writeFileSync(path.join(dir, '.log-bench-complete'), '')
    fs.writeFileSync(path.join(dir, 'node_modules', 'pino', 'package.json'), '{not json')
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'pino@9.1.0', '--cache', cache, '--transport', 'file', '--events', '10', '--runs', '1', '--quiet', '--out', out], { env: UNREACHABLE })
    assert.equal(result.code, 0, result.stderr)
    const [record] = readJson(out).runs
    assert.equal(record.status, 'failed')
    assert.match(record.error, /^worker 0 failed while building the logger: Error parsing .*pino\/package\.json/)
  })
})

describe('TMPDIR on a full 2 MB file system', () => {
  it('full before the run: the run fails with the reason, exit 0 with the results, no directory left (was: exit 1, a stack, an empty run directory left)', async (t) => {
    const tmp = mountTmpfs(t, 'size=2m')
    if (!tmp) return
    fill(tmp, 0)
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'raw', '--transport', 'file', '--events', '1000', '--runs', '1', '--quiet', '--out', out], { env: { TMPDIR: tmp } })
    assert.equal(result.code, 0, result.stderr)
    assert.doesNotMatch(result.stderr, /internal error|\n\s+at /)
    const [record] = readJson(out).runs
    assert.equal(record.status, 'failed')
    assert.equal(record.error, `cannot make the run's directory in ${tmp}: no space left on device (ENOSPC)`)
    assert.deepEqual(fs.readdirSync(tmp), ['filler'])
  })

  it('http, full before the run: the run fails with the reason, exit 0 (was: the same crash as run)', async (t) => {
    const tmp = mountTmpfs(t, 'size=2m')
    if (!tmp) return
    fill(tmp, 0)
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['http', '--lib', 'none', '--duration', '1', '--warmup', '0', '--runs', '1', '--quiet', '--out', out], { env: { TMPDIR: tmp } })
    assert.equal(result.code, 0, result.stderr)
    const [record] = readJson(out).runs
    assert.equal(record.error, `cannot make the run's directory in ${tmp}: no space left on device (ENOSPC)`)
    assert.deepEqual(fs.readdirSync(tmp), ['filler'])
  })

  it('merge --out on a full file system: one line, exit 2, nothing written (already so: recorded)', async (t) => {
    const dir = mountTmpfs(t, 'size=2m')
    if (!dir) return
    const shardsDir = tmpDir()
    const shard = (k, transport) => {
      const file = path.join(shardsDir, `s${k}.json`)
      fs.writeFileSync(file, JSON.stringify(syntheticResults([syntheticRun({ lib: 'noop', transport, run: 1, doneMs: 5 })], { gitCommit: null, logBenchVersion: '1.0.0', plan: { id: 'p', kind: 'options', name: null, shard: `${k}/2`, cells: 2 } })))
      return file
    }
    fill(dir, 0)
    assertRefused(await runCli(['merge', shard(1, 'file'), shard(2, 'console'), '--out', path.join(dir, 'm.json')]), /^log-bench: cannot write .*m\.json: no space left on device \(ENOSPC\)$/m)
    assert.deepEqual(fs.readdirSync(dir), ['filler'])
  })

  it('filling up during the runs: each run fails with ENOSPC as its reason, nothing left in TMPDIR (already so: recorded)', async (t) => {
    const tmp = mountTmpfs(t, 'size=2m')
    if (!tmp) return
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'raw', '--transport', 'file,console', '--events', '200000', '--runs', '1', '--quiet', '--out', out], { env: { TMPDIR: tmp } })
    assert.equal(result.code, 0, result.stderr)
    const runs = readJson(out).runs
    assert.deepEqual(runs.map((r) => r.status), ['failed', 'failed'])
    for (const r of runs) assert.match(r.error, /ENOSPC/)
    assert.deepEqual(fs.readdirSync(tmp), [])
  })
})
