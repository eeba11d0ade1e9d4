import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import path from 'node:path'
import { describe, it, mock } from 'node:test'
import { writeFileAtomic } from '../src/results/write.js'
import { openFilesLimit } from '../src/limits.js'
import { rsyslogConfig, rsyslogString } from '../src/sinks/rsyslog.js'
import { groupsOf } from '../src/report/run/section.js'
import { benchmarksChart, MAX_CHART_LIBRARIES } from '../src/report/run/charts.js'
import { summarize } from '../src/results/model.js'
import { ADAPTERS, BIN, leftovers, readJson, ROOT, runCli, snapshot, taggedPids, tmpDir, waitFor, rsyslogSkip } from './helpers.js'

// Files and processes are hostile ground: names in results files are data, planted symlinks are
// never followed, and nothing the harness starts outlives it.

const RESULTS = path.join(ROOT, 'test', 'fixtures', 'report', 'results.json')

describe('temporary files are never opened through a planted symbolic link', () => {
  it('a symlink at the temporary path makes the write fail; its target is untouched', (t) => {
    const dir = tmpDir()
    const victim = path.join(dir, 'victim.txt')
    fs.writeFileSync(victim, 'precious\n')
    const fixed = Buffer.alloc(8, 0xab)
    // Make the "unpredictable" name predictable for this test only, and plant a link there.
    mock.method(crypto, 'randomBytes', () => fixed)
    syncBuiltinESMExports()
    t.after(() => { mock.restoreAll(); syncBuiltinESMExports() })
    const target = path.join(dir, 'r.json')
    fs.symlinkSync(victim, path.join(dir, `.r.json.${fixed.toString('hex')}.tmp`))
    assert.throws(() => writeFileAtomic(target, 'attacker-controlled\n'), /cannot write .*r\.json/)
    assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n')
    assert.equal(fs.existsSync(target), false)
  })

  it('the old predictable name (.r.json.<pid>.tmp) is not used: a link planted there is ignored', () => {
    const dir = tmpDir()
    const victim = path.join(dir, 'victim.txt')
    fs.writeFileSync(victim, 'precious\n')
    fs.symlinkSync(victim, path.join(dir, `.r.json.${process.pid}.tmp`))
    writeFileAtomic(path.join(dir, 'r.json'), '{}\n')
    assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n')
    assert.equal(fs.readFileSync(path.join(dir, 'r.json'), 'utf8'), '{}\n')
  })

  it('a symlink planted at the target is replaced by the new file, never written through', () => {
    const dir = tmpDir()
    const victim = path.join(dir, 'victim.txt')
    fs.writeFileSync(victim, 'precious\n')
    const target = path.join(dir, 'r.json')
    fs.symlinkSync(victim, target)
    writeFileAtomic(target, '{}\n')
    assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n')
    assert.equal(fs.lstatSync(target).isSymbolicLink(), false)
    assert.deepEqual(fs.readdirSync(dir).sort(), ['r.json', 'victim.txt'])
  })
})

describe('names in a results file are data', () => {
  it('a transport or library named like a path stays inside --images, and "|" in a name is an escaped cell', async () => {
    const doc = JSON.parse(fs.readFileSync(RESULTS, 'utf8'))
    for (const run of doc.runs) {
      if ((run.type ?? 'run') !== 'run') continue
      // Each transport keeps a name of its own: runs of two cells made one would be one run twice.
      run.transport = `../../escaped-${run.transport}`
      if (run.lib === 'pino') run.lib = '../../../pi|no\nx'
    }
    for (const entry of doc.summary) entry.transport = `../../escaped-${entry.transport}`
    const base = tmpDir()
    const work = path.join(base, 'a', 'b')
    fs.mkdirSync(work, { recursive: true })
    const file = path.join(work, 'hostile.json')
    fs.writeFileSync(file, JSON.stringify(doc))
    const images = path.join(work, 'images')
    const result = await runCli(['report', file, '--out', path.join(work, 'page.md'), '--images', images], { cwd: work })
    assert.equal(result.code, 0, result.stderr)
    const outside = []
    const walk = (dir) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name)
        if (entry.isDirectory()) walk(full)
        else if (!full.startsWith(images + path.sep) && full !== file && full !== path.join(work, 'page.md')) outside.push(full)
      }
    }
    walk(base)
    assert.deepEqual(outside, [])
    const page = fs.readFileSync(path.join(work, 'page.md'), 'utf8')
    assert.match(page, /\| \.\.\/\.\.\/\.\.\/pi\\\|no x +\|/)
    assert.doesNotMatch(page, /pi\|no/)
  })
})

// Kills the primary with SIGKILL once a process matching `pattern` runs; then no process it
// started may remain, and (where the primary cannot clean up itself) nothing in its TMPDIR.
async function killPrimaryDuring (args, pattern, { tmpEmpty = false } = {}) {
  const tmp = tmpDir('lb-kill-')
  let primary
  let tag
  const pending = runCli([...args, '--out', path.join(tmpDir(), 'r.json')], { env: { TMPDIR: tmp }, onSpawn: (child, t) => { primary = child; tag = t } })
  await waitFor(() => tag && taggedPids(tag, pattern).length)
  primary.kill('SIGKILL')
  const result = await pending
  assert.equal(result.signal, 'SIGKILL')
  await waitFor(() => leftovers(tag).length === 0 && (!tmpEmpty || fs.readdirSync(tmp).length === 0)).catch(() => {})
  assert.deepEqual(leftovers(tag), [])
  if (tmpEmpty) assert.deepEqual(fs.readdirSync(tmp), [])
  return tmp
}

describe('everything the harness starts ends when the primary is killed with SIGKILL', () => {
  it('rsyslogd and its directory', { skip: rsyslogSkip }, async () => {
    await killPrimaryDuring(['run', '--lib', path.join(ADAPTERS, 'trickle.js'), '--transport', 'tcp', '--syslog', 'rsyslog', '--events', '5000', '--runs', '1'], /rsyslogd -n /, { tmpEmpty: true })
  })

  it('the embedded sink and the workers; the next run removes the run directory left behind', async () => {
    const tmp = await killPrimaryDuring(['run', '--lib', path.join(ADAPTERS, 'trickle.js'), '--transport', 'udp', '--events', '5000', '--runs', '1'], /src\/run\/worker\.js/)
    assert.deepEqual(fs.readdirSync(tmp).filter((n) => n.startsWith('log-bench-')).length, 1)
    const next = await runCli(['run', '--lib', 'noop', '--transport', 'file', '--events', '10', '--runs', '1', '--quiet', '--out', path.join(tmpDir(), 'r.json')], { env: { TMPDIR: tmp } })
    assert.equal(next.code, 0, next.stderr)
    assert.match(next.stderr, /removed 1 run directory \(.+\) left in .+ by a log-bench that was killed/)
    assert.deepEqual(fs.readdirSync(tmp), [])
  })

  it('the http servers and the autocannon load process', async () => {
    await killPrimaryDuring(['http', '--lib', 'none', '--logs-per-request', '1', '--duration', '30', '--warmup', '0'], /load-driver\.js/)
  })
})

describe('processes an adapter leaves running are ended after the run, and the run says so', () => {
  for (const mode of ['plain', 'detached', 'stdout']) {
    it(`a ${mode === 'stdout' ? 'helper holding the worker\'s stdout' : `${mode} sleep 300`}: the run fails with the reason, nothing outlives log-bench`, async () => {
      const out = path.join(tmpDir(), 'r.json')
      const result = await runCli(['run', '--lib', `${path.join(ADAPTERS, 'leaves-processes.js')},noop`, '--transport', 'console', '--events', '100', '--runs', '1', '--order', 'blocked', '--timeout', '10', '--quiet', '--out', out], { env: { LOG_BENCH_FIXTURE_LEAVE: mode } })
      assert.equal(result.code, 0, result.stderr)
      const runs = readJson(out).runs
      const [left, noop] = ['leaves-processes', 'noop'].map((lib) => runs.find((r) => r.lib === lib))
      assert.equal(left.status, 'failed')
      assert.match(left.error, /^the adapter left 1 process running after its worker \(\d+ sleep 300\); log-bench ended it$/)
      assert.equal(noop.status, 'ok')
      assert.deepEqual(leftovers(result.tag), [])
    })
  }

  it('http: a process left by the server\'s logger', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['http', '--lib', path.join(ADAPTERS, 'leaves-processes.js'), '--transport', 'console', '--duration', '1', '--warmup', '0', '--runs', '1', '--quiet', '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const run = readJson(out).runs.find((r) => r.lib === 'leaves-processes')
    assert.match(run.error, /the adapter left 1 process running/)
    assert.deepEqual(leftovers(result.tag), [])
  })
})

describe('a closed stdout ends the output quietly; the results file is still whole', () => {
  // The shell's `| head -1`: head exits after one line, and every later write meets a closed pipe.
  const headOne = (args, redirect = '') => new Promise((resolve) => {
    const quoted = args.map((a) => `'${a}'`).join(' ')
    execFile('bash', ['-c', `'${process.execPath}' '${BIN}' ${quoted} ${redirect} | head -1 > /dev/null; exit \${PIPESTATUS[0]}`], (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stderr }))
  })

  it('run | head -1, and run 2>&1 | head -1', async () => {
    for (const redirect of ['', '2>&1']) {
      const out = path.join(tmpDir(), 'r.json')
      const result = await headOne(['run', '--lib', 'noop,raw', '--transport', 'console', '--events', '100', '--runs', '2', '--out', out], redirect)
      assert.equal(result.code, 0, result.stderr)
      assert.doesNotMatch(result.stderr, /EPIPE|Error/)
      const doc = readJson(out)
      assert.equal(doc.complete, true)
      assert.equal(doc.runs.length, 4)
    }
  })

  it('list | head -1, report --help | head -1', async () => {
    for (const args of [['list'], ['report', '--help']]) {
      const result = await headOne(args)
      assert.equal(result.code, 0, result.stderr)
      assert.equal(result.stderr, '')
    }
  })
})

describe('--dir goes into rsyslog.conf quoted as its grammar requires', () => {
  it('a quote and a backslash are escaped inside the string; a newline is refused', () => {
    assert.equal(rsyslogString('/tmp/a"b\\c'), '"/tmp/a\\"b\\\\c"')
    const config = rsyslogConfig({ dir: '/tmp/x") $IncludeConfig /etc/evil (x="', udpPort: 514, receiveBufferBytes: 1 })
    assert.match(config, /^global\(workDirectory="\/tmp\/x\\"\) \$IncludeConfig \/etc\/evil \(x=\\"" maxMessageSize/m)
    assert.throws(() => rsyslogString('/tmp/a\nb'), /holds a control character/)
  })

  it('a run with --dir holding " and \\ delivers every event through rsyslogd; a newline is one line, exit 2', { skip: rsyslogSkip }, async () => {
    const dir = path.join(tmpDir(), 'we"ird\\dir')
    fs.mkdirSync(dir)
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'raw', '--transport', 'udp', '--syslog', 'rsyslog', '--events', '1000', '--runs', '1', '--dir', dir, '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const [run] = readJson(out).runs
    assert.equal(run.status, 'ok', run.error)
    assert.equal(run.received, 1000)
    const newline = path.join(tmpDir(), 'new\nline')
    fs.mkdirSync(newline)
    const refused = await runCli(['run', '--lib', 'raw', '--transport', 'udp', '--syslog', 'rsyslog', '--events', '10', '--dir', newline, '--out', path.join(tmpDir(), 'r.json')])
    assert.equal(refused.code, 2)
    assert.match(refused.stderr, /^log-bench: rsyslogd's configuration cannot name .*holds a control character/)
  })
})

describe('a "|" in a name or reason is escaped once', () => {
  it('At a glance and the per-library tables keep the cell whole', async () => {
    const doc = JSON.parse(fs.readFileSync(RESULTS, 'utf8'))
    const failed = doc.runs.find((r) => (r.type ?? 'run') === 'run' && !r.ok && r.status === 'failed') ?? doc.runs.find((r) => (r.type ?? 'run') === 'run')
    Object.assign(failed, { ok: false, status: 'failed', error: 'worker 0 failed: a|b', doneMs: null, unblockedMs: null })
    const dir = tmpDir()
    fs.writeFileSync(path.join(dir, 'r.json'), JSON.stringify(doc))
    const result = await runCli(['report', 'r.json', '--out', 'page.md'], { cwd: dir })
    assert.equal(result.code, 0, result.stderr)
    const page = fs.readFileSync(path.join(dir, 'page.md'), 'utf8')
    const glance = page.slice(page.indexOf('## At a glance'), page.indexOf('## Hardware'))
    assert.match(glance, /failed: a\\\|b/)
    assert.doesNotMatch(glance, /\\\\\|/)
  })
})

describe('an http run starved of file descriptors is refused before it starts, naming EMFILE', () => {
  it('ulimit -n 512 with --connections 2000: one line, exit 2, nothing started', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await new Promise((resolve) => {
      execFile('bash', ['-c', `ulimit -n 512 && exec '${process.execPath}' '${BIN}' http --lib pino --connections 2000 --duration 1 --warmup 0 --runs 1 --out '${out}'`], (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stderr }))
    })
    assert.equal(result.code, 2, result.stderr)
    assert.match(result.stderr, /^log-bench: --connections 2000 needs about 2,064 open files .* this shell allows 512 \(ulimit -n\): .* give at most --connections 448; past it, connections fail with EMFILE\n$/)
    assert.equal(fs.existsSync(out), false)
  })

  it('the limit is read from /proc/self/limits', () => {
    const file = path.join(tmpDir(), 'limits')
    fs.writeFileSync(file, 'Limit                     Soft Limit           Hard Limit           Units     \nMax open files            1024                 524288               files     \n')
    assert.equal(openFilesLimit(file), 1024)
    fs.writeFileSync(file, 'Max open files            unlimited            unlimited            files\n')
    assert.equal(openFilesLimit(file), Infinity)
    assert.equal(openFilesLimit(path.join(file, 'missing')), null)
  })
})

// Round two. Each case: one line on stderr naming what was wrong, exit 2, no stack, and every file
// in the working directory as it was (nothing written, nothing replaced).
const refusals = [
  { name: 'report --out an existing page', args: ['report', 'r.json', '--out', 'notes.md'], files: { 'notes.md': 'mine\n' }, pattern: /^log-bench: --out notes\.md already exists: add --force/ },
  { name: 'report --format csv: the CSV derived from --out exists', args: ['report', 'r.json', '--format', 'csv', '--out', 'notes.md'], files: { 'notes.csv': 'mine\n' }, pattern: /^log-bench: --out notes\.md \(notes\.csv\) already exists: add --force/ },
  { name: 'report --format md,csv: the summary CSV exists', args: ['report', 'r.json', '--format', 'md,csv', '--out', 'p.md'], files: { 'p-summary.csv': 'mine\n' }, pattern: /^log-bench: --out p\.md \(p-summary\.csv\) already exists/ },
  { name: 'report with the default --out: a project\'s own results/README.md', args: ['report', 'r.json'], files: { 'results/README.md': 'mine\n' }, pattern: /^log-bench: the default --out results\/README\.md already exists: add --force/ },
  { name: 'report: a chart it would draw exists in --images', args: ['report', 'r.json', '--out', 'p.md', '--images', 'pics'], files: { 'pics/file/benchmarks.png': 'mine\n' }, pattern: /^log-bench: --images pics already holds a chart this report draws \(file\/benchmarks\.png\): add --force/ },
  { name: 'report --out x.md/ (a directory\'s form)', args: ['report', 'r.json', '--out', 'x.md/'], pattern: /^log-bench: --out x\.md\/ ends in "\/", which names a directory: give a file path, such as x\.md$/m },
  { name: 'run --out x.json/', args: ['run', '--lib', 'noop', '--out', 'x.json/'], pattern: /^log-bench: --out x\.json\/ ends in "\/"/ },
  { name: 'merge --out x.json/', args: ['merge', 'r.json', '--out', 'x.json/'], pattern: /^log-bench: --out x\.json\/ ends in "\/"/ },
  { name: 'http --out x.json/', args: ['http', '--lib', 'none', '--out', 'x.json/'], pattern: /^log-bench: --out x\.json\/ ends in "\/"/ },
  { name: 'report --out .. names a directory', args: ['report', 'r.json', '--out', '..'], pattern: /^log-bench: --out \.\. names a directory/ },
  { name: 'report --out \'\'', args: ['report', 'r.json', '--out', ''], pattern: /^log-bench: --out is empty: give a file path$/m },
  { name: 'run --out \'\'', args: ['run', '--lib', 'noop', '--out', ''], pattern: /^log-bench: --out is empty: give a file path$/m },
  { name: 'merge --out \'\'', args: ['merge', 'r.json', '--out', ''], pattern: /^log-bench: --out is empty: give a file path$/m },
  { name: 'run --lib bunyan@1.8 --out <existing results>: refused before installing', args: ['run', '--lib', 'bunyan@1.8', '--cache', 'cache', '--out', 'r.json'], pattern: /^log-bench: --out r\.json already holds results \(\d+ runs\): add --force/ },
  { name: 'report of a results file with doneMs: 1e400', args: ['report', 'big.json', '--out', 'p.md'], derive: { 'big.json': (text) => text.replace(/"doneMs": ?[0-9.]+/, '"doneMs": 1e400') }, pattern: /^log-bench: big\.json: runs\[\d+\] \(.*\): doneMs must be a finite number >= 0 or null, got a number beyond a double's range \(such as 1e400\), read as Infinity$/m },
  { name: 'report of a UTF-8 results file with a byte-order mark', args: ['report', 'bom.json', '--out', 'p.md'], derive: { 'bom.json': (text) => '\ufeff' + text }, pattern: /^log-bench: bom\.json: it starts with a UTF-8 byte-order mark \(BOM\), which JSON does not allow: save it as UTF-8 without a BOM/ },
  { name: 'report of a UTF-16 results file (with its BOM)', args: ['report', 'u16.json', '--out', 'p.md'], derive: { 'u16.json': (text) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]) }, pattern: /^log-bench: u16\.json: it is UTF-16 text \(little-endian\), and log-bench reads JSON as UTF-8: convert it \(iconv -f UTF-16LE -t UTF-8\)/ },
  { name: 'compare of a UTF-16 big-endian results file without a BOM', args: ['compare', 'r.json', 'u16be.json'], derive: { 'u16be.json': (text) => Buffer.from(text, 'utf16le').swap16() }, pattern: /^log-bench: u16be\.json: it is UTF-16 text \(big-endian\)/ },
  { name: 'merge of a results file with a BOM', args: ['merge', 'r.json', 'bom.json', '--out', 'm.json'], derive: { 'bom.json': (text) => '\ufeff' + text }, pattern: /^log-bench: bom\.json: it starts with a UTF-8 byte-order mark/ },
  { name: 'a UsageError naming data with an ESC and a newline stays one line, its controls visible', args: ['report', '\x1b]0;x\x07\nb.json'], pattern: /^log-bench: \\x1b\]0;x\\x07\\nb\.json: cannot read it \(no such file\)/ },
  { name: 'report --pages whose page is in a directory\'s form', args: ['report', '--pages', 'pages.json'], files: { 'pages.json': JSON.stringify({ pages: [{ out: 'x.md/', results: ['r.json'] }] }) }, pattern: /^log-bench: pages\.json: pages\[0\]\.out must be the path of a \.md page/ },
  { name: 'run with a TMPDIR that does not exist', args: ['run', '--lib', 'noop', '--events', '10', '--runs', '1', '--out', 'n.json'], env: { TMPDIR: '/nonexistent/lb-tmp' }, pattern: /^log-bench: TMPDIR \/nonexistent\/lb-tmp does not exist: set TMPDIR to an existing writable directory, or give --dir$/m },
  { name: 'run with a TMPDIR that is a file', args: ['run', '--lib', 'noop', '--events', '10', '--runs', '1', '--out', 'n.json'], tmpdir: 'r.json', pattern: /^log-bench: TMPDIR .*r\.json is not a directory/ },
  { name: 'run with a TMPDIR where no directory can be made (sysfs)', args: ['run', '--lib', 'noop', '--events', '10', '--runs', '1', '--out', 'n.json'], env: { TMPDIR: '/sys' }, pattern: /^log-bench: TMPDIR \/sys: cannot make a directory there \((permission denied|operation not permitted|read-only file system)/ },
  { name: 'http with a TMPDIR that does not exist', args: ['http', '--lib', 'none', '--out', 'n.json'], env: { TMPDIR: '/nonexistent/lb-tmp' }, pattern: /^log-bench: TMPDIR \/nonexistent\/lb-tmp does not exist: set TMPDIR to an existing writable directory$/m },
  { name: 'http --lib bunyan@1.8 --out <existing results>: refused before installing', args: ['http', '--lib', 'bunyan@1.8', '--cache', 'cache', '--out', 'r.json'], pattern: /^log-bench: --out r\.json already holds results/ }
]

// Each refusal in a directory of its own, most of it a process starting: four at a time.
describe('round two: refused with one line, exit 2, nothing written or replaced', { concurrency: 4 }, () => {
  for (const { name, args, files = {}, derive = {}, pattern, env = {}, tmpdir } of refusals) {
    it(name, async () => {
      const dir = tmpDir()
      fs.copyFileSync(RESULTS, path.join(dir, 'r.json'))
      for (const [file, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
        fs.writeFileSync(path.join(dir, file), text)
      }
      for (const [file, make] of Object.entries(derive)) fs.writeFileSync(path.join(dir, file), make(fs.readFileSync(RESULTS, 'utf8')))
      const before = snapshot(dir)
      const result = await runCli(args, { cwd: dir, env: tmpdir ? { ...env, TMPDIR: path.join(dir, tmpdir) } : env })
      assert.equal(result.code, 2, result.stderr + result.stdout)
      assert.match(result.stderr, pattern)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.doesNotMatch(result.stderr, /\n\s+at /)
      assert.deepEqual(snapshot(dir), before, 'nothing written, nothing replaced')
    })
  }
})

// An adapter that misbehaves is a recorded result with its true reason: never a crash, never a wrong "ok".
const MISBEHAVES = path.join(ADAPTERS, 'misbehaves.js')
const recorded = [
  { name: 'a logger that throws asynchronously after its 100th call (console)', env: { LOG_BENCH_FIXTURE_MODE: 'async-throw' }, transport: 'console', status: 'failed', error: /^worker 0 failed while running \(uncaught error\): thrown asynchronously after 100 calls$/ },
  { name: 'a logger that throws asynchronously after its 100th call (file)', env: { LOG_BENCH_FIXTURE_MODE: 'async-throw' }, transport: 'file', status: 'failed', error: /^worker 0 failed while running \(uncaught error\): thrown asynchronously/ },
  { name: 'a logger that rejects in the background', env: { LOG_BENCH_FIXTURE_MODE: 'background-reject' }, transport: 'console', status: 'failed', error: /^worker 0 failed while running \(uncaught error\): rejected in the background after 100 calls$/ },
  { name: 'throw Object.create(null) in log()', env: { LOG_BENCH_FIXTURE_MODE: 'throw-null-proto' }, transport: 'file', status: 'failed', error: /^worker 0 failed while logging: it threw an object without a prototype \(\{\}\)$/ },
  { name: 'process.exit made a no-op: the run finishes, close() having resolved', env: { LOG_BENCH_FIXTURE_MODE: 'exit-noop' }, transport: 'console', status: 'ok', error: null },
  { name: 'nothing arrives: failed with failure { kind: nothing-arrived }', env: { LOG_BENCH_FIXTURE_MODE: 'writes-nowhere' }, transport: 'console', status: 'failed', error: /^nothing arrived on the workers' stdout/, failure: { kind: 'nothing-arrived' } },
  { name: 'a version holding markup, a newline and ESC', env: { LOG_BENCH_FIXTURE_VERSION: '1.0 <img src=x onerror=alert(1)>\n…\x1b[31m' }, transport: 'console', status: 'failed', error: /^the misbehaves adapter cannot be run: its version "1\.0 <img src=x onerror=alert\(1\)>\\n…\\u001b\[31m" is not a version/, libVersion: null },
  { name: 'a packageName that climbs out of node_modules', env: { LOG_BENCH_FIXTURE_PACKAGE: '../../../../tmp/x/fakepkg' }, transport: 'console', status: 'failed', error: /^the misbehaves adapter cannot be run: its packageName "\.\.\/\.\.\/\.\.\/\.\.\/tmp\/x\/fakepkg" is not an npm package name/, libVersion: null },
  ...['constructor', '__proto__', 'valueOf', 'hasOwnProperty', 'toString', 'prototype', 'then', '__defineGetter__'].map((name) => ({ name: `an adapter named ${name}, beside raw`, env: { LOG_BENCH_FIXTURE_NAME: name }, lib: name, transport: 'console', status: 'ok', error: null, withRaw: true }))
]

// Each case a run of its own, found afterwards by its own tag: two at a time.
describe('round two: a misbehaving adapter is a recorded result with its true reason', { concurrency: 2 }, () => {
  for (const c of recorded) {
    it(c.name, async () => {
      const out = path.join(tmpDir(), 'r.json')
      const result = await runCli(['run', '--lib', c.withRaw ? `${MISBEHAVES},raw` : MISBEHAVES, '--transport', c.transport, '--events', '1000', '--runs', '1', '--timeout', '60', '--quiet', '--out', out], { env: c.env })
      assert.equal(result.code, 0, result.stderr)
      assert.doesNotMatch(result.stderr, /internal error|\n\s+at /)
      const doc = readJson(out)
      const run = doc.runs.find((r) => r.lib === (c.lib ?? 'misbehaves'))
      assert.equal(run.status, c.status, run.error)
      if (c.error) assert.match(run.error, c.error)
      else assert.equal(run.error, null)
      if (c.status === 'failed') assert.deepEqual(run.failure, c.failure ?? { kind: 'error' })
      if ('libVersion' in c) assert.equal(run.libVersion, c.libVersion)
      if (c.withRaw) {
        assert.equal(doc.runs.find((r) => r.lib === 'raw').status, 'ok')
        assert.ok(Object.hasOwn(doc.env.libVersions, c.lib), `env.libVersions holds ${c.lib} as its own key`)
      }
      assert.deepEqual(leftovers(result.tag), [])
    })
  }

  // Its close() resolves before the event loop turns on the console and a file (synchronous writes):
  // the worker must still give the rejection its turn rather than exit as soon as close() resolved.
  it('a promise rejected on the turn after the 100th call, nobody awaiting it, fails the run on every transport', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const transports = ['console', 'file', 'udp', 'tcp']
    const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'rejects-later.js'), '--transport', transports.join(','), '--events', '1000', '--runs', '1', '--timeout', '60', '--quiet', '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const runs = readJson(out).runs
    assert.deepEqual(runs.map((r) => r.transport).sort(), [...transports].sort())
    for (const run of runs) {
      assert.equal(run.status, 'failed', `${run.transport}: ${run.error}`)
      assert.equal(run.error, 'worker 0 failed while running (uncaught error): background flush failed', run.transport)
    }
    assert.deepEqual(leftovers(result.tag), [])
  })

  it('a default export that is a Promise is one line that says so', async () => {
    const result = await runCli(['run', '--lib', MISBEHAVES, '--out', path.join(tmpDir(), 'r.json')], { env: { LOG_BENCH_FIXTURE_MODE: 'promise-export' } })
    assert.equal(result.code, 2, result.stderr)
    assert.match(result.stderr, /^log-bench: adapter .*misbehaves\.js does not export the adapter interface: its default export is a Promise \(the result of an async function\?\)/)
    assert.equal(result.stderr.trim().split('\n').length, 1)
  })
})

// Names a results file can hold: markup, link syntax, terminal escapes (CSI, OSC title, OSC 8
// hyperlink, the one-byte C1 CSI), bidi overrides and zero-width characters, and names every object has.
const MARKUP_NAMES = ['<img src=x onerror=alert(1)>', '[link](javascript:alert(1))', '\x1b]0;pwned\x07\x1b[2J\x1b[1A\x1b[2K', '\x9b31mred', 'abc\u202Eevil\u200B']
const OBJECT_NAMES = ['constructor', '__proto__', 'valueOf', 'then', 'toString']
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/

// The report fixture with its five libraries renamed, hostile text in a machine name, a version and
// a failed run's reason (link syntax escaped by hand, an image, an OSC 8 hyperlink).
function hostileResults (dir, names = MARKUP_NAMES) {
  const doc = JSON.parse(fs.readFileSync(RESULTS, 'utf8'))
  const libs = [...new Set(doc.runs.map((r) => r.lib))]
  const rename = new Map(libs.map((lib, i) => [lib, names[i % names.length]]))
  for (const run of doc.runs) run.lib = rename.get(run.lib)
  for (const entry of doc.summary) entry.lib = rename.get(entry.lib) ?? entry.lib
  doc.env.libVersions = Object.fromEntries(libs.map((lib) => [rename.get(lib), '1.0 <b>x</b>\x1b[31m']))
  doc.env.cpuModel = 'CPU <script>alert(1)</script> \x1b]0;t\x07'
  const failed = doc.runs.find((r) => r.status === 'failed') ?? doc.runs[0]
  Object.assign(failed, { ok: false, status: 'failed', error: 'boom <iframe src=javascript:alert(1)> \\[x\\](javascript:alert(2)) ![i](http://evil/x.png) \x1b]8;;http://evil/\x07click\x1b]8;;\x07 \x1b[2J\x9b2J', doneMs: null, unblockedMs: null })
  const file = path.join(dir, 'hostile.json')
  fs.writeFileSync(file, JSON.stringify(doc))
  return { file, libs: libs.map((lib) => rename.get(lib)) }
}

describe('round two: names from a results file reach pages, terminals, charts and CSV inert', () => {
  it('markdown: no tag, no link, no control; every name still shown', async () => {
    const dir = tmpDir()
    const { file } = hostileResults(dir)
    const result = await runCli(['report', file, '--out', path.join(dir, 'page.md'), '--images', path.join(dir, 'images'), '--format', 'md,csv'], { cwd: dir })
    assert.equal(result.code, 0, result.stderr)
    const page = fs.readFileSync(path.join(dir, 'page.md'), 'utf8')
    assert.doesNotMatch(page, /<(img|script|iframe|b)\b/i)
    assert.doesNotMatch(page, /(?<!\\)\]\((javascript|http:\/\/evil)/)
    assert.doesNotMatch(page, CONTROLS)
    assert.match(page, /&lt;img src=x onerror=alert\(1\)&gt;/)
    assert.match(page, /\[link\\\]\(javascript:alert\(1\)\)/)
    assert.match(page, /abc\\\\u202eevil\\\\u200b/)
    assert.match(page, /CPU &lt;script&gt;/)
    assert.match(page, /boom &lt;iframe src=javascript:alert\(1\)&gt; \\\\\[x\\\\\\\]\(javascript:alert\(2\)\) !\[i\\\]\(http:\/\/evil\/x\.png\) \\\\x1b\]8;;http:\/\/evil\/\\\\x07click/)
    // Every chart's image link (a paragraph of its own) points into the charts' directory.
    const links = [...page.matchAll(/^!\[[^\]]*\]\(([^)]*)\)$/gm)]
    assert.ok(links.length > 0)
    for (const [, target] of links) assert.match(target, /^images\//)
    const csv = fs.readFileSync(path.join(dir, 'page.csv'), 'utf8')
    assert.match(csv, /<img src=x onerror=alert\(1\)>/, 'CSV is data: names as they are, quoted where needed')
  })

  it('names every object has (constructor, __proto__, valueOf, then, toString): page, charts, CSV and terminal', async () => {
    const dir = tmpDir()
    const { file, libs } = hostileResults(dir, OBJECT_NAMES)
    const result = await runCli(['report', file, '--out', path.join(dir, 'page.md'), '--format', 'md,csv,terminal'], { cwd: dir })
    assert.equal(result.code, 0, result.stderr)
    const page = fs.readFileSync(path.join(dir, 'page.md'), 'utf8')
    for (const name of libs) assert.match(page, new RegExp(`^\\| ${name} +\\|`, 'm'))
    assert.match(result.stdout, /^\| __proto__ +\|/m)
  })

  it('report --format terminal and compare: controls are shown as escapes, never sent', async () => {
    const dir = tmpDir()
    const { file } = hostileResults(dir)
    const terminal = await runCli(['report', file, '--format', 'terminal'], { cwd: dir })
    assert.equal(terminal.code, 0, terminal.stderr)
    assert.doesNotMatch(terminal.stdout, CONTROLS)
    assert.match(terminal.stdout, /\\x1b\]0;pwned\\x07/)
    assert.match(terminal.stdout, /\\x9b31mred/)
    for (const baseline of ['constructor', '__proto__', '\x1b]0;pwned\x07\x1b[2J\x1b[1A\x1b[2K']) {
      const compared = await runCli(['compare', file, '--baseline', baseline], { cwd: dir })
      assert.ok([0, 2].includes(compared.code), compared.stderr)
      assert.doesNotMatch(compared.stdout + compared.stderr, CONTROLS)
      assert.doesNotMatch(compared.stderr, /internal error/)
    }
    const twoFiles = await runCli(['compare', file, file], { cwd: dir })
    assert.equal(twoFiles.code, 0, twoFiles.stderr)
    assert.doesNotMatch(twoFiles.stdout, CONTROLS)
    // No cell in common: an error naming the cells of both, with their controls made inert too.
    const nothing = await runCli(['compare', RESULTS, file], { cwd: dir })
    assert.equal(nothing.code, 2)
    assert.doesNotMatch(nothing.stderr, CONTROLS)
  })
})

// A stand-in npm (test/fixtures/fake-npm/npm) that keeps writing into its install directory until
// it is stopped: a signal to log-bench during a first install.
describe('round two: a stop signal during a version\'s first install', () => {
  const FAKE_NPM = path.join(ROOT, 'test', 'fixtures', 'fake-npm')
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129], ['SIGQUIT', 131]]) {
    it(`${signal}: npm is stopped, the .install-* directory removed, exit ${code}`, async () => {
      const cache = tmpDir()
      let primary
      const pending = runCli(['run', '--lib', 'bunyan@1.8', '--cache', cache, '--out', path.join(tmpDir(), 'r.json')], { env: { PATH: `${FAKE_NPM}:${process.env.PATH}` }, onSpawn: (child) => { primary = child } })
      await waitFor(() => fs.existsSync(path.join(cache, 'libs', '.fake-npm-started')))
      primary.kill(signal)
      const result = await pending
      assert.equal(result.code, code, result.stderr)
      assert.match(result.stderr, new RegExp(`${signal}: stopped installing bunyan@1\\.8\\.15\\n$`))
      assert.doesNotMatch(result.stderr, /ENOTEMPTY|internal error|\n\s+at /)
      assert.deepEqual(fs.readdirSync(path.join(cache, 'libs')).filter((name) => name.startsWith('.install-')), [])
      assert.deepEqual(leftovers(result.tag), [])
    })
  }
})

describe('round two: the adapter probe ends with the primary', () => {
  for (const signal of ['SIGTERM', 'SIGHUP']) {
    it(`a top-level await that never settles, ${signal} to the primary alone (the moment the probe starts)`, async () => {
      let primary
      let tag
      const pending = runCli(['run', '--lib', path.join(ADAPTERS, 'never-loads.mjs'), '--out', path.join(tmpDir(), 'r.json')], { onSpawn: (child, t) => { primary = child; tag = t } })
      await waitFor(() => tag && taggedPids(tag, /adapter-probe\.js/).length)
      primary.kill(signal)
      const result = await pending
      assert.equal(result.signal, signal)
      await waitFor(() => leftovers(tag).length === 0).catch(() => {})
      assert.deepEqual(leftovers(tag), [])
    })
  }
})

describe('round two: scale and names in the http matrix', () => {
  it('a bar chart of 100 libraries draws the first 60 and says so; its notes name at most 10 more', () => {
    const doc = JSON.parse(fs.readFileSync(RESULTS, 'utf8'))
    const one = doc.runs.find((r) => r.lib === 'winston' && r.status === 'ok')
    const runs = Array.from({ length: 100 }, (_, i) => ({ ...one, lib: `lib${i}`, run: 1 }))
    const failed = Array.from({ length: 30 }, (_, i) => ({ ...one, lib: `broken${i}`, run: 1, ok: false, status: 'failed', error: 'x', doneMs: null, unblockedMs: null }))
    const [group] = groupsOf([...runs, ...failed], summarize([...runs, ...failed]))
    const chart = benchmarksChart(group, '')
    assert.equal(chart.config.data.datasets.length, MAX_CHART_LIBRARIES)
    const notes = chart.config.options.plugins.subtitle.text
    assert.ok(notes.includes('the first 60 of 100 libraries drawn (every one is in the tables)'), notes)
    assert.ok(notes.some((n) => /^no bars at all: broken0, .*broken9 and 20 more \(failed or unsupported/.test(n)), notes)
  })

  it('http --middleware with an adapter named constructor: unsupported with its reason, not a crash', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['http', '--lib', MISBEHAVES, '--middleware', '--duration', '1', '--warmup', '0', '--runs', '1', '--quiet', '--out', out], { env: { LOG_BENCH_FIXTURE_NAME: 'constructor' } })
    assert.equal(result.code, 0, result.stderr)
    const run = readJson(out).runs.find((r) => r.lib === 'constructor')
    assert.equal(run.status, 'unsupported')
    assert.equal(run.error, 'constructor has no express request logger')
    assert.deepEqual(leftovers(result.tag), [])
  })
})

describe('round two: progress lines on stderr', () => {
  it('an adapter\'s error holding ESC, C1 and bidi characters is shown escaped in the progress line and the tables', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', MISBEHAVES, '--transport', 'file', '--events', '1000', '--runs', '1', '--out', out], { env: { LOG_BENCH_FIXTURE_MODE: 'throw-escapes' } })
    assert.equal(result.code, 0, result.stderr)
    assert.doesNotMatch(result.stderr + result.stdout, CONTROLS)
    assert.match(result.stderr, /FAILED: worker 0 failed while logging: \\x1b\]0;pwned\\x07\\x1b\[2J\\x1b\[1A\\x9b2K\\u202eevil/)
    assert.equal(readJson(out).runs[0].error, 'worker 0 failed while logging: \x1b]0;pwned\x07\x1b[2J\x1b[1A\x9b2K\u202eevil', 'the record keeps the words as they were')
  })

  it('--syslog-port with nothing listening: the failure, never "(null of N events had arrived)"', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'raw', '--transport', 'tcp', '--syslog-host', '127.0.0.1', '--syslog-port', '9', '--cpus', '2', '--events', '1000', '--runs', '1', '--out', out])
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, /raw, Syslog TCP, 2 workers run 1: FAILED: worker \d failed while building the logger: connect ECONNREFUSED 127\.0\.0\.1:9\n/)
    assert.doesNotMatch(result.stderr, /null of/)
    assert.deepEqual(readJson(out).runs[0].failure, { kind: 'error' })
  })
})
