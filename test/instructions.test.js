import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { runCli, leftovers, readJson, tmpDir } from './helpers.js'
import { COUNTED_NODE_FLAGS, COUNTED_SERVER_NODE_FLAGS, countingRuntime, instructionsMethod, onPath, readCompilerCount, readCount } from '../src/engine/instructions.js'
import { compareWithBaseline } from '../src/report/compare.js'
import { cellKey } from '../src/results/model.js'
import { UsageError } from '../src/errors.js'

const valgrindSkip = onPath('valgrind') ? false : 'valgrind is not installed (apt-get install valgrind)'

test('run --measure instructions: a small counted run records instructions per event, the method and syscalls, and no times', { skip: valgrindSkip, timeout: 300_000 }, async () => {
  const dir = tmpDir()
  const out = path.join(dir, 'counted.json')
  const { code, stderr, stdout, tag } = await runCli(['run', '--lib', 'pino', '--transport', 'file', '--events', '300', '--runs', '1', '--measure', 'instructions', '--out', out, '--quiet'], { timeoutMs: 280_000 })
  assert.equal(code, 0, stderr)
  assert.deepEqual(leftovers(tag), [])
  const [run] = readJson(out).runs
  assert.equal(run.ok, true, run.error)
  assert.equal(run.measure, 'instructions')
  assert.equal(run.instructionsMethod, 'valgrind')
  // pino's call and its share of the writes cost thousands of instructions, not a handful.
  assert.ok(run.instructionsPerEvent > 1000 && run.instructionsPerEvent < 1e6, `instructionsPerEvent ${run.instructionsPerEvent}`)
  assert.ok(run.syscallsWritePerEvent > 0 && run.syscallsWritePerEvent <= 1, `syscallsWritePerEvent ${run.syscallsWritePerEvent}`)
  // At least the line itself is written per event: "w0 <seq>: Hello, world!" in pino's JSON.
  assert.ok(run.bytesWrittenPerEvent > 20, `bytesWrittenPerEvent ${run.bytesWrittenPerEvent}`)
  assert.equal(run.received, 300)
  for (const field of ['doneMs', 'unblockedMs', 'eventsPerSec', 'cpuUserMs']) assert.equal(run[field], null, `${field} is a time under the simulator`)
  assert.match(stdout, /instructions\/event/)
})

test('run --measure instructions without valgrind or counters: one line with the install command, exit 2, nothing written', async () => {
  const dir = tmpDir()
  const bin = path.join(dir, 'bin')
  fs.mkdirSync(bin)
  fs.symlinkSync(process.execPath, path.join(bin, 'node'))
  const out = path.join(dir, 'never.json')
  const { code, stderr } = await runCli(['run', '--lib', 'pino', '--transport', 'file', '--events', '100', '--measure', 'instructions', '--out', out], { env: { PATH: bin } })
  assert.equal(code, 2, stderr)
  assert.match(stderr, /--measure instructions needs valgrind .*apt-get install valgrind/)
  assert.equal(stderr.trim().split('\n').length, 1, stderr)
  assert.doesNotMatch(stderr, /\n\s+at /)
  assert.equal(fs.existsSync(out), false)
  assert.throws(() => instructionsMethod({ PATH: bin }), UsageError)
})

test('run --measure takes time or instructions only, and counts the tight loop (no --rate, no --burst)', async () => {
  const { code, stderr } = await runCli(['run', '--lib', 'pino', '--measure', 'cycles'])
  assert.equal(code, 2)
  assert.match(stderr, /measure.*cycles/)
  const paced = await runCli(['run', '--lib', 'pino', '--rate', '100', '--measure', 'instructions'])
  assert.equal(paced.code, 2)
  assert.match(paced.stderr, /--measure instructions counts the tight loop: leave out --rate/)
  // Bursts are refused whatever else the list holds; all (every event in one loop) is the tight loop.
  const dir = tmpDir()
  const out = path.join(dir, 'never.json')
  const bursts = await runCli(['run', '--lib', 'pino', '--burst', '10,all', '--measure', 'instructions', '--out', out])
  assert.equal(bursts.code, 2)
  assert.match(bursts.stderr, /^log-bench: --measure instructions counts the tight loop: leave out --burst \(what a logger writes between bursts depends on when its writes complete/)
  assert.equal(bursts.stderr.trim().split('\n').length, 1, bursts.stderr)
  assert.doesNotMatch(bursts.stderr, /\n\s+at /)
  assert.equal(fs.existsSync(out), false)
  const { parseRunOptions } = await import('../src/api/run.js')
  if (!valgrindSkip) assert.deepEqual((await parseRunOptions(['--lib', 'pino', '--burst', 'all', '--measure', 'instructions'])).bursts, [null])
})

test('the counters\' outputs are read, and a missing or empty one is the run\'s failure', () => {
  const dir = tmpDir()
  const cg = path.join(dir, 'cg.out')
  fs.writeFileSync(cg, 'desc: I1 cache: 32768 B\ncmd: node worker.js\nevents: Ir\nfl=x\n1 2\nsummary: 1374791339\n')
  assert.equal(readCount({ instructionsMethod: 'valgrind' }, cg), 1374791339)
  const perf = path.join(dir, 'perf.out')
  fs.writeFileSync(perf, '# started on Tue Nov 24\n\n2811466,,instructions:u,1082457,100.00,,\n')
  assert.equal(readCount({ instructionsMethod: 'perf' }, perf), 2811466)
  fs.writeFileSync(perf, '<not supported>,,instructions:u,0,100.00,,\n')
  assert.throws(() => readCount({ instructionsMethod: 'perf' }, perf), /no instruction count/)
  assert.throws(() => readCount({ instructionsMethod: 'valgrind' }, path.join(dir, 'absent')), /count was not written/)
})

test('V8\'s compilers are counted apart from cachegrind\'s per-function counts; perf cannot tell them apart', () => {
  const dir = tmpDir()
  const cg = path.join(dir, 'cg.out')
  fs.writeFileSync(cg, [
    'desc: I1 cache: 32768 B', 'cmd: node worker.js', 'events: Ir',
    'fl=???', 'fn=Builtins_LoadIC', '0 1000',
    'fl=/usr/bin/node', 'fn=v8::internal::compiler::GraphReducer::ReduceTop()', '0 300', '12 45',
    'fn=void v8::internal::maglev::Graph::Print()', '0 5',
    'fn=std::_Rb_tree_iterator<v8::internal::compiler::LiveRange*> std::_Rb_tree<v8::internal::compiler::LiveRange*>::find()', '0 7',
    'fn=v8::internal::baseline::BaselineCompiler::VisitBytecodes()', '0 11',
    'fn=v8::internal::Compiler::Compile()', '0 2000',
    'fn=v8::internal::Heap::CollectGarbage()', '0 400',
    'summary: 3768', ''
  ].join('\n'))
  // TurboFan's two lines, Maglev's, the compiler's std:: containers and Sparkplug's; not the
  // driver that decides to compile (v8::internal::Compiler), the collector nor the builtins.
  assert.equal(readCompilerCount({ instructionsMethod: 'valgrind' }, cg), 300 + 45 + 5 + 7 + 11)
  assert.equal(readCount({ instructionsMethod: 'valgrind' }, cg), 3768)
  assert.equal(readCompilerCount({ instructionsMethod: 'perf' }, cg), null)
  assert.throws(() => readCompilerCount({ instructionsMethod: 'valgrind' }, path.join(dir, 'absent')), /count was not written/)
  fs.writeFileSync(cg, 'events: Ir\nfn=v8::internal::compiler::Pipeline::Run()\n0 many\nsummary: 10\n')
  assert.throws(() => readCompilerCount({ instructionsMethod: 'valgrind' }, cg), /per-function counts are unreadable/)
})

test('a counted worker runs Node under the counter with the flags that keep the count stable', () => {
  const runtime = countingRuntime({ name: 'node', label: 'node 20', execPath: '/opt/node', execArgv: [] }, { instructionsMethod: 'valgrind', instructionsTool: '/usr/bin/valgrind' }, '/tmp/x.out')
  assert.equal(runtime.execPath, '/usr/bin/valgrind')
  assert.deepEqual(runtime.execArgv.slice(-5), ['/opt/node', '--single-threaded', '--predictable-gc-schedule', '--hash-seed=1', '--random-seed=1'])
  assert.ok(runtime.execArgv.includes('--cachegrind-out-file=/tmp/x.out'))
  assert.ok(runtime.execArgv.includes('--cache-sim=no'))
  // A counted http server collects as its allocation says, and its old generation once, at its end.
  const server = countingRuntime({ name: 'node', label: 'node 20', execPath: '/opt/node', execArgv: ['--stack-size=2000'] }, { instructionsMethod: 'valgrind', instructionsTool: '/usr/bin/valgrind' }, '/tmp/s.out', COUNTED_SERVER_NODE_FLAGS)
  assert.deepEqual(server.execArgv.slice(-9), ['/opt/node', ...COUNTED_NODE_FLAGS, '--no-incremental-marking', '--no-minor-gc-task', '--initial-old-space-size=1024', '--stack-size=2000'])
  const perf = countingRuntime(null, { instructionsMethod: 'perf', instructionsTool: '/usr/bin/perf' }, '/tmp/p.out')
  assert.deepEqual(perf.execArgv.slice(0, 8), ['stat', '-x,', '-e', 'instructions:u', '-o', '/tmp/p.out', '--', process.execPath])
})

// Counted runs of three libraries, five each: identical code within 1%, extra work beyond it.
function countedResults (perLib) {
  const runs = []
  for (const [lib, counts] of Object.entries(perLib)) {
    counts.forEach((instructionsPerEvent, i) => runs.push({
      type: 'run',
      lib,
      libVersion: '1',
      variant: 'default',
      workload: 'string',
      transport: 'file',
      sink: 'file',
      cpus: 1,
      events: 20000,
      size: 13,
      run: i + 1,
      measure: 'instructions',
      instructionsMethod: 'valgrind',
      ok: true,
      status: 'ok',
      error: null,
      sent: 20000,
      received: 20000,
      corrupt: 0,
      duplicates: 0,
      dropRate: 0,
      unblockedMs: null,
      doneMs: null,
      eventsPerSec: null,
      cpuUserMs: null,
      cpuSystemMs: null,
      maxRssBytes: null,
      instructionsPerEvent,
      syscallsWritePerEvent: 0.07,
      syscallsReadPerEvent: 0,
      bytesWrittenPerEvent: 90
    }))
  }
  return { runs }
}

test('compare reads instructionsPerEvent with its own 1% threshold: an A/A same, 4% more slower', () => {
  const dataset = countedResults({
    pino: [30000, 30040, 29980, 30010, 30025],
    twin: [30030, 29990, 30015, 30050, 29970],
    hash: [31200, 31260, 31180, 31230, 31210]
  })
  const result = compareWithBaseline(dataset, 'pino', { noise: 0.10 })
  const rows = result.comparisons.filter((r) => r.measure === 'instructionsPerEvent')
  assert.equal(rows.length, 2)
  const twin = rows.find((r) => r.cell.includes('twin'))
  const hash = rows.find((r) => r.cell.includes('hash'))
  // --noise 0.10 is for times: the counts keep their 1%.
  assert.equal(twin.noise, 0.01)
  assert.equal(twin.verdict, 'same')
  assert.equal(hash.verdict, 'slower')
  assert.ok(hash.ratio > 1.03 && hash.ratio < 1.05, `ratio ${hash.ratio}`)
  // Times under the simulator are not compared: none were recorded.
  assert.equal(result.comparisons.filter((r) => r.measure === 'doneMs' && r.verdict != null).length, 0)
})

test('a counted cell is never the timed cell of the same library (nor another counter\'s)', () => {
  const timed = { type: 'run', lib: 'pino', libVersion: '1', transport: 'file', cpus: 1, events: 1000, size: 13 }
  const counted = { ...timed, measure: 'instructions', instructionsMethod: 'valgrind' }
  assert.notEqual(cellKey(timed), cellKey(counted))
  assert.notEqual(cellKey(counted), cellKey({ ...counted, instructionsMethod: 'perf' }))
  assert.equal(cellKey(timed), cellKey({ ...timed, measure: 'time' }))
})

test('http --measure instructions needs --rate: one line, exit 2, before anything runs', async () => {
  const dir = tmpDir()
  const out = path.join(dir, 'never.json')
  const { code, stderr } = await runCli(['http', '--lib', 'none,pino', '--measure', 'instructions', '--out', out])
  assert.equal(code, 2, stderr)
  assert.match(stderr, /--measure instructions needs --rate/)
  assert.equal(stderr.trim().split('\n').length, 1, stderr)
  assert.equal(fs.existsSync(out), false)
  const rate = await runCli(['http', '--lib', 'none', '--rate', 'fast', '--out', out])
  assert.equal(rate.code, 2)
  assert.match(rate.stderr, /rate/)
})

test('http --measure instructions sends one request at a time unless --connections says otherwise; a timed load keeps 10', { skip: valgrindSkip }, async () => {
  const { parseHttpOptions } = await import('../src/api/http.js')
  const counted = await parseHttpOptions({ lib: 'none', rate: '100', measure: 'instructions' })
  assert.equal(counted.load.connections, 1)
  const asked = await parseHttpOptions({ lib: 'none', rate: '100', measure: 'instructions', connections: '4' })
  assert.equal(asked.load.connections, 4)
  const timed = await parseHttpOptions({ lib: 'none', rate: '100' })
  assert.equal(timed.load.connections, 10)
})

test('At a glance names the fewest instructions per event for counted cells, with those not separated from it, and says they were not timed', async () => {
  const { glanceSection } = await import('../src/report/run/glance.js')
  const { summarize } = await import('../src/results/model.js')
  const { runs } = countedResults({
    pino: [30000, 30040, 29980, 30010, 30025],
    twin: [30030, 29990, 30015, 30050, 29970],
    hash: [31200, 31260, 31180, 31230, 31210]
  })
  const { blocks } = glanceSection.render({ runs, summary: summarize(runs) })
  const table = blocks.find((b) => b.columns)
  assert.ok(table.columns.some((c) => c.title === 'Fewest instructions per event'))
  const text = JSON.stringify(table.rows)
  assert.match(text, /("pino 30,010","not separated from pino: twin 30,015|"twin 30,015","not separated from twin: pino 30,010) \(1\.00×, 5 \+ 5 runs, unpaired\)"/)
  assert.doesNotMatch(text, /\btie\b/)
  assert.doesNotMatch(text, /hash/)
  assert.match(text, /a counted run takes no times/)
})

test('http --measure instructions: a small counted run records instructions per request with V8\'s compilers counted apart, and no times', { skip: valgrindSkip, timeout: 300_000 }, async () => {
  const dir = tmpDir()
  const out = path.join(dir, 'counted-http.json')
  const { code, stderr, stdout, tag } = await runCli(['http', '--lib', 'none', '--logs-per-request', '0', '--rate', '50', '--duration', '1', '--warmup', '0', '--runs', '1', '--measure', 'instructions', '--out', out, '--quiet'], { timeoutMs: 280_000 })
  assert.equal(code, 0, stderr)
  assert.deepEqual(leftovers(tag), [])
  const [run] = readJson(out).runs
  assert.equal(run.ok, true, run.error)
  assert.equal(run.measure, 'instructions')
  assert.equal(run.instructionsMethod, 'valgrind')
  // 50 more requests in the second run, each answered by the server (it counts them itself).
  assert.equal(run.countedRequests, 50)
  // An express request costs hundreds of thousands of instructions, not a handful nor billions.
  assert.ok(run.instructionsPerRequest > 1e5 && run.instructionsPerRequest < 1e8, `instructionsPerRequest ${run.instructionsPerRequest}`)
  // A server this young is still compiling: V8's compilers ran in the window, and were taken out.
  assert.ok(run.compilerInstructionsPerRequest > 0 && run.compilerInstructionsPerRequest < 1e8, `compilerInstructionsPerRequest ${run.compilerInstructionsPerRequest}`)
  for (const field of ['reqPerSec', 'latencyMs', 'serverCpuUsPerRequest', 'eventLoopDelayNs']) assert.equal(run[field], null, `${field} is a time under the simulator`)
  assert.equal('instructions' in run, false)
  assert.equal('compilerInstructions' in run, false)
  assert.match(stdout, /V8 compilers\/request/)
})
