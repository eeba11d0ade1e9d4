import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { loadImage, createCanvas } from '@napi-rs/canvas'
import { ROOT, runCli, tmpDir } from './helpers.js'
import { UsageError } from '../src/errors.js'
import { loadResults } from '../src/results/read.js'
import { renderPage } from '../src/report/markdown.js'
import { runSection } from '../src/report/run/section.js'
import { SECTIONS } from '../src/report/sections.js'
import { toCsv } from '../src/report/csv.js'
import { EXPORTERS } from '../src/report/exporters.js'
import { FORMATS } from '../src/report/formats.js'

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'report')
const RESULTS = path.join(FIXTURES, 'results.json')
const GOLDEN = path.join(FIXTURES, 'golden.md')

test('every --format has its exporter, in the order --help lists them', () => {
  assert.deepEqual(EXPORTERS.map((e) => e.name), FORMATS)
})

const EXPECTED_CHARTS = [
  'summary-RESULTS.png',
  'file/benchmarks.png',
  'file/1cpu/log4js.png', 'file/2cpu/log4js.png',
  'file/1cpu/winston.png', 'file/2cpu/winston.png',
  'file/2cpu/pino.png',
  'udp/benchmarks.png', 'udp/drop-rate.png', 'udp/1cpu/winston.png',
  'tcp/benchmarks.png', 'tcp/1cpu/pino.png'
]

function fixturePage (sections = [runSection]) {
  const dataset = loadResults([RESULTS])
  dataset.files = ['results.json']
  return renderPage(dataset, { imageLink: (file) => `images/${file}`, sections })
}

test('the markdown page matches the golden file (failed, partial, unsupported and uncounted cells included)', () => {
  const { markdown } = fixturePage()
  if (process.env.UPDATE_GOLDEN) fs.writeFileSync(GOLDEN, markdown)
  assert.equal(markdown, fs.readFileSync(GOLDEN, 'utf8'))
})

test('empty cells say why, drop rates are unknown rather than 0% where nothing was counted', () => {
  const { markdown } = fixturePage()
  assert.match(markdown, /\| Test 1 +\| +410 \| +820 \| +0\.00% \| +650 \| failed: out of memory \| +failed \|/)
  assert.match(markdown, /\*\*failed: out of memory\*\*/)
  assert.match(markdown, /failed: timed out/)
  assert.match(markdown, /\*\*175\*\* \(2 of 3 runs\)/)
  assert.match(markdown, /_unsupported: pino has no udp transport/)
  const tcp = markdown.slice(markdown.indexOf('## Syslog TCP'))
  assert.match(tcp, /Drop rate unknown on Syslog TCP/)
  assert.doesNotMatch(tcp.slice(0, tcp.indexOf('_Not shown')), /0\.00%/)
  assert.match(markdown, /\| noop +\| +1 \| +3 of 3 \|.*\| +unknown \|/)
})

test('the page states machine, event count, command and date, and warns where runs disagree', () => {
  const { markdown } = fixturePage()
  assert.match(markdown, /\*\*1,000 events per worker\*\*/)
  assert.match(markdown, /Fixture CPU @ 3\.00GHz \(8 cores, 32.0 GiB memory\)/)
  assert.match(markdown, /\| Command +\| `log-bench run --lib log4js,winston,pino,noop,raw/)
  assert.match(markdown, /\| Date +\| 2026-01-15 10:00 to 10:20 UTC/)
  assert.match(markdown, /\| winston +\| 3\.19\.0/)
  assert.match(markdown, /±127 \(30% ⚠\)/)
  assert.match(markdown, /⚠ marks a figure whose runs disagree widely/)
})

test('run types without a report section are listed, never a crash; a section is one entry in the list', () => {
  const { markdown } = fixturePage()
  assert.match(markdown, /Not shown: 1 run\(s\) of type "future-kind" \(this log-bench has no report section for that type\)/)
  assert.match(fixturePage(SECTIONS).markdown, /Not shown: 1 run\(s\) of type "future-kind"/)
  const extra = { name: 'extra', types: ['future-kind'], render: () => ({ blocks: ['## Future kind'], charts: [{ file: 'future/x.png' }] }) }
  const page = fixturePage([runSection, extra])
  assert.match(page.markdown, /## Future kind/)
  assert.doesNotMatch(page.markdown, /Not shown/)
  assert.ok(page.charts.some((c) => c.file === 'future/x.png'))
  const picky = { name: 'picky', types: ['future-kind'], render: () => { throw new UsageError('future-kind run 1 is missing field "x"') } }
  assert.throws(() => fixturePage([runSection, picky]), { name: 'UsageError', message: 'results.json: future-kind run 1 is missing field "x"' })
})

test('runs of one cell from two files are pooled as Test 1..N; another machine is refused', () => {
  const dataset = loadResults([path.join(FIXTURES, 'compare-base.json'), path.join(FIXTURES, 'compare-new.json')])
  const pino = dataset.runs.filter((r) => r.lib === 'pino')
  assert.deepEqual(pino.map((r) => r.run), [1, 2, 3, 4, 5, 6])
  assert.equal(dataset.summary.find((s) => s.lib === 'pino').okRuns, 6)
  assert.throws(() => loadResults([path.join(FIXTURES, 'compare-base.json'), path.join(FIXTURES, 'other-machine.json')]),
    /compare-base\.json and .*other-machine\.json come from different environments \(cpuModel "Fixture CPU @ 3\.00GHz" vs "Other CPU @ 2\.00GHz"\)/)
})

test('CSV: one row per run with every numeric field', () => {
  const dataset = loadResults([RESULTS])
  const lines = toCsv(dataset).trimEnd().split('\n')
  assert.equal(lines.length, dataset.runs.length + 1)
  const header = lines[0].split(',')
  for (const field of ['sent', 'received', 'dropRate', 'unblockedMs', 'doneMs', 'eventsPerSec', 'mbPerSec', 'cpuUserMs', 'cpuSystemMs', 'maxRssBytes', 'maxHeapBytes', 'gcCount', 'gcPauseMs', 'widgetsPerSec']) {
    assert.ok(header.includes(field), `CSV has a ${field} column`)
  }
  const first = Object.fromEntries(header.map((h, i) => [h, lines[1].split(',')[i]]))
  assert.equal(first.lib, 'log4js')
  assert.equal(first.doneMs, '820')
  assert.equal(first.dropRate, '0')
  const failed = lines.find((l) => l.includes('ran out of memory'))
  assert.match(failed, /,false,failed,worker 1 ran out of memory \(JavaScript heap limit reached\),2000,,/)
})

test('CSV: text a spreadsheet would run as a formula stays text; numbers, negative ones too, stay numbers', async () => {
  const { csvTable } = await import('../src/draw/table.js')
  const csv = csvTable({ columns: [{ title: 'lib' }, { title: 'error' }, { title: 'ratio' }], rows: [['=HYPERLINK("http://x","y")', '@SUM(A1)', -0.5], ['+1', '-2', 3]] })
  const [, first, second] = csv.trimEnd().split('\n')
  assert.equal(first, '"\'=HYPERLINK(""http://x"",""y"")",\'@SUM(A1),-0.5')
  assert.equal(second, "'+1,'-2,3")
})

async function pngInfo (file) {
  const bytes = fs.readFileSync(file)
  assert.equal(bytes.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', `${file} is a PNG`)
  const width = bytes.readUInt32BE(16)
  const height = bytes.readUInt32BE(20)
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext('2d')
  ctx.drawImage(await loadImage(bytes), 0, 0)
  const { data } = ctx.getImageData(0, 0, width, height)
  let inked = 0
  const colours = new Set()
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] < 240 || data[i + 1] < 240 || data[i + 2] < 240) inked++
    if (i % 40 === 0) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2])
  }
  return {
    width,
    height,
    inkedShare: inked / (width * height),
    colours: colours.size,
    corner: [...data.subarray(0, 3)]
  }
}

test('log-bench report writes the page, every linked chart as a non-blank PNG, and the CSV', async () => {
  const dir = tmpDir('lb-report-')
  try {
    const out = path.join(dir, 'docs', 'RESULTS.md')
    const images = path.join(dir, 'docs', 'images')
    const { code, stdout, stderr } = await runCli(['report', RESULTS, '--out', out, '--images', images, '--format', 'md,csv'])
    assert.equal(code, 0, stderr)
    assert.match(stdout, /wrote .*RESULTS\.md, .*RESULTS\.csv, .*RESULTS-summary\.csv and 12 charts/)
    const markdown = fs.readFileSync(out, 'utf8')
    const linked = [...markdown.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1])
    assert.deepEqual(linked.map((l) => l.replace(/^images\//, '')).sort(), [...EXPECTED_CHARTS].sort())
    for (const chart of EXPECTED_CHARTS) {
      const file = path.join(images, chart)
      assert.ok(fs.existsSync(file), `${chart} exists`)
      const info = await pngInfo(file)
      assert.ok(info.width >= 900 && info.height >= 450, `${chart} is ${info.width}×${info.height}`)
      assert.deepEqual(info.corner, [255, 255, 255], `${chart} has a white background`)
      assert.ok(info.inkedShare > 0.02, `${chart} has content (${(info.inkedShare * 100).toFixed(1)}% inked)`)
      assert.ok(info.colours > 5, `${chart} has more than a few colours (${info.colours})`)
    }
    assert.equal(fs.readFileSync(path.join(dir, 'docs', 'RESULTS.csv'), 'utf8').split('\n')[0].split(',')[0], 'file')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

const BAD_INPUTS = [
  ['not-json.json', /not-json\.json: not valid JSON \(it ends too early\)/],
  ['schema-2.json', /schema-2\.json: results schema version 2; this log-bench reads version 1/],
  ['missing-field.json', /missing-field\.json: runs\[1\] \(pino file 1 worker run 2\) is missing field "doneMs"/],
  ['no-such-file.json', /no-such-file\.json: cannot read it \(no such file\)/]
]

for (const [name, message] of BAD_INPUTS) {
  test(`report of a bad results file (${name}): exit 2, one line naming the file, nothing written`, async () => {
    const dir = tmpDir('lb-report-bad-')
    try {
      const { code, stdout, stderr } = await runCli(['report', path.join(FIXTURES, name), '--out', path.join(dir, 'README.md'), '--images', path.join(dir, 'images')])
      assert.equal(code, 2)
      assert.equal(stdout, '')
      assert.match(stderr, message)
      assert.equal(stderr.trimEnd().split('\n').length, 1)
      assert.deepEqual(fs.readdirSync(dir), [])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
}

test('report refuses two machines in one page and an unknown format, with exit 2', async () => {
  const dir = tmpDir('lb-report-bad-')
  try {
    const mixed = await runCli(['report', path.join(FIXTURES, 'compare-base.json'), path.join(FIXTURES, 'other-machine.json'), '--out', path.join(dir, 'README.md')])
    assert.equal(mixed.code, 2)
    assert.match(mixed.stderr, /come from different environments .* never averaged together/)
    const format = await runCli(['report', RESULTS, '--format', 'md,pdf', '--out', path.join(dir, 'README.md')])
    assert.equal(format.code, 2)
    assert.match(format.stderr, /unknown format "pdf": use one of md, html, csv, terminal/)
    assert.deepEqual(fs.readdirSync(dir), [])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('the report says how much of a UDP loss was the receiving socket\'s full buffer', async () => {
  const { lossAtReceiver } = await import('../src/report/run/section.js')
  const run = (sent, received, receiverSocketDrops, ok = true) => ({ ok, sent, received, receiverSocketDrops })
  assert.equal(lossAtReceiver([run(100, 100, 0)]), null, 'nothing lost: nothing to say')
  assert.equal(lossAtReceiver([run(100, 90, null)]), null, 'not a UDP receiver: unknown, nothing said')
  assert.match(lossAtReceiver([run(1000, 900, 25), run(1000, 950, 0), run(1000, 0, 999, false)]),
    /of 150 events lost in these runs, the receiving socket's full buffer dropped 25 \(16\.7%/)
})

test('failure labels come from the recorded kind, and from the words only in records written before it', async () => {
  const { failureReason } = await import('../src/draw/labels.js')
  const failed = (failure, error) => ({ status: 'failed', error, ...(failure ? { failure } : {}) })
  // A sentence that mentions a time-out is not a time limit when its kind says otherwise.
  assert.equal(failureReason(failed({ kind: 'error' }, 'worker 0 failed while closing the logger: request timed out')), 'failed')
  assert.equal(failureReason(failed({ kind: 'timeout', limitS: 5 }, 'anything')), 'failed: timed out')
  assert.equal(failureReason(failed({ kind: 'killed', signal: 'SIGKILL' }, 'anything')), 'failed: killed')
  assert.equal(failureReason({ status: 'skipped', error: 'anything', failure: { kind: 'timeout', limitS: 5, afterRun: 2 } }), 'skipped: run 2 timed out')
  // Older records: the words.
  assert.equal(failureReason(failed(null, 'worker 0 ran out of memory (JavaScript heap limit reached)')), 'failed: out of memory')
  assert.equal(failureReason(failed(null, 'timed out after 600 s while logging')), 'failed: timed out')
  assert.equal(failureReason(failed(null, 'worker 1 crashed with exit code 3')), 'failed: worker crashed')
  assert.equal(failureReason({ status: 'skipped', error: 'run 1 timed out after 300 s; --retry-timeouts runs them anyway' }), 'skipped: run 1 timed out')
})

test('Then and now at fewer events than the article: an Events column, orders only, and no "changed" for a cell that finishes at fewer events', async () => {
  const { thenAndNowSection } = await import('../src/report/run/then-and-now.js')
  const { summarize } = await import('../src/results/model.js')
  const { syntheticRun } = await import('./helpers.js')
  const runs = []
  for (let run = 1; run <= 5; run++) {
    runs.push(syntheticRun({ lib: 'pino', run, doneMs: 100 + run, events: 200000, cores: 1 }))
    runs.push(syntheticRun({ lib: 'winston', run, doneMs: 300 + run, events: 200000, cores: 1 }))
    runs.push(syntheticRun({ lib: 'bunyan', run, doneMs: 200 + run, events: 200000, cores: 1 }))
  }
  const reference = {
    source: { title: 'An article', publisher: 'P', year: 2019, code: 'c' },
    hardware: { cpu: 'x', cores: 4, threads: 8, memory: '32 GB', node: '8' },
    events: 1000000,
    file: 'ref.json',
    cells: [
      { transport: 'file', lib: 'pino', cpus: 1, doneMs: 5000 },
      { transport: 'file', lib: 'winston', cpus: 1, doneMs: 9000 },
      { transport: 'file', lib: 'bunyan', cpus: 1, failed: 'did not finish' }
    ]
  }
  const dataset = { env: { cpuModel: 'AMD EPYC', cpuCount: 2, node: 'v20' }, runs, summary: summarize(runs) }
  const { blocks } = thenAndNowSection.render(dataset, { reference })
  const text = JSON.stringify(blocks)
  assert.match(text, /these results log 200,000 \(the \*\*Events\*\* column\)/)
  const table = blocks.find((b) => b.columns && b.rows.length === 3)
  assert.ok(table.columns.some((c) => (c.title ?? c) === 'Events' || JSON.stringify(c).includes('"Events"')), 'an Events column')
  assert.match(JSON.stringify(table.rows[0]), /200,000/)
  assert.match(JSON.stringify(table.rows[0]), /"103"/, 'pino has its median done at 200,000 events')
  assert.match(text, /pino < winston/)
  assert.match(text, /bunyan: finishes now at 200,000 events \(5 of 5 runs\)","not comparable \(fewer events\)"/)
  assert.doesNotMatch(text, /"changed"/)
})

test('Which findings hold, pair by pair from the article\'s runs: holds, reversed, lead gone with both magnitudes, and no finding where the article\'s runs overlapped', async () => {
  const { thenAndNowSection } = await import('../src/report/run/then-and-now.js')
  const { summarize } = await import('../src/results/model.js')
  const { syntheticRun } = await import('./helpers.js')
  // Then winston led pino in every run (5,000 against 9,000 ms on average, 1.80×).
  const separated = [{ transport: 'file', lib: 'winston', cpus: 1, doneMs: 5000, runs: { doneMs: [4900, 5000, 5100] } }, { transport: 'file', lib: 'pino', cpus: 1, doneMs: 9000, runs: { doneMs: [8900, 9000, 9100] } }]
  const overlapping = [{ transport: 'file', lib: 'winston', cpus: 1, doneMs: 5000, runs: { doneMs: [4000, 5000, 6000] } }, { transport: 'file', lib: 'pino', cpus: 1, doneMs: 5500, runs: { doneMs: [5500, 4500, 6500] } }]
  const finding = (cells, pinoDone, winstonDone) => {
    const reference = {
      source: { title: 'An article', publisher: 'P', year: 2019, code: 'c' },
      hardware: { cpu: 'x', cores: 4, threads: 8, memory: '32 GB', node: '8' },
      events: 1000,
      file: 'ref.json',
      cells
    }
    const runs = []
    for (let run = 1; run <= 6; run++) {
      runs.push(syntheticRun({ lib: 'pino', run, doneMs: pinoDone[run - 1], cores: 1 }))
      runs.push(syntheticRun({ lib: 'winston', run, doneMs: winstonDone[run - 1], cores: 1 }))
    }
    const { blocks } = thenAndNowSection.render({ env: { cpuModel: 'AMD EPYC', cpuCount: 2, node: 'v20' }, runs, summary: summarize(runs) }, { reference })
    return blocks.at(-1).rows.find((r) => r[2] === 'done')[5]
  }
  const ahead = [100, 101, 102, 103, 104, 105]
  const behind = [300, 301, 302, 303, 304, 305]
  assert.match(finding(separated, behind, ahead), /^holds: winston ahead of pino: 1\.80× then, 2\.\d\d× \[[\d.]+, [\d.]+\] now \(slower, 6 \+ 6 runs, unpaired\)$/)
  assert.match(finding(separated, ahead, behind), /^reversed: pino now ahead of winston \(winston ahead of pino: 1\.80× then, 0\.\d\d× \[[\d.]+, [\d.]+\] now \(faster, 6 \+ 6 runs, unpaired\)\)$/)
  const noise = [[100, 130, 90, 125, 95, 110], [110, 92, 128, 101, 120, 99]]
  assert.match(finding(separated, ...noise), /^lead gone: winston ahead of pino: 1\.80× then, [\d.]+× \[[\d.]+, [\d.]+\] now \(not decided, 6 \+ 6 runs, unpaired\)$/)
  assert.equal(finding(overlapping, behind, ahead), 'no finding for winston and pino (the article\'s runs overlapped)')
  assert.equal(finding(separated.map(({ runs, ...cell }) => cell), behind, ahead), 'not judged for winston and pino (the reference file has not the article\'s runs)')
})

test('Then and now sets the article\'s 1 CPU beside 1 worker on 1 core and its 8 CPUs beside 1 worker on every core, says what still differs, and leaves 8 workers out', async () => {
  const { thenAndNowSection } = await import('../src/report/run/then-and-now.js')
  const { summarize } = await import('../src/results/model.js')
  const { syntheticRun } = await import('./helpers.js')
  const runs = []
  for (let run = 1; run <= 5; run++) {
    // On 1 core winston is ahead; on every core pino is; with 8 workers (not the article's) bunyan would be.
    runs.push(syntheticRun({ lib: 'pino', run, doneMs: 300 + run, cores: 1 }))
    runs.push(syntheticRun({ lib: 'winston', run, doneMs: 100 + run, cores: 1 }))
    runs.push(syntheticRun({ lib: 'pino', run, doneMs: 100 + run, cores: null }))
    runs.push(syntheticRun({ lib: 'winston', run, doneMs: 200 + run, cores: null }))
    runs.push(syntheticRun({ lib: 'pino', run, doneMs: 900 + run, cpus: 8 }))
    runs.push(syntheticRun({ lib: 'winston', run, doneMs: 900 + run, cpus: 8 }))
  }
  const reference = {
    source: { title: 'An article', publisher: 'P', year: 2019, code: 'c' },
    hardware: { cpu: 'Intel i7', cores: 4, threads: 8, memory: '32 GB', node: '8.15.1' },
    events: 1000,
    file: 'ref.json',
    cells: [
      { transport: 'file', lib: 'winston', cpus: 1, doneMs: 5000 },
      { transport: 'file', lib: 'pino', cpus: 1, doneMs: 9000 },
      { transport: 'file', lib: 'winston', cpus: 8, doneMs: 4000 },
      { transport: 'file', lib: 'pino', cpus: 8, doneMs: 3000 }
    ]
  }
  const { blocks } = thenAndNowSection.render({ env: { cpuModel: 'AMD EPYC', cpuCount: 2, node: 'v20.1.0' }, runs, summary: summarize(runs) }, { reference })
  const text = JSON.stringify(blocks)
  const table = blocks.find((b) => b.columns && b.rows.length === 4)
  const row = (lib, cpus) => table.rows.find((r) => r[1] === lib && r[2] === `${cpus} CPU${cpus === 1 ? '' : 's'}`)
  assert.equal(row('winston', 1)[3], '1 worker on 1 core')
  assert.match(JSON.stringify(row('winston', 1)), /"103"/, 'winston on 1 core: median done 103')
  assert.equal(row('pino', 8)[3], '1 worker on every core (2 here)')
  assert.match(JSON.stringify(row('pino', 8)), /"103"/, 'pino on every core, not the 8-worker cell')
  assert.doesNotMatch(text, /903/, 'the 8-worker cells are left out')
  assert.match(text, /What still differs: Node 8\.15\.1 then against v20\.1\.0 now, the machine[^.]*, and the harness \(one process then; a parent that starts, times and counts, plus one worker that logs, now\)/)
  const findings = blocks.at(-1).rows
  assert.deepEqual(findings.filter((r) => r[2] === 'done').map((r) => [r[1], r[5].split(':')[0]]), [['1 CPU / 1 worker on 1 core', 'not judged for winston and pino (the reference file has not the article\'s runs)'], ['8 CPUs / 1 worker on every core (2 here)', 'not judged for winston and pino (the reference file has not the article\'s runs)']])
})

test('an interrupted file stopped between rounds: the page says how many runs every cell has, leaves the cut run out, and names files changed from the commit (code and scenarios, not results an earlier scenario wrote)', async () => {
  const { loadDocuments } = await import('../src/results/read.js')
  const doc = JSON.parse(fs.readFileSync(RESULTS, 'utf8'))
  const kept = doc.runs.filter((r) => r.type === 'run' && ['pino', 'raw'].includes(r.lib) && r.transport === 'file')
  const cut = { ...kept[0], run: 4, ok: false, status: 'interrupted', error: 'interrupted by SIGINT' }
  const partial = {
    ...doc,
    complete: false,
    interrupted: true,
    env: { ...doc.env, command: 'log-bench run --scenario quick', gitChanges: ['scenarios/quick.json', 'results/http-cost.json', 'images/summary-README.png'] },
    runs: [...kept, cut],
    summary: []
  }
  const dataset = loadDocuments([{ file: 'partial.json', doc: partial }])
  assert.equal(dataset.runs.filter((r) => r.status === 'interrupted').length, 0, 'the run under way at the stop measured nothing')
  const { markdown } = renderPage(dataset, { imageLink: (file) => `images/${file}`, sections: [runSection], links: { json: [{ path: 'partial.json', link: 'partial.json' }] } })
  assert.match(markdown, /> - \*\*Incomplete:\*\* `partial\.json` was interrupted; every cell has its first 3 runs \(the run under way when it stopped measured nothing and is left out\)\./)
  assert.doesNotMatch(markdown, /interrupted by SIGINT/)
  assert.match(markdown, /The runs began from commit 0123456 with a file changed \(`scenarios\/quick\.json`\), so checking it out alone does not give what ran/)
  // Cells with different numbers of runs: the plain words.
  const uneven = loadDocuments([{ file: 'partial.json', doc: { ...partial, runs: [...kept.slice(1), cut] } }])
  assert.match(renderPage(uneven, { imageLink: (file) => `images/${file}`, sections: [runSection] }).markdown, /was interrupted; cells it did not reach are missing\./)
})
