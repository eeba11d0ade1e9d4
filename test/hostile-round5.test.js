import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { report, run, UsageError } from '../src/api/index.js'
import { availableCpus, cpusOf, findTaskset } from '../src/engine/affinity.js'
import { mergeShards } from '../src/results/merge.js'
import { RESULTS_SCHEMA } from '../src/results/schema.js'
import { LOAD_SAMPLES, sampleLoad } from '../src/results/env.js'
import { boundedSeries } from '../src/engine/bounded-series.js'
import { TIMESERIES_POINTS } from '../src/engine/sampler.js'
import { profileDiffWithBaseline } from '../src/report/profile-diff.js'
import { validateDocument } from '../src/results/read.js'
import { runName } from '../src/draw/labels.js'
import { ROOT, runCli, syntheticResults, syntheticRun, tmpDir } from './helpers.js'

// Hostile round five (issue 68): each case failed before its fix.

// A refusal: one line on stderr, exit 2, no stack.
function assertRefused (result, pattern) {
  assert.equal(result.code, 2, result.stderr + result.stdout)
  assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
  assert.match(result.stderr.trim(), pattern)
  assert.doesNotMatch(result.stderr, /internal error|\n\s+at /)
}

const linux = fs.existsSync('/proc/self/status') ? false : 'no /proc/self/status (not Linux)'
const noTaskset = linux || (findTaskset() ? false : 'taskset (util-linux) is not installed')
const oneCpu = noTaskset || (availableCpus().length > 1 ? false : 'needs two CPUs')

// A taskset on PATH that does what the real one does, but fails its calls numbered in `failing` (1 is
// the first) as taskset does when the CPU set it is asked for is no longer allowed.
function fakeTaskset (failing) {
  const dir = tmpDir('lb-fake-taskset-')
  const count = path.join(dir, 'count')
  const real = findTaskset()
  fs.writeFileSync(path.join(dir, 'taskset'), `#!/bin/sh
n=$(($(cat ${count} 2>/dev/null || echo 0) + 1)); echo $n > ${count}
case " ${failing.join(' ')} " in *" $n "*) echo "taskset: failed to set pid $5's affinity: Invalid argument" >&2; exit 1;; esac
exec ${real} "$@"
`, { mode: 0o755 })
  return { PATH: `${dir}${path.delimiter}${process.env.PATH}` }
}

describe('a CPU affinity that cannot be put back after --cores fails that run and keeps the others', () => {
  it('the second run\'s restore fails: three runs in the file, the second failed with the reason, exit 0, no stack', { skip: noTaskset }, async () => {
    const out = path.join(tmpDir(), 'r.json')
    // Calls 1 and 2 are run 1's limit and restore; 4 is run 2's restore.
    const result = await runCli(['run', '--lib', 'noop', '--cores', '1', '--events', '100', '--runs', '3', '--out', out], { env: fakeTaskset([4]) })
    assert.equal(result.code, 0, result.stderr)
    assert.doesNotMatch(result.stderr, /internal error|\n\s+at /)
    const doc = JSON.parse(fs.readFileSync(out, 'utf8'))
    assert.deepEqual(doc.runs.map((r) => [r.run, r.status]), [[1, 'ok'], [2, 'failed'], [3, 'ok']])
    assert.match(doc.runs[1].error, /could not put log-bench's process \(after --cores\) on CPU .* Invalid argument/)
    assert.equal(doc.complete, true)
    assert.match(result.stdout, /1 failed run/)
  })

  it('the first restore fails: the file is written, its one run failed with the reason', { skip: noTaskset }, async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'noop', '--cores', '1', '--events', '100', '--runs', '1', '--out', out], { env: fakeTaskset([2]) })
    assert.equal(result.code, 0, result.stderr)
    assert.doesNotMatch(result.stderr, /internal error|\n\s+at /)
    const doc = JSON.parse(fs.readFileSync(out, 'utf8'))
    assert.equal(doc.runs[0].status, 'failed')
    assert.match(doc.runs[0].error, /after --cores/)
  })
})

describe('the CPUs a run had are read from the process, whatever started it', () => {
  it('a run started under taskset -c 1 records CPU 1 in the document and in each run', { skip: oneCpu }, async () => {
    const out = path.join(tmpDir(), 'r.json')
    const cpu = String(availableCpus().at(-1))
    execFileSync(findTaskset(), ['-c', cpu, process.execPath, path.join(import.meta.dirname, '..', 'bin', 'log-bench.js'), 'run', '--lib', 'noop', '--events', '100', '--runs', '1', '--out', out], { env: { ...process.env, LOG_BENCH_BUSY_LOAD: 'off' }, stdio: 'pipe' })
    const doc = JSON.parse(fs.readFileSync(out, 'utf8'))
    assert.equal(doc.env.allowedCpus, cpu)
    assert.equal(doc.runs[0].cores, null)
    assert.equal(doc.runs[0].allowedCpus, cpu)
    const md = path.join(path.dirname(out), 'page.md')
    const page = await runCli(['report', out, '--out', md], { cwd: path.dirname(out) })
    assert.equal(page.code, 0, page.stderr)
    assert.match(fs.readFileSync(md, 'utf8'), new RegExp(`CPU ${cpu} of \\d+ for the runs without --cores, as log-bench was started`))
  })

  it('merge refuses shards started on different CPU sets as it refuses mixed hardware, and labels their runs when allowed', () => {
    const shard = (k, allowedCpus) => ({
      file: `s${k}.json`,
      doc: syntheticResults([syntheticRun({ lib: 'pino', run: 1, doneMs: 10, transport: k === 1 ? 'file' : 'console', planIndex: k - 1 })],
        { allowedCpus, plan: { id: 'p', kind: 'options', shard: `${k}/2`, cells: 2 }, order: { mode: 'blocked', seed: null } })
    })
    assert.throws(() => mergeShards([shard(1, '0-1'), shard(2, '1')]), (err) => err instanceof UsageError && /different environments \(allowed CPUs "0-1" vs "1"\): add --allow-mixed-hardware/.test(err.message))
    const { doc } = mergeShards([shard(1, '0-1'), shard(2, '1')], { allowMixedHardware: true })
    assert.deepEqual(doc.runs.map((r) => r.machine), ['Test CPU (2 cores, h)', 'Test CPU (2 cores, CPU 1 allowed, h)'])
    assert.deepEqual(doc.env.shards.map((s) => s.allowedCpus), ['0-1', '1'])
    // Shards of files written before allowedCpus was recorded merge as before.
    assert.doesNotThrow(() => mergeShards([shard(1, undefined), shard(2, '1')]))
  })

  it('a run with --cores 1 records the CPU it had', { skip: noTaskset }, async () => {
    const doc = await run({ libs: ['noop'], cores: 1, events: 100, runs: 1 })
    assert.equal(doc.runs[0].allowedCpus, String(availableCpus()[0]))
    assert.equal(doc.env.allowedCpus, cpusOf('self'))
  })

  it('a job with cores runs alone in its process: a second job is refused with one line, and the first is not narrowed by it', { skip: noTaskset }, async () => {
    const first = run({ libs: ['noop'], cores: 1, events: 100, runs: 2 })
    await new Promise((resolve) => first.once('run-start', resolve))
    await assert.rejects(run({ libs: ['noop'], events: 100, runs: 1 }), (err) => err instanceof UsageError && /run\(\) cannot start while run\(\) with cores runs in this process/.test(err.message) && !err.message.includes('\n'))
    await assert.rejects(run({ libs: ['noop'], cores: 1, events: 100, runs: 1 }), UsageError)
    const doc = await first
    assert.ok(doc.runs.every((r) => r.ok), doc.runs.map((r) => r.error).join('; '))
    // Once it ended, a job with cores runs again.
    const again = await run({ libs: ['noop'], cores: 1, events: 100, runs: 1 })
    assert.equal(again.runs[0].ok, true)
  })

  it('a job with cores is refused while another job runs', { skip: noTaskset }, async () => {
    const first = run({ libs: ['noop'], events: 100, runs: 2 })
    await new Promise((resolve) => first.once('run-start', resolve))
    await assert.rejects(run({ libs: ['noop'], cores: 1, events: 100, runs: 1 }), (err) => err instanceof UsageError && /run\(\) with cores sets this process's CPU affinity/.test(err.message))
    await first
  })
})

describe('a design whose looks are [] (item 7)', () => {
  it('compare and report refuse it in one line naming what looks must hold (was: "looks must be an array, got []")', async () => {
    const doc = JSON.parse(fs.readFileSync(path.join(ROOT, 'results', 'workloads.json'), 'utf8'))
    doc.env.order.sequential[0].looks = []
    const file = path.join(tmpDir(), 'crafted.json')
    fs.writeFileSync(file, JSON.stringify(doc))
    for (const args of [['compare', file, '--baseline', 'pino'], ['report', file, '--format', 'terminal']]) {
      assertRefused(await runCli(args), /^log-bench: .*env\.order\.sequential\[0\]\.looks must be an array of 1 to 20 entries, got \[\]$/)
    }
  })
})

describe('compare --profile-diff where an ok run has no profile summary (item 8)', () => {
  it('says the ok run recorded none, not that it failed', () => {
    const summary = { sampledMs: 4, packages: [{ name: 'pino', selfMs: 4, share: 1, usPerEvent: 4 }], functions: [] }
    const runs = [
      syntheticRun({ lib: 'pino', run: 1, doneMs: 10, profile: true, profileSummary: summary }),
      syntheticRun({ lib: 'winston', run: 1, doneMs: 10, profile: true, profileSummary: null }),
      syntheticRun({ lib: 'winston', run: 2, doneMs: null, profile: true, profileSummary: null })
    ]
    const { notCompared } = profileDiffWithBaseline({ runs }, 'pino')
    assert.equal(notCompared.length, 1)
    assert.match(notCompared[0], /its runs hold no profile summary \(1 failed run, 1 ok run that recorded none\)$/)
  })
})

// A profiled run whose call tree is `tree`.
const profiledRun = (lib, run, tree) => syntheticRun({
  lib,
  run,
  doneMs: 100,
  profile: true,
  profileSummary: {
    samples: 1, sampledMs: 4, threads: 1, packages: [{ name: lib, selfMs: 4, share: 1, usPerEvent: 4 }], functions: []
  },
  profileTree: tree
})
const frame = (name, parent, extra = {}) => ({ name, package: 'pino', file: 'file:///x/node_modules/pino/index.js', line: 3, selfUs: 1, totalUs: 10, parent, ...extra })
const chain = (length) => ({ nodes: Array.from({ length }, (_, i) => frame(i ? `f${i}` : '(root)', i - 1)) })

function writeDoc (doc) {
  const file = path.join(tmpDir(), 'crafted.json')
  fs.writeFileSync(file, JSON.stringify(doc))
  return file
}

// report's API on the file in one format refuses it with a UsageError of one line matching pattern,
// and writes nothing beside it.
async function assertReportRefuses (file, format, pattern) {
  const dir = path.dirname(file)
  const before = fs.readdirSync(dir)
  const options = { format, out: path.join(dir, 'page.md'), images: path.join(dir, 'images') }
  await assert.rejects(report(file, options), (err) => err instanceof UsageError && pattern.test(err.message) && !err.message.includes('\n'), format)
  assert.deepEqual(fs.readdirSync(dir), before, `${format}: nothing written`)
}

// Each format of report, from the file: its result.
async function reportEach (file, formats = ['md', 'html', 'terminal']) {
  const dir = path.dirname(file)
  const results = []
  for (const format of formats) {
    const out = format === 'terminal' ? [] : ['--out', path.join(dir, `page.${format}`), '--images', path.join(dir, 'images'), '--force']
    results.push({ format, ...await runCli(['report', file, '--format', format, ...out], { cwd: dir, timeoutMs: 240_000 }) })
  }
  return results
}

describe('crafted profile trees are bad input; any tree log-bench writes is drawn (item 2)', () => {
  const CASES = [
    ['{ nodes: [] }', { nodes: [] }, /profileTree\.nodes must be an array of 1 to 20,000 entries, got \[\]/],
    ['{}', {}, /profileTree is missing field "nodes"/],
    ['a parent cycle', { nodes: [frame('(root)', -1), frame('a', 2), frame('b', 1)] }, /profileTree\.nodes\[1\]\.parent must be the index of an earlier node \(its caller's, depth first: 0 to 0\), got 2/],
    ['a parent out of range', { nodes: [frame('(root)', -1), frame('a', 99)] }, /profileTree\.nodes\[1\]\.parent must be the index of an earlier node .*got 99/],
    ['package: null', { nodes: [frame('(root)', -1, { package: null })] }, /profileTree\.nodes\[0\]\.package must be a string, got null/],
    ['a chain 20,000 deep', chain(20_000), /profileTree\.nodes\[65\] lies 66 levels deep: a profile tree has at most 65/]
  ]
  const crafted = (tree) => writeDoc(syntheticResults([profiledRun('pino', 1, chain(2)), profiledRun('winston', 1, tree)]))
  // Each case in this process (report's API, the command's own code): a UsageError of one line is what
  // the command prints as its one line with exit 2, and anything else (the internal error this was) fails.
  for (const [name, tree, message] of CASES) {
    it(`${name}: report refuses it in one line, in every format, writing nothing (was: an internal error on the HTML page)`, async () => {
      const file = crafted(tree)
      for (const format of ['md', 'html']) await assertReportRefuses(file, format, message)
    })
  }

  it('from the command line, the chain 20,000 deep: exit 2, one line, no stack, in every format', async () => {
    const [, tree, message] = CASES.at(-1)
    for (const result of await reportEach(crafted(tree), ['md', 'html'])) assertRefused(result, message)
  })

  it('a tree 65 levels deep, the deepest log-bench writes, is drawn on the HTML page', async () => {
    const file = writeDoc(syntheticResults([profiledRun('pino', 1, chain(65)), profiledRun('winston', 1, chain(65))]))
    const dir = path.dirname(file)
    for (const format of ['md', 'html']) {
      const { files } = await report(file, { format, out: path.join(dir, 'page.md'), images: path.join(dir, 'images') })
      assert.ok(files.length > 0 && files.every((written) => fs.statSync(written).size > 0), format)
    }
    assert.match(fs.readFileSync(path.join(dir, 'page.html'), 'utf8'), /class="plot flame[^"]*"[^>]*viewBox="0 0 1000 1170"/)
  })
})

// A document that began on a busy machine, with its load sampled `count` times.
function busyDocument (loadSamples, { inShard = false } = {}) {
  const env = { loadAverage: [3, 3, 3], cpuCount: 2 }
  const doc = syntheticResults([syntheticRun({ lib: 'pino', run: 1, doneMs: 10 })], inShard ? { shards: [{ shard: '1/1', file: 's.json', ...env, loadSamples }] } : { ...env, loadSamples })
  return writeDoc(doc)
}
const samples = (count) => Array.from({ length: count }, (_, i) => [i * 10, 1 + (i % 7)])

describe('a long history of load samples (item 4)', () => {
  it('130,000 samples, in env or in a shard, are refused in one line, exit 2 (was: RangeError in loadLimits)', async () => {
    for (const inShard of [false, true]) {
      const where = inShard ? 'env\\.shards\\[0\\]\\.loadSamples' : 'env\\.loadSamples'
      for (const result of await reportEach(busyDocument(samples(130_000), { inShard }), ['md', 'html'])) {
        assertRefused(result, new RegExp(`${where} must hold at most 10000 entries, got 130000`))
      }
    }
  })

  it('10,000 samples, the most a session keeps, give a page that says their range', async () => {
    const [md, html] = await reportEach(busyDocument(samples(10_000)), ['md', 'html'])
    assert.equal(md.code, 0, md.stderr)
    assert.equal(html.code, 0, html.stderr)
  })

  it('a session keeps at most 10,000, thinned over its whole span, as the schema allows', () => {
    const env = { time: new Date(0).toISOString() }
    let clock = 0
    let tick = null
    const realSetInterval = globalThis.setInterval
    globalThis.setInterval = (fn) => { tick = fn; return { unref () {} } }
    try {
      const load = sampleLoad(env, { now: () => clock, loadavg: () => [1] })
      for (let i = 1; i <= 130_000; i++) { clock = i * 10_000; tick() }
      load.stop()
    } finally {
      globalThis.setInterval = realSetInterval
    }
    const kept = env.loadSamples.length
    assert.ok(kept <= LOAD_SAMPLES && kept > LOAD_SAMPLES / 2, String(kept))
    assert.equal(env.loadSamples[0][0], 0)
    assert.ok(env.loadSamples.at(-1)[0] > 1_290_000, 'the last sample is near the end')
    assert.equal(RESULTS_SCHEMA.$defs.env.properties.loadSamples.maxItems, LOAD_SAMPLES)
  })
})

describe('a long time series (item 5)', () => {
  const stalled = (points) => syntheticRun({
    lib: 'pino',
    run: 1,
    doneMs: 100,
    timeseries: Array.from({ length: points }, (_, i) => ({ tMs: i * 100, cpuPct: 50, rssBytes: 1e7, heapBytes: 1e6 }))
  })

  it('200,000 points are refused in one line, exit 2 (was: RangeError in numericScale on the HTML page)', async () => {
    for (const result of await reportEach(writeDoc(syntheticResults([stalled(200_000)])), ['md', 'html'])) {
      assertRefused(result, /runs\[0\] \(pino file 1 worker run 1\): timeseries must hold at most 10000 entries, got 200000$/)
    }
  })

  it('the sampler keeps at most 10,000 points over the whole run, as the schema allows', () => {
    const { series, push } = boundedSeries(TIMESERIES_POINTS)
    for (let i = 0; i < 200_000; i++) push({ tMs: i * 100 })
    assert.ok(series.length <= TIMESERIES_POINTS && series.length > TIMESERIES_POINTS / 2, String(series.length))
    const steps = new Set(series.slice(1).map((p, i) => p.tMs - series[i].tMs))
    assert.deepEqual([...steps], [3200], 'evenly thinned')
    assert.ok(series.at(-1).tMs > 19_990_000 - 3200)
    for (const type of ['runRecord', 'httpRecord']) assert.equal(RESULTS_SCHEMA.$defs[type].properties.timeseries.maxItems, TIMESERIES_POINTS)
  })
})

describe('every string of a results file is escaped in every format (item 3)', () => {
  // Markup in HTML and markdown, a link to a script, and a terminal's control sequence.
  const MARKUP = '<img src=x onerror=alert(1)><script>alert(2)</script>[l](javascript:alert(3))\u001b[2J'

  // Two shards of one plan, merged, each begun on a busy machine, with failed, profiled and paced
  // runs and --runs auto's design: as many of the page's sections as a small document reaches.
  function mergedDocument () {
    const runs = (shard) => [
      ...[1, 2, 3].flatMap((run) => [
        syntheticRun({ lib: 'pino', run, doneMs: 10 + run, transport: shard === 1 ? 'file' : 'console', planIndex: shard - 1 }),
        syntheticRun({ lib: 'winston', run, doneMs: run === 2 ? null : 30 + run, transport: shard === 1 ? 'file' : 'console', planIndex: shard + 1 })
      ]),
      profiledRun('pino', 1, chain(3)),
      profiledRun('winston', 1, { nodes: [frame('(root)', -1), frame('write', 0), frame('format', 1)] })
    ].map((r) => ({ ...r, transport: r.profile ? (shard === 1 ? 'file' : 'console') : r.transport, planIndex: r.profile ? 4 + shard : r.planIndex }))
    const shard = (k) => ({
      file: `shard-${k}.json`,
      doc: syntheticResults(runs(k), {
        cpuModel: 'Test CPU',
        os: 'Linux 6.1',
        hostname: 'h',
        gitCommit: 'abc',
        logBenchVersion: '1.0.0',
        loadAverage: [3, 3, 3],
        availableMemoryBytes: 1 << 30,
        loadSamples: [[0, 3], [10, 2.5]],
        libVersions: { pino: '9.0.0', winston: '3.0.0' },
        options: { libs: ['pino', 'winston'], transports: ['file'] },
        plan: { id: 'p', kind: 'options', shard: `${k}/2`, cells: 4 },
        order: { mode: 'interleaved', seed: 7 }
      })
    })
    return mergeShards([shard(1), shard(2)]).doc
  }

  // Every string of the document that the schema lets hold any text gets MARKUP after it; one the
  // reader then refuses (a name from a list, a library's version range) keeps its value, and so does
  // a record's type (a record of a type log-bench does not know is passed through, never drawn).
  function plantEverywhere (doc) {
    const planted = []
    const strings = []
    const collect = (value, at) => {
      if (typeof value === 'string') strings.push(at)
      else if (Array.isArray(value)) value.forEach((item, i) => collect(item, [...at, i]))
      else if (value && typeof value === 'object') for (const key of Object.keys(value)) collect(value[key], [...at, key])
    }
    collect(doc, [])
    for (const at of strings.filter((path) => path.at(-1) !== 'type')) {
      const parent = at.slice(0, -1).reduce((into, key) => into[key], doc)
      const key = at.at(-1)
      const before = parent[key]
      parent[key] = before + MARKUP
      try {
        validateDocument(doc, 'planted')
        planted.push(at.join('.'))
      } catch {
        parent[key] = before
      }
    }
    return planted
  }

  it('markdown, HTML and the terminal show each planted string as text: no tag, no link, no control sequence', async () => {
    const doc = mergedDocument()
    const planted = plantEverywhere(doc)
    for (const field of [/^env\.cpuModel$/, /^env\.shards\.0\.cpuModel$/, /^env\.command$/, /^runs\.0\.lib$/, /^runs\.\d+\.error$/, /^runs\.\d+\.profileTree\.nodes\.1\.name$/]) {
      assert.ok(planted.some((at) => field.test(at)), `${field} holds markup (${planted.length} strings planted)`)
    }
    const file = writeDoc(doc)
    const results = await reportEach(file)
    for (const { format, code, stderr } of results) assert.equal(code, 0, `${format}: ${stderr}`)
    const dir = path.dirname(file)
    // Inside a code span, markup is shown as it is, never rendered.
    const md = fs.readFileSync(path.join(dir, 'page.md'), 'utf8').replace(/(`+)[^`][\s\S]*?\1/g, '`code`')
    assert.match(md, /Busy machine/, 'the Read this first block is on the page')
    assert.doesNotMatch(md, /<img|<script/i, 'no tag in markdown')
    assert.doesNotMatch(md, /(?<!\\)\]\(javascript:/, 'no markdown link to a script')
    const html = fs.readFileSync(path.join(dir, 'page.html'), 'utf8')
    assert.doesNotMatch(html, /<img src=x|<script>alert|href="javascript:/i, 'no planted tag or link in HTML')
    // compare's table in the terminal and as markdown, of the same document.
    const baseline = runName(doc.runs.find((r) => r.lib.startsWith('pino')))
    const compared = await runCli(['compare', file, '--baseline', baseline], { cwd: dir })
    const comparedMd = await runCli(['compare', file, '--baseline', baseline, '--markdown'], { cwd: dir })
    for (const result of [compared, comparedMd]) assert.equal(result.code, 0, result.stderr)
    const comparedMarkdown = comparedMd.stdout.replace(/(`+)[^`][\s\S]*?\1/g, '`code`')
    assert.doesNotMatch(comparedMarkdown, /<img|<script|(?<!\\)\]\(javascript:/i, 'compare --markdown: no tag, no link')
    for (const [format, text] of [['md', md], ['html', html], ['terminal', results[2].stdout], ['compare', compared.stdout], ['compare --markdown', comparedMd.stdout]]) {
      assert.ok(!text.includes('\u001b'), `${format}: no raw escape character`)
    }
  })
})
