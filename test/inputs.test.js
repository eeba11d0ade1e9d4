import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { UsageError } from '../src/errors.js'
import { readJsonFile } from '../src/results/json-file.js'
import { readResultsFile } from '../src/results/read.js'
import { ROOT, runCli, tmpDir } from './helpers.js'

// Files that lie, hang or crash: every one is bad input, one line, and never echoed.

const RESULTS = path.join(ROOT, 'test', 'fixtures', 'report', 'results.json')

const oneLineError = (fn, pattern) => assert.throws(fn, (err) => err instanceof UsageError && pattern.test(err.message) && !err.message.includes('\n'))

describe('inputs that would hang or crash the reader', () => {
  it('a FIFO, /dev/zero and a directory are refused before they are read', async () => {
    const dir = tmpDir()
    const fifo = path.join(dir, 'fifo.json')
    execFileSync('mkfifo', [fifo])
    oneLineError(() => readJsonFile(fifo), /fifo\.json is a FIFO \(named pipe\), not a regular file/)
    oneLineError(() => readJsonFile('/dev/zero'), /\/dev\/zero is a device, not a regular file/)
    oneLineError(() => readJsonFile(dir), /is a directory, not a regular file/)
    // The commands as a user types them: each ends at once with exit 2 (a hang would time out here).
    for (const args of [['report', fifo], ['report', '/dev/zero'], ['compare', fifo, RESULTS], ['merge', fifo, '--out', path.join(dir, 'm.json')], ['run', '--scenario', fifo], ['report', '--pages', fifo]]) {
      const result = await runCli(args, { timeoutMs: 20_000 })
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`)
      assert.match(result.stderr, /is a (FIFO|device)/)
    }
  })

  it('100,000 levels of nesting, NaN, a trailing comma: one line that quotes nothing of the file', () => {
    const dir = tmpDir()
    const write = (name, text) => { fs.writeFileSync(path.join(dir, name), text); return path.join(dir, name) }
    oneLineError(() => readJsonFile(write('deep.json', '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000))), /nested more than 64 levels deep/)
    oneLineError(() => readJsonFile(write('nan.json', '{"secret": "s3cr3t",\n"a": NaN}')), /nan\.json: not valid JSON \(a token that is not JSON, such as NaN/)
    oneLineError(() => readJsonFile(write('comma.json', '{\n"secret": "s3cr3t",\n}')), /comma\.json: not valid JSON \(line 3, column 1\)/)
    assert.throws(() => readJsonFile(path.join(dir, 'nan.json')), (err) => !err.message.includes('s3cr3t'))
  })
})

describe('the results reader range-checks numbers with the command line\'s limits', () => {
  const cases = [
    [(r) => { r.doneMs = -5 }, /doneMs must be a finite number >= 0 or null, got -5/],
    [(r) => { r.events = 'lots' }, /events must be an integer from 1 to 1,073,741,824 \(the command line's limit\), got "lots"/],
    [(r) => { r.size = -7 }, /size must be an integer from 1 to 1,048,576/],
    [(r) => { r.cpus = 1e9 }, /cpus must be an integer from 1 to 256/],
    [(r) => { r.events = 1e300 }, /events must be an integer .* got 1e\+300/],
    [(r) => { r.run = 0 }, /run must be an integer from 1 to 1,000/],
    [(r) => { r.dropRate = 1.5 }, /dropRate must be a share from 0 to 1/],
    [(r) => { r.received = 2.5 }, /received must be a whole number of events/],
    [(r) => { r.timeseries = [{ tMs: 0, cpuPct: 'x' }] }, /timeseries\[0\]\.cpuPct must be a finite number >= 0 or null, got "x"/],
    [(r) => { r.lib = 'x'.repeat(500) }, /lib must be a name of 1 to 200 characters, got "x{39}…$/]
  ]
  for (const [change, pattern] of cases) {
    it(String(change).replace(/^\(r\) => \{ | \}$/g, ''), () => {
      const doc = JSON.parse(fs.readFileSync(RESULTS, 'utf8'))
      change(doc.runs[0])
      const file = path.join(tmpDir(), 'r.json')
      fs.writeFileSync(file, JSON.stringify(doc))
      oneLineError(() => readResultsFile(file), pattern)
    })
  }
})

describe('a pages file names files of the repository it is run from, and errors quote none of them', () => {
  const pagesRun = async (dir, page) => {
    fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [{ out: 'p.md', results: ['r.json'], ...page }] }))
    return runCli(['report', '--pages', 'pages.json'], { cwd: dir })
  }
  const workDir = () => {
    const dir = tmpDir()
    fs.copyFileSync(RESULTS, path.join(dir, 'r.json'))
    return dir
  }

  it('"reference": "/etc/shadow", "../x", a link out, an out or images elsewhere: refused before anything is read', async () => {
    const dir = workDir()
    const outside = tmpDir()
    fs.writeFileSync(path.join(outside, 'secret.json'), '{"password": "hunter2"')
    fs.symlinkSync(outside, path.join(dir, 'link'))
    for (const [page, expected] of [
      [{ reference: '/etc/shadow' }, /pages\[0\]\.reference \/etc\/shadow is outside the current directory/],
      [{ reference: path.relative(dir, path.join(outside, 'secret.json')) }, /pages\[0\]\.reference .*secret\.json is outside/],
      [{ reference: 'link/secret.json' }, /pages\[0\]\.reference link\/secret\.json leads outside the current directory through a symbolic link/],
      [{ results: ['link/secret.json'] }, /pages\[0\]\.results\[0\] link\/secret\.json leads outside/],
      [{ out: path.join(outside, 'p.md') }, /pages\[0\]\.out .* is outside/],
      [{ images: '../images' }, /pages\[0\]\.images \.\.\/images is outside/]
    ]) {
      const result = await pagesRun(dir, page)
      assert.equal(result.code, 2, result.stderr)
      assert.match(result.stderr, expected)
      assert.doesNotMatch(result.stderr, /hunter2|root:/)
    }
    assert.deepEqual(fs.readdirSync(outside), ['secret.json'])
  })

  it('a reference inside that is not JSON: line and column, none of its text', async () => {
    const dir = workDir()
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'password: hunter2\n')
    const result = await pagesRun(dir, { reference: 'notes.txt' })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /notes\.txt: not valid JSON \(/)
    assert.doesNotMatch(result.stderr, /hunter2|password/)
  })
})
