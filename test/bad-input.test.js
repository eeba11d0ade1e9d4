import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { fill, mountTmpfs, readJson, ROOT, runCli, tmpDir } from './helpers.js'

// Every bad input, for every command: exit code 2, exactly one line on stderr saying what was
// wrong, no stack trace, and nothing left behind in the working directory or in TMPDIR.

const RESULTS = path.join(ROOT, 'test', 'fixtures', 'report', 'results.json')
const FAST = ['--lib', 'noop', '--transport', 'file', '--events', '10', '--runs', '1']

function listTree (dir) {
  return fs.readdirSync(dir, { recursive: true }).sort()
}

async function assertBadInput (args, expected, { cwd = tmpDir(), env = {} } = {}) {
  const tmp = tmpDir('lb-bad-tmp-')
  const before = listTree(cwd)
  const result = await runCli(args, { cwd, env: { TMPDIR: tmp, ...env } })
  assert.equal(result.code, 2, `exit code ${result.code}\n${result.stderr}`)
  assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
  assert.match(result.stderr, expected)
  assert.doesNotMatch(result.stderr, /^ {4}at /m)
  assert.equal(result.stdout, '')
  assert.deepEqual(listTree(cwd), before)
  assert.deepEqual(fs.readdirSync(tmp), [])
  fs.rmdirSync(tmp)
  return result
}

// [name, args, expected stderr, set-up of the working directory (returns nothing)]
const CASES = [
  ['run --events beyond what the verifier holds', ['run', '--events', '100000000000'], /--events must be an integer from 1 to 1073741824 \(the verifier keeps one bit per event/],
  ['sink --events beyond what the verifier holds', ['sink', '--udp', '0', '--events', '100000000000'], /--events must be an integer from 1 to 1073741824/],
  ['run --timeout beyond Node\'s timers', ['run', '--timeout', '9999999'], /--timeout must be at most 1,000,000 \(Node's timers/],
  ['http --duration beyond Node\'s timers', ['http', '--duration', '2200000'], /--duration must be at most 1,000,000 \(Node's timers/],
  ['http --warmup beyond Node\'s timers', ['http', '--warmup', '2200000'], /--warmup must be at most 1,000,000/],
  ['run --out twice', ['run', ...FAST, '--out', 'a.json', '--out', 'b.json'], /--out was given more than once \(a\.json, b\.json\)/],
  ['http --out twice', ['http', '--out', 'a.json', '--out', 'b.json'], /--out was given more than once/],
  ['merge --out twice', ['merge', RESULTS, RESULTS, '--out', 'a.json', '--out', 'b.json'], /--out was given more than once/],
  ['report --out twice', ['report', RESULTS, '--out', 'a.md', '--out', 'b.md'], /--out was given more than once/],
  ['report --images twice', ['report', RESULTS, '--images', 'a', '--images', 'b'], /--images was given more than once/],
  ['compare --alpha twice', ['compare', RESULTS, RESULTS, '--alpha', '0.1', '--alpha', '0.2'], /--alpha was given more than once/],
  ['sink --udp twice', ['sink', '--udp', '0', '--udp', '0'], /--udp was given more than once/],
  ['run --out under /proc', ['run', ...FAST, '--out', '/proc/x.json'], /--out \/proc\/x\.json is under \/proc, a kernel file system/],
  ['run --out under /sys', ['run', ...FAST, '--out', '/sys/x.json'], /is under \/sys/],
  ['run --out a FIFO', ['run', ...FAST, '--out', 'fifo'], /--out fifo is a FIFO \(named pipe\), not a regular file/, (cwd) => execFileSync('mkfifo', [path.join(cwd, 'fifo')])],
  ['run --out a device', ['run', ...FAST, '--out', '/dev/null'], /--out \/dev\/null is a device, not a regular file/],
  ['run --out a symbolic link', ['run', ...FAST, '--out', 'link.json'], /--out link\.json is a symbolic link/, (cwd) => fs.symlinkSync(path.join(cwd, 'elsewhere.json'), path.join(cwd, 'link.json'))],
  ['run --out under an existing file', ['run', ...FAST, '--out', 'file/r.json'], /--out file\/r\.json runs through .*file, which is a file/, (cwd) => fs.writeFileSync(path.join(cwd, 'file'), '')],
  ['a scenario output under /proc', ['run', '--scenario', 'proc.json'], /proc\.json: output \/proc\/lb\/r\.json is outside the current directory/, (cwd) => scenario(cwd, 'proc.json', '/proc/lb/r.json')],
  ['a scenario output under an existing file', ['run', '--scenario', 'file.json'], /file\.json: output file\/deeper\/r\.json runs through .*file, which is a file/, (cwd) => {
    fs.writeFileSync(path.join(cwd, 'file'), '')
    scenario(cwd, 'file.json', 'file/deeper/r.json')
  }],
  ['report --out under /proc', ['report', RESULTS, '--out', '/proc/lb/README.md'], /--out \/proc\/lb\/README\.md is under \/proc/],
  ['report --out under an existing file', ['report', RESULTS, '--out', 'file/README.md'], /runs through .*file, which is a file/, (cwd) => fs.writeFileSync(path.join(cwd, 'file'), '')],
  ['report --images naming a file', ['report', RESULTS, '--images', 'file'], /--images file is a file, not a directory/, (cwd) => fs.writeFileSync(path.join(cwd, 'file'), '')],
  ['report --out and --images the same', ['report', RESULTS, '--out', 'same', '--images', 'same'], /--out same and --images same name the same path/],
  ['report the same file twice', ['report', RESULTS, RESULTS], /are the same file: their runs would be counted twice/],
  ['report a copy beside its original', ['report', RESULTS, 'copy.json'], /are results of the same invocation .*counted twice/, (cwd) => fs.copyFileSync(RESULTS, path.join(cwd, 'copy.json'))],
  ['an adapter whose package.json is broken', ['run', '--lib', './adapter.js', '--transport', 'file', '--events', '10'], /node_modules\/broken\/package\.json cannot be read for the library's version/, (cwd) => {
    adapter(cwd, "packageName: 'broken',")
    fs.mkdirSync(path.join(cwd, 'node_modules', 'broken'), { recursive: true })
    fs.writeFileSync(path.join(cwd, 'node_modules', 'broken', 'package.json'), '{ "version": ')
  }],
  ['an adapter whose top-level await never settles', ['run', '--lib', './adapter.js', '--transport', 'file', '--events', '10'], /adapter .*adapter\.js did not finish loading: a top-level await that never settles/, (cwd) => adapter(cwd, '', 'await new Promise(() => {})\n')],
  ['an adapter that never finishes importing', ['run', '--lib', './adapter.js', '--transport', 'file', '--events', '10'], /adapter .*adapter\.js did not finish loading within 10 s/, (cwd) => adapter(cwd, '', 'setInterval(() => {}, 1000)\nawait new Promise(() => {})\n')],
  ['an adapter that throws null at its top level', ['run', '--lib', './adapter.js', '--transport', 'file', '--events', '10'], /adapter .*adapter\.js could not be loaded: it threw null\n/, (cwd) => adapter(cwd, '', 'throw null\n')],
  ['an adapter that exits at its top level', ['http', '--lib', './adapter.js', '--transport', 'file'], /adapter .*adapter\.js ended its process while loading \(exit code 0\): an adapter's top-level code must not exit/, (cwd) => adapter(cwd, '', 'process.exit(0)\n')],
  ['an adapter that kills its own process at its top level', ['run', '--lib', './adapter.js'], /ended its process while loading \(killed by SIGKILL\)/, (cwd) => adapter(cwd, '', "process.kill(process.pid, 'SIGKILL')\n")],
  ['an adapter whose declarations throw when read', ['run', '--lib', './adapter.js'], /could not be loaded: nope/, (cwd) => fs.writeFileSync(path.join(cwd, 'adapter.js'), "export default { name: 'x', get transports () { throw new Error('nope') }, async create () {} }\n")]
]

function scenario (cwd, name, output) {
  fs.writeFileSync(path.join(cwd, name), JSON.stringify({ name: 'bad-output', output, run: [{ libs: ['noop'], transports: ['file'], events: 10, runs: 1 }] }))
}

function adapter (cwd, fields, preamble = '') {
  fs.writeFileSync(path.join(cwd, 'adapter.js'), `${preamble}export default { name: 'plain', ${fields} transports: ['file'], async create () { return { log () {}, async close () {} } } }\n`)
}

// Each case has its own working directory and TMPDIR, and most of a case's time is a process
// starting: four at a time.
describe('bad input: one line, exit code 2, no stack, nothing left behind', { concurrency: 4 }, () => {
  for (const [name, args, expected, setup] of CASES) {
    it(name, async () => {
      const cwd = tmpDir()
      setup?.(cwd)
      await assertBadInput(args, expected, { cwd })
      if (args.includes('/dev/null')) assert.ok(fs.statSync('/dev/null').isCharacterDevice())
      fs.rmSync(cwd, { recursive: true })
    })
  }

  it('--resume on another plan\'s file says which options differ, and leaves the file as it was', async () => {
    const cwd = tmpDir()
    const first = await runCli(['run', ...FAST, '--out', 'r.json', '--quiet'], { cwd })
    assert.equal(first.code, 0, first.stderr)
    const saved = fs.readFileSync(path.join(cwd, 'r.json'), 'utf8')
    await assertBadInput(['run', '--lib', 'noop', '--transport', 'console', '--events', '20', '--runs', '1', '--out', 'r.json', '--resume'], /cannot resume .*r\.json: it holds results of other options \(the file's vs these: transports file vs console, events 10 vs 20\)/, { cwd })
    assert.equal(fs.readFileSync(path.join(cwd, 'r.json'), 'utf8'), saved)
  })
})

describe('outputs that cannot be written', () => {
  it('no --out in a read-only working directory', async (t) => {
    const cwd = mountTmpfs(t, 'size=64k')
    if (!cwd) return
    execFileSync('mount', ['-o', 'remount,ro', cwd])
    await assertBadInput(['run', ...FAST], /the default results file .*cannot write in .* \(read-only file system\): give --out with a path you can write/, { cwd })
  })

  it('--out on a full file system: one line, no temporary file, nothing written', async (t) => {
    const dir = mountTmpfs(t, 'size=64k')
    if (!dir) return
    fill(dir, 0)
    const before = listTree(dir)
    await assertBadInput(['run', ...FAST, '--out', path.join(dir, 'r.json'), '--quiet'], /cannot write .*r\.json: no space left on device \(ENOSPC\); no run was saved/)
    assert.deepEqual(listTree(dir), before)
  })

  it('--out filling up during a session: the runs saved before stay in the file, no temporary file', async (t) => {
    const dir = mountTmpfs(t, 'size=256k')
    if (!dir) return
    // Room for the first saves (old file and its replacement side by side), not for all ten runs.
    fill(dir, 6 * 4096)
    const out = path.join(dir, 'r.json')
    const result = await runCli(['run', '--lib', 'noop', '--transport', 'file', '--events', '10', '--runs', '10', '--out', out, '--quiet'], { cwd: tmpDir() })
    assert.equal(result.code, 2, result.stderr)
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
    const saved = /still holds the (\d+) runs saved before/.exec(result.stderr)
    assert.ok(saved, result.stderr)
    const doc = readJson(out)
    assert.equal(doc.runs.length, Number(saved[1]))
    assert.ok(doc.runs.length >= 1 && doc.runs.length < 10)
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), [])
  })
})

describe('a full disk is named where it happened, and leaves nothing half-written', () => {
  it('under the console capture: the run fails with the capture\'s ENOSPC, then what the logger saw', async (t) => {
    const dir = mountTmpfs(t, 'size=256k')
    if (!dir) return
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'raw,noop', '--transport', 'console', '--events', '100000', '--runs', '1', '--order', 'blocked', '--dir', dir, '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const runs = readJson(out).runs
    const [raw, noop] = ['raw', 'noop'].map((lib) => runs.find((r) => r.lib === lib))
    assert.equal(raw.status, 'failed')
    assert.match(raw.error, /^the console capture failed: writing the capture file: No space left on device \(ENOSPC\): the file system under .* is full.*; then worker 0 failed/)
    assert.equal(noop.status, 'ok')
    assert.deepEqual(fs.readdirSync(dir), [])
  })

  it('report: no chart, no page, no directory made for them; what was there stays', async (t) => {
    const dir = mountTmpfs(t, 'size=64k')
    if (!dir) return
    fs.mkdirSync(path.join(dir, 'images', 'old'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'images', 'old', 'x.png'), 'old chart')
    const before = listTree(dir)
    await assertBadInput(['report', RESULTS, '--out', path.join(dir, 'new', 'deeper', 'page.md'), '--images', path.join(dir, 'images')], /cannot write .*\.png: no space left on device \(ENOSPC\)/)
    assert.deepEqual(listTree(dir), before)
  })
})

describe('failures that are results, not bad input', () => {
  it('raw over UDP to a host that does not resolve records the failed lookup as the run\'s error', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'raw', '--transport', 'udp', '--syslog-host', 'no-such-host.invalid', '--events', '10', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const [run] = readJson(out).runs
    assert.equal(run.ok, false)
    assert.match(run.error, /getaddrinfo (ENOTFOUND|EAI_AGAIN) no-such-host\.invalid/)
  })

  it('raw to a disk that fills during its last write: a failed run with ENOSPC, not "ok" with events lost', async (t) => {
    const tmp = mountTmpfs(t, 'size=8k')
    if (!tmp) return
    // 1,000 lines are about 24 KB: one batch, written at close, of which only 8 KB fit.
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'raw', '--transport', 'file', '--events', '1000', '--runs', '1', '--out', out, '--quiet'], { env: { TMPDIR: tmp } })
    assert.equal(result.code, 0, result.stderr)
    const [run] = readJson(out).runs
    assert.equal(run.ok, false)
    assert.match(run.error, /ENOSPC: no space left on device/)
    assert.deepEqual(fs.readdirSync(tmp), [])
  })

  // A payload above 128 KiB once failed to spawn the workers (E2BIG: their configuration travelled
  // in the environment) and left an unfinished results file that asked for --resume. It travels
  // over IPC now: the run completes its file, and a second run into it asks for --force, not --resume.
  it('--size 200000 completes its results file: the same command again asks for --force, not --resume', async () => {
    const cwd = tmpDir()
    const args = ['run', '--lib', 'raw', '--transport', 'file', '--size', '200000', '--events', '10', '--runs', '1', '--out', 'r.json', '--quiet']
    const first = await runCli(args, { cwd })
    assert.equal(first.code, 0, first.stderr)
    const doc = readJson(path.join(cwd, 'r.json'))
    assert.equal(doc.complete, true)
    assert.deepEqual(doc.runs.map((r) => [r.size, r.ok]), [[200000, true]])
    const second = await runCli(args, { cwd })
    assert.equal(second.code, 2)
    assert.match(second.stderr, /r\.json already holds results \(1 run\): add --force/)
    assert.doesNotMatch(second.stderr, /unfinished run/)
  })
})
