import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { mergeSummaries, nestedTree, ownerWords, packageOf, profileDiff, profileTree, summarizeProfiles } from '../src/results/profile-summary.js'
import { packageRelative } from '../src/results/profile-paths.js'
import { flameGraphSvg } from '../src/draw/flame.js'
import { fileNamePart, profileFolder, removeProfiles, saveProfiles } from '../src/run/profiles.js'
import { writeNewFile } from '../src/results/write.js'
import { invalidMessage, MESSAGES } from '../src/engine/messages.js'
import { runCli, syntheticResults, syntheticRun, tmpDir } from './helpers.js'

// What is made of a V8 CPU profile (docs/costs.md, "CPU profiles"), from hand-made profiles and
// records: the summary in the record, the files kept beside the results, compare --profile-diff and
// the flame graphs. The profiled runs themselves are test/profile.test.js.

const frame = (functionName, url = '', lineNumber = -1) => ({ functionName, url, lineNumber, columnNumber: 0, scriptId: '0' })

// A hand-made profile: root → main → spendHere (a package's) → writeString (native, under node:fs's
// writeSync), plus the collector and idle. Samples 100 µs apart; the last one runs to endTime.
function handMade () {
  const nodes = [
    { id: 1, callFrame: frame('(root)'), children: [2, 6, 7] },
    { id: 2, callFrame: frame('main', 'file:///app/main.js', 0), children: [3, 4] },
    { id: 3, callFrame: frame('spendHere', 'file:///app/node_modules/@acme/busy/index.js', 9), children: [] },
    { id: 4, callFrame: frame('writeSync', 'node:fs', 900), children: [5] },
    { id: 5, callFrame: frame('writeString'), children: [8] },
    { id: 6, callFrame: frame('(garbage collector)'), children: [] },
    { id: 7, callFrame: frame('(idle)'), children: [] },
    { id: 8, callFrame: frame(''), children: [] }
  ]
  // spendHere 5 samples, writeString 1 and an unnamed native frame under it 1, writeSync 1, GC 1,
  // idle 1 (the last, to endTime: 100 µs).
  const samples = [3, 3, 3, 5, 8, 4, 6, 3, 3, 7]
  const timeDeltas = samples.map((_, i) => (i === 0 ? 0 : 100))
  return { nodes, startTime: 1000, endTime: 1000 + 100 * 10, samples, timeDeltas }
}

describe('the profile summary', () => {
  it('by self time: credits each sample\'s time to the function on top, by package, with shares and µs per event', () => {
    const { self, ...summary } = summarizeProfiles([handMade()], { events: 10 })
    assert.equal(summary.samples, 10)
    assert.equal(summary.sampledMs, 1)
    assert.deepEqual(self.packages.map((p) => [p.name, p.share, p.usPerEvent]), [
      ['@acme/busy', 0.5, 50],
      // The native writeString is the file system's time: its caller's package.
      ['node:fs', 0.3, 30],
      ['(garbage collector)', 0.1, 10],
      ['(idle)', 0.1, 10]
    ])
    const top = self.functions[0]
    assert.deepEqual([top.name, top.file, top.line, top.package, top.share], ['spendHere', '@acme/busy/index.js', 10, '@acme/busy', 0.5])
    assert.deepEqual(self.functions.find((f) => f.name === 'writeString'), { name: 'writeString', file: '(native)', line: null, package: 'node:fs', callee: null, inlinedInto: null, selfMs: 0.1, share: 0.1, usPerEvent: 10 })
    assert.equal(self.functions.find((f) => f.name === '(native, from writeString)').package, 'node:fs')
  })

  it('by owner: a native or Node frame\'s time is the nearest JavaScript outside Node above it, with its callee beside it', () => {
    const summary = summarizeProfiles([handMade()], { events: 10 })
    // writeSync (node:fs), writeString and the unnamed native under it: main's, who called writeSync.
    assert.deepEqual(summary.packages.map((p) => [p.name, p.share]), [['@acme/busy', 0.5], ['main.js', 0.3], ['(garbage collector)', 0.1], ['(idle)', 0.1]])
    const main = summary.functions.filter((f) => f.name === 'main')
    assert.deepEqual(main.map((f) => [f.callee, f.share]), [[{ name: 'writeSync', file: 'node:fs', native: true }, 0.2], [{ name: 'writeSync', file: 'node:fs', native: false }, 0.1]])
    assert.equal(ownerWords(main[0]), 'main → writeSync (node:fs, native)')
    // The profiler's own frames are nobody's.
    assert.equal(summary.functions.find((f) => f.name === '(idle)').callee, null)
  })

  it('recovers an inlined function from the lines its caller\'s samples fell on, in the script\'s source', () => {
    const source = [
      'function helper (n) {', //           1
      '  let x = 0', //                     2
      '  for (let i = 0; i < n; i++) x++', // 3
      '  return x', //                       4
      '}', //                                5
      'export function log (m) {', //        6
      '  return helper(m.length)', //        7
      '}' //                                 8
    ].join('\n')
    const url = 'file:///elsewhere/node_modules/lib/index.js'
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2] },
        { id: 2, callFrame: frame('log', url, 5), children: [], positionTicks: [{ line: 3, ticks: 9 }, { line: 7, ticks: 1 }] }
      ],
      startTime: 0,
      endTime: 1000,
      samples: [2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
      timeDeltas: [0, 100, 100, 100, 100, 100, 100, 100, 100, 100]
    }
    const read = []
    const summary = summarizeProfiles([profile], { events: 1, sourceOf: (u) => { read.push(u); return source } })
    assert.deepEqual(read, [url])
    assert.deepEqual(summary.functions.map((f) => [f.name, f.file, f.line, f.inlinedInto, f.share]), [['helper', 'lib/index.js', 1, 'log', 0.9], ['log', 'lib/index.js', 6, null, 0.1]])
    assert.equal(ownerWords(summary.functions[0]), 'helper (inlined into log)')
    // Without the source, or with one where no function starts on the frame's line: the frame as sampled.
    assert.deepEqual(summarizeProfiles([profile], { events: 1 }).functions.map((f) => f.name), ['log'])
    assert.deepEqual(summarizeProfiles([profile], { events: 1, sourceOf: () => 'const x = 1' }).functions.map((f) => f.name), ['log'])
    assert.deepEqual(summarizeProfiles([profile], { events: 1, sourceOf: () => 'this is not JavaScript (' }).functions.map((f) => f.name), ['log'])
  })

  it('names files relative to their package, never the machine\'s folders', () => {
    const roots = { adapter: 'file:///home/me/adapters/mine.js', harness: 'file:///home/me/log-bench/src/' }
    assert.equal(packageRelative('file:///home/me/log-bench/node_modules/pino/node_modules/sonic-boom/index.js', roots), 'sonic-boom/index.js')
    assert.equal(packageRelative('file:///home/me/log-bench/src/run/worker.js', roots), 'log-bench/src/run/worker.js')
    assert.equal(packageRelative('file:///home/me/adapters/mine.js', roots), 'adapter/mine.js')
    assert.equal(packageRelative('file:///home/me/app/server.js', roots), 'server.js')
    for (const kept of ['', 'node:fs', 'sonic-boom/index.js', 'wasm://wasm/1a2b']) assert.equal(packageRelative(kept, roots), kept)
    // The package of a relative path is the same as of the URL it came from.
    for (const url of ['file:///x/node_modules/@scope/lib/a.js', 'file:///home/me/log-bench/src/run/worker.js', 'file:///home/me/adapters/mine.js']) {
      assert.equal(packageOf(packageRelative(url, roots), roots), packageOf(url, roots), url)
    }
    const summary = summarizeProfiles([handMade()], { events: 10, roots })
    assert.doesNotMatch(JSON.stringify(summary), /file:|\/app\//)
    assert.doesNotMatch(JSON.stringify(profileTree([handMade()], { roots })), /file:|\/app\//)
  })

  it('merges profiles (workers, threads) before taking shares', () => {
    const summary = summarizeProfiles([handMade(), handMade()], { events: 20 })
    assert.equal(summary.threads, 2)
    assert.equal(summary.packages[0].share, 0.5)
    assert.equal(summary.packages[0].usPerEvent, 50)
  })

  it('names packages from node_modules paths, Node\'s own modules by what they do, the adapter and the harness', () => {
    const roots = { adapter: 'file:///lb/src/loggers/pino.js', harness: 'file:///lb/src/' }
    assert.equal(packageOf('file:///x/node_modules/pino/node_modules/sonic-boom/index.js', roots), 'sonic-boom')
    assert.equal(packageOf('/x/node_modules/@opentelemetry/sdk-logs/build/index.js', roots), '@opentelemetry/sdk-logs')
    assert.equal(packageOf('node:internal/streams/writable', roots), 'node:streams')
    assert.equal(packageOf('node:internal/fs/utils', roots), 'node:fs')
    assert.equal(packageOf('node:net', roots), 'node:net')
    assert.equal(packageOf('node:internal/validators', roots), 'node:other')
    assert.equal(packageOf('file:///lb/src/loggers/pino.js', roots), 'adapter')
    assert.equal(packageOf('file:///lb/src/run/worker.js', roots), 'log-bench')
    assert.equal(packageOf('', roots), null)
  })
})

describe('keeping the profiles', () => {
  it('checks the worker\'s list of profiles like every other figure it sends', () => {
    const closed = { type: 'closed', at: '1', cpuUserMs: 1, cpuSystemMs: 1, maxRssBytes: 1, heapPeakBytes: 1, gcCount: 0, gcPauseMs: 0 }
    const main = { thread: 'main', file: '/tmp/x/profile-w0-main.cpuprofile', samples: 3, fromMs: 0, until: 'closed' }
    assert.equal(invalidMessage(MESSAGES.runWorker, { ...closed, profiles: [main, { thread: '[worker 1]', file: null, note: 'not profiled: gone' }] }), null)
    assert.match(invalidMessage(MESSAGES.runWorker, { ...closed, profiles: [{ ...main, until: 'whenever' }] }), /"profiles" is .*not an array of 1 to 64 profiled threads/)
    assert.match(invalidMessage(MESSAGES.runWorker, { ...closed, profiles: [] }), /"profiles"/)
  })

  it('reads only the files it named, and never writes over a file', () => {
    const runDir = tmpDir()
    const outDir = tmpDir()
    fs.writeFileSync(path.join(runDir, 'profile-w0-main.cpuprofile'), JSON.stringify(handMade()))
    const elsewhere = path.join(tmpDir(), 'secret.cpuprofile')
    fs.writeFileSync(elsewhere, JSON.stringify(handMade()))
    const settings = { lib: '../../etc/passwd', variant: 'default', transport: 'file', cpus: 2, profileOut: path.join(outDir, 'r.json') }
    const kept = saveProfiles({
      reports: [[{ thread: 'main', file: path.join(runDir, 'profile-w0-main.cpuprofile'), samples: 10, fromMs: 0, until: 'closed' }], [{ thread: 'main', file: elsewhere, samples: 10, fromMs: 0, until: 'closed' }]],
      runDir,
      settings,
      sent: 20
    })
    // In the results file's own folder, named after it; every script URL package-relative.
    assert.deepEqual(fs.readdirSync(outDir), ['r.profiles'])
    assert.equal(kept.cpuProfiles[0].file, `r.profiles/${fs.readdirSync(path.join(outDir, 'r.profiles'))[0]}`)
    assert.match(kept.cpuProfiles[0].file, /^r\.profiles\/etc-passwd-file-2w\.[0-9a-f]{8}\.w0-main\.cpuprofile$/)
    const written = JSON.parse(fs.readFileSync(path.join(outDir, kept.cpuProfiles[0].file), 'utf8'))
    assert.deepEqual(written.samples, handMade().samples)
    assert.deepEqual(written.nodes.map((n) => n.callFrame.url), ['', 'main.js', '@acme/busy/index.js', 'node:fs', '', '', '', ''])
    assert.deepEqual([kept.cpuProfiles[1].file, kept.cpuProfiles[1].note], [null, 'not profiled: the worker named a file outside its run directory'])
    assert.equal(kept.profileSummary.threads, 1)
    assert.equal(fileNamePart('.hidden/../x y'), 'hidden-..-x-y')
    const target = path.join(outDir, 'taken.cpuprofile')
    fs.symlinkSync(elsewhere, target)
    assert.equal(writeNewFile(target, '{}'), false)
    assert.equal(fs.readFileSync(elsewhere, 'utf8'), JSON.stringify(handMade()))
    assert.deepEqual(fs.readdirSync(outDir).filter((f) => f.endsWith('.tmp')), [])
  })

  it('--force removes the profiles of the results file it replaces, and only those', () => {
    const dir = tmpDir()
    const folder = profileFolder(path.join(dir, 'r.json'))
    assert.equal(folder, path.join(dir, 'r.profiles'))
    fs.mkdirSync(folder)
    fs.writeFileSync(path.join(folder, 'old.w0-main.cpuprofile'), '{}')
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'mine')
    fs.writeFileSync(path.join(dir, 'other.w0-main.cpuprofile'), '{}')
    removeProfiles(path.join(dir, 'r.json'))
    assert.deepEqual(fs.readdirSync(folder), ['notes.txt'])
    assert.deepEqual(fs.readdirSync(dir).sort(), ['other.w0-main.cpuprofile', 'r.profiles'])
    fs.rmSync(path.join(folder, 'notes.txt'))
    fs.writeFileSync(path.join(folder, 'old.w0-main.cpuprofile'), '{}')
    removeProfiles(path.join(dir, 'r.json'))
    assert.deepEqual(fs.readdirSync(dir), ['other.w0-main.cpuprofile'])
  })
})

// A profiled run's record with its summary: packages and functions as [name, selfMs], over 1,000 events.
function profiledRun (lib, run, packages, functions = []) {
  const sampledMs = packages.reduce((sum, [, ms]) => sum + ms, 0)
  const item = ([name, selfMs]) => ({ name, selfMs, share: selfMs / sampledMs, usPerEvent: selfMs })
  return syntheticRun({
    lib,
    run,
    doneMs: 100,
    profile: true,
    profileSummary: {
      samples: 1,
      sampledMs,
      threads: 1,
      packages: packages.map(item),
      functions: functions.map(([name, selfMs]) => ({ ...item([name, selfMs]), file: `file:///x/node_modules/${lib}/index.js`, line: 3, package: lib }))
    }
  })
}

describe('compare --profile-diff', () => {
  const doc = syntheticResults([
    profiledRun('pino', 1, [['pino', 2], ['(idle)', 2]]),
    profiledRun('pino', 2, [['pino', 2], ['(idle)', 2]]),
    profiledRun('winston', 1, [['logform', 4], ['winston', 1], ['(idle)', 1]], [['format', 4]]),
    profiledRun('winston', 2, [['logform', 2], ['winston', 1], ['(idle)', 1]], [['format', 2]]),
    // Not profiled: another cell, never set beside a profiled one.
    syntheticRun({ lib: 'winston', run: 1, doneMs: 50 })
  ])

  it('merges a cell\'s runs and puts the largest difference in µs per event first', () => {
    const winston = mergeSummaries(doc.runs.filter((r) => r.lib === 'winston' && r.profile))
    assert.deepEqual(winston.packages.map((p) => [p.name, p.usPerEvent, p.share]), [['logform', 3, 0.6], ['winston', 1, 0.2], ['(idle)', 1, 0.2]])
    const diff = profileDiff(mergeSummaries(doc.runs.filter((r) => r.lib === 'pino')), winston)
    // (idle) is never a package's extra (or saved) work: apart.
    assert.deepEqual(diff.packages.map((p) => [p.name, p.differenceUs]), [['logform', 3], ['pino', -2], ['winston', 1]])
    assert.deepEqual(diff.apart.map((p) => [p.name, p.differenceUs]), [['(idle)', -1]])
    assert.equal(diff.packages[0].base, null)
    assert.deepEqual(diff.functions.map((f) => [f.name, f.package, f.line, f.base, f.other.usPerEvent]), [['format', 'winston', 3, null, 3]])
  })

  it('prints each profiled library against the baseline\'s profiled cell', async () => {
    const dir = tmpDir()
    const file = path.join(dir, 'profiled.json')
    fs.writeFileSync(file, JSON.stringify(doc))
    const result = await runCli(['compare', file, '--baseline', 'pino', '--profile-diff'])
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /^file, 1 worker, 1,000 events, 13 B: winston against pino \(profiled; 2 and 2 runs merged\)$/m)
    assert.match(result.stdout, /^ {2}winston: logform 60\.0% \(3\.00 µs\/event\), pino: —$/m)
    assert.match(result.stdout, /^\| logform +\| +60\.0% \(3\.00 µs\/event\) \| +— \| +\+3\.00 \|$/m)
    assert.match(result.stdout, /^\| pino +\| +— \| +50\.0% \(2\.00 µs\/event\) \| +−2\.00 \|$/m)
    const json = await runCli(['compare', file, '--baseline', 'pino', '--profile-diff', '--json'])
    assert.equal(JSON.parse(json.stdout).pairs[0].packages[0].name, 'logform')
  })

  it('refuses what it cannot set side by side: one line, exit 2', async () => {
    const dir = tmpDir()
    const plain = path.join(dir, 'plain.json')
    fs.writeFileSync(plain, JSON.stringify(syntheticResults([syntheticRun({ lib: 'pino', run: 1, doneMs: 10 }), syntheticRun({ lib: 'winston', run: 1, doneMs: 10 })])))
    for (const [args, expected] of [
      [[plain, '--baseline', 'pino', '--profile-diff'], /--profile-diff: nothing to set side by side: no profiled cells \(run --profile records them\)/],
      [[plain, '--profile-diff'], /compare --profile-diff needs two results files/],
      [[plain, '--baseline', 'pino', '--profile-diff', '--markdown'], /--profile-diff shows where the time went, with no verdict: not with --markdown/]
    ]) {
      const result = await runCli(['compare', ...args])
      assert.equal(result.code, 2, result.stderr)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.match(result.stderr, expected)
    }
  })
})

describe('the flame graph', () => {
  it('merges the call tree flat, leaves out what is too small to draw, and nests it again', () => {
    const tree = profileTree([handMade(), handMade()], { minShare: 0.15 })
    assert.deepEqual(tree.nodes.map((n) => [n.name, n.totalUs, n.selfUs, n.parent]), [
      ['(root)', 2000, 0, -1],
      ['main', 1600, 0, 0],
      ['spendHere', 1000, 1000, 1],
      ['writeSync', 600, 200, 1],
      // writeString's own native child (10% of the time) is below 15%: left out, its time in writeString's total.
      // And so are the collector and idle (10% each).
      ['writeString', 400, 200, 3]
    ])
    assert.equal(tree.nodes[4].package, 'node:fs')
    const nested = nestedTree(tree)
    assert.deepEqual(nested.children.map((c) => c.name), ['main'])
    assert.deepEqual(nested.children[0].children.map((c) => c.name), ['spendHere', 'writeSync'])
  })

  it('draws each frame as wide as its time, with its figures on hover and every name escaped', () => {
    const tree = profileTree([handMade()])
    tree.nodes[2].name = '<script>alert(1)</script>\u0007'
    const svg = flameGraphSvg(tree, { width: 1000, id: 'flame-1' })
    assert.match(svg, /^<svg class="plot flame" id="flame-1" viewBox="0 0 1000 90"/)
    // spendHere's place (half the time: 500 of 1000 px), its name escaped and its bell made visible.
    assert.match(svg, /<rect x="0\.0" y="36" width="499\.5" height="17" fill="hsl\(\d+, 62%, 70%\)"><title>&lt;script&gt;alert\(1\)&lt;\/script&gt;\\x07 @acme\/busy\/index\.js:10\n@acme\/busy\n0\.5 ms in all \(50\.0%\), 0\.5 ms itself<\/title><\/rect><text/)
    assert.doesNotMatch(svg, /<script>|href=|url\(/)
  })

  it('draws a differential graph against a reference: red where a frame takes more per event, white where the same', () => {
    const tree = profileTree([handMade()])
    // The reference spent the same time, but its spendHere is another function: every frame matches
    // but spendHere (only this run has it, 50 µs per event) and its caller's total is the same.
    const reference = profileTree([handMade()])
    reference.nodes.find((n) => n.name === 'spendHere').name = 'elsewhere'
    const svg = flameGraphSvg(tree, { width: 1000, id: 'flame-1-diff', against: { tree: reference, events: 10, referenceEvents: 10, name: 'base' } })
    assert.match(svg, /^<svg class="plot flame flame-diff" id="flame-1-diff" [^>]*aria-label="differential flame graph"/)
    const rect = (name) => svg.match(new RegExp(`<rect [^>]*fill="([^"]+)"><title>${name}[^<]*</title>`))
    assert.equal(rect('spendHere')[1], 'hsl(0, 80%, 57%)')
    assert.match(rect('spendHere')[0], /50\.0 µs per event here, 0\.00 in base \(\+50\.0\)<\/title>/)
    assert.equal(rect('main')[1], 'hsl(0, 0%, 97%)')
    // Per event: the same tree over twice the events is half as much per event, so every frame is blue.
    const halved = flameGraphSvg(tree, { against: { tree: profileTree([handMade()]), events: 20, referenceEvents: 10, name: 'base' } })
    assert.match(halved, /<rect [^>]*fill="hsl\(215, 80%, 57%\)"><title>main /)
    assert.doesNotMatch(halved, /fill="hsl\(0, 80%/)
  })

  it('is on the HTML page of a profiled cell, with the tables on every page', async () => {
    const dir = tmpDir()
    const file = path.join(dir, 'profiled.json')
    const run = profiledRun('spend-here', 1, [['adapter', 9], ['(idle)', 1]], [['spendHere', 9]])
    const raw = profiledRun('raw', 1, [['node:fs', 1], ['(idle)', 1]])
    const withTree = (r) => ({ ...r, profileTree: profileTree([handMade()]) })
    fs.writeFileSync(file, JSON.stringify(syntheticResults([withTree(run), withTree(raw)])))
    const html = await runCli(['report', file, '--format', 'html', '--out', path.join(dir, 'page.html')])
    assert.equal(html.code, 0, html.stderr)
    const page = fs.readFileSync(path.join(dir, 'page.html'), 'utf8')
    assert.match(page, /<h2 id="[^"]+">Where the time went \(profiled runs\)<\/h2>/)
    assert.match(page, /<figure class="chart flame-graph"><figcaption><span class="chart-title">spend-here: file, 1 worker, 1,000 events: run 1&#39;s call tree/)
    assert.match(page, /<svg class="plot flame" id="flame-1"[^>]*>.*>spendHere</s)
    // Beside it, the differential graph against raw, the reference of its comparison.
    assert.match(page, /<figure class="chart flame-graph flame-diff"><figcaption><span class="chart-title">spend-here: file, 1 worker, 1,000 events: run 1&#39;s call tree against raw&#39;s run 1, red where it spends more per event/)
    assert.match(page, /<svg class="plot flame flame-diff" id="flame-1-diff"/)
    // With detail pages (report --pages), each comparison's profiles are a page of their own.
    fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [{ out: 'site/README.md', results: ['profiled.json'], images: 'site/images', details: 'site/details' }] }))
    const pages = await runCli(['report', '--pages', 'pages.json'], { cwd: dir })
    assert.equal(pages.code, 0, pages.stderr)
    const detail = fs.readFileSync(path.join(dir, 'site', 'details', 'profiles-file-profiled.md'), 'utf8')
    assert.match(detail, /^# log-bench results: Filesystem, profiled \(times under the CPU profiler\): where the time went$/m)
    assert.match(detail, /^#### spend-here: file, 1 worker, 1,000 events$/m)
    assert.match(fs.readFileSync(path.join(dir, 'site', 'README.md'), 'utf8'), /^- \[Filesystem, profiled \(times under the CPU profiler\): where the time went\]\(details\/profiles-file-profiled\.md\)$/m)
    const terminal = await runCli(['report', file, '--format', 'terminal'])
    assert.match(terminal.stdout, /Flame graph of the first run \(and a differential one against raw\): on the HTML page/)
    assert.match(terminal.stdout, /^\| adapter +\| +90\.0% \| +9\.00 \|$/m)
    // Set beside raw, the plainest code for the transport, largest difference first; (idle) apart.
    assert.match(terminal.stdout, /^\| Package \(owner\) +\| +spend-here \| +raw \| Difference µs per event \|\n\|[-|]+\|\n\| adapter +\| 90\.0% \(9\.00\) \| +— \| +\+9\.00 \|$/m)
    assert.doesNotMatch(terminal.stdout, /^\| \(idle\) .*\| +[+−±][\d.]+ \|$/m)
    // The flame graph first in its cell's part, with its key, and linked from the page's top.
    assert.ok(page.indexOf('<figure class="chart flame-graph">') < page.indexOf('Package (owner)'))
    assert.match(page, /<div class="legend flame-legend"[^>]*><span class="flame-key"><svg class="swatch"[^>]*><rect [^>]*fill="hsl\(\d+, 62%, 70%\)"\/><\/svg>@acme\/busy 50\.0%<\/span>/)
    assert.ok(page.indexOf('<a href="#flame-1">') < page.indexOf('<h2'), 'linked before the first section')
  })
})
