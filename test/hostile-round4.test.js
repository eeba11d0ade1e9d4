import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { terminalTable, wrap } from '../src/draw/table.js'
import { displayWidth } from '../src/draw/width.js'
import { ADAPTERS, BIN, runCli, tmpDir } from './helpers.js'

// Hostile round four (issue 55): each case failed before its fix.

// The widest line's columns; the line naming the results file is a path, never wrapped.
const widest = (text) => Math.max(...text.split('\n').filter((line) => !line.startsWith('results: ')).map(displayWidth))

describe('wide characters in a column: measured in terminal columns, never a crash', () => {
  const emoji = 'write failed: ' + '📁'.repeat(150)
  const mixed = 'e\u0301crit 漢字 👨‍👩‍👧 ok'

  it('a table with an emoji error fits 40, 60 and 100 columns (was: RangeError: Invalid count value in pad)', () => {
    for (const width of [40, 60, 100]) {
      const table = { columns: [{ title: 'library', align: 'left' }, { title: 'error', align: 'left' }], rows: [['📁📁📁', emoji], ['raw', mixed]] }
      const drawn = terminalTable(table, { width })
      assert.ok(widest(drawn) <= width, `${widest(drawn)} > ${width}`)
      const lengths = new Set(drawn.split('\n\n')[0].split('\n').map(displayWidth))
      assert.equal(lengths.size, 1, 'every line of the grid is as wide as the others')
    }
  })

  it('a paragraph wraps at columns: no emoji cut in two, no line wider', () => {
    const text = wrap(emoji + ' ' + mixed, 21)
    assert.ok(widest(text) <= 21)
    assert.doesNotMatch(text, /[\ud800-\udbff](?![\udc00-\udfff])/, 'no lone high surrogate')
    assert.match(text, /👨‍👩‍👧/, 'a family emoji stays whole')
  })

  it('run with an adapter whose error is 150 emoji: exit 0, the tables and the answer on stdout; report --format terminal at COLUMNS=40', async () => {
    const dir = tmpDir()
    const out = path.join(dir, 'r.json')
    const result = await runCli(['run', '--lib', `${path.join(ADAPTERS, 'emoji-error.mjs')},raw`, '--transport', 'file', '--events', '2000', '--runs', '1', '--out', out], { env: { COLUMNS: '60' } })
    assert.equal(result.code, 0, result.stderr)
    assert.doesNotMatch(result.stderr, /internal error|RangeError/)
    assert.match(result.stdout, /📁/)
    assert.ok(widest(result.stdout) <= 60, `a line of ${widest(result.stdout)} columns`)
    assert.ok(fs.existsSync(out))
    for (const columns of ['40', '100']) {
      const report = await runCli(['report', out, '--format', 'terminal'], { env: { COLUMNS: columns } })
      assert.equal(report.code, 0, report.stderr)
      assert.ok(widest(report.stdout) <= Number(columns), `a line of ${widest(report.stdout)} columns at ${columns}`)
    }
  })
})

describe('--help in a narrow terminal', () => {
  it('every help at 8 to 30 columns, from $COLUMNS and from a terminal\'s own width: exit 0, no stack (was: RangeError at merge <= 30, run <= 24, the top level at 8)', async () => {
    for (const words of [['merge', '--help'], ['run', '--help'], ['report', '--help'], ['--help']]) {
      for (const columns of ['8', '20', '30']) {
        const result = await runCli(words, { env: { COLUMNS: columns } })
        assert.equal(result.code, 0, `${words.join(' ')} at COLUMNS=${columns}: ${result.stderr}`)
        assert.equal(result.stderr, '')
        assert.match(result.stdout, /--help/)
      }
    }
    const script = spawnSync('script', ['-qec', `stty cols 30; ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} merge --help`, '/dev/null'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '' }, timeout: 120_000 })
    if (script.error?.code !== 'ENOENT') {
      assert.equal(script.status, 0, script.stdout)
      assert.doesNotMatch(script.stdout, /RangeError|at .*help\.js/)
    }
  })

  it('help honours $COLUMNS as the tables do (was: ignored)', async () => {
    const wide = await runCli(['run', '--help'], { env: { COLUMNS: '100' } })
    const narrow = await runCli(['run', '--help'], { env: { COLUMNS: '50' } })
    assert.equal(Math.max(...narrow.stdout.split('\n').map(displayWidth)), 50)
    assert.ok(Math.max(...wide.stdout.split('\n').map(displayWidth)) > 50)
  })
})
