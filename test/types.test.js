import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, tmpDir } from './helpers.js'
import { API_TABLES, apiKeys } from '../scripts/index-types.js'

const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc')
// Other TypeScript compilers to try the documented example with, e.g. 5.x and 7.x installed apart
// (npm install --prefix /tmp/ts7 typescript@7): their tsc paths, separated by ':'. One not found is
// skipped with its path.
const OTHER_TSC = (process.env.LOG_BENCH_TSC ?? '').split(':').filter(Boolean)
const MISSPELT = path.join(ROOT, 'test', 'fixtures', 'types', 'misspelt.mts')

// A value of an option as a user would give it: `typed` as on the command line (a comma string, a
// number as text), else as JavaScript has it (an array, a number).
function sample (option, typed) {
  if (option.type === 'boolean') return true
  const one = option.values ? option.values[0] : option.int || option.seconds || option.numeric ? (typed ? '1' : 1) : 'x'
  if (!option.list || option.one) return one
  return typed ? String(one) : [one]
}

// Every option of each API function, once under its first key with JavaScript values and once under
// its other key with values as typed, and the results document read as its types say.
function everyOption () {
  const call = (fn, table, keyIndex, typed) => {
    const options = table.filter((o) => !o.cliOnly && apiKeys(o)[keyIndex]).map((o) => `${apiKeys(o)[keyIndex]}: ${JSON.stringify(sample(o, typed))}`)
    if (fn === 'compare') return `await compare('before.json', 'after.json', { ${options.join(', ')} })`
    if (fn === 'report') return `await report(['results.json'], { ${options.join(', ')} })`
    return `await ${fn}({ ${options.join(', ')} })`
  }
  const calls = Object.entries(API_TABLES)
    .flatMap(([fn, table]) => [call(fn, table, 0, false), call(fn, table, 1, true)])
  return [
    `import { compare, http, report, run, type RunRecord } from ${JSON.stringify(path.join(ROOT, 'index.js'))}`,
    ...calls,
    'const doc = await run({ libs: [\'pino\'], signal: new AbortController().signal })',
    'const record: RunRecord = doc.runs[0]',
    'const done: number | null = record.type === \'http\' ? record.reqPerSec?.mean ?? null : record.doneMs',
    'console.log(done, doc.env.node, doc.summary.length)',
    ''
  ].join('\n')
}

const STRICT = ['--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext']

function tsc (files, { bin = TSC, cwd = ROOT, args = STRICT } = {}) {
  return new Promise((resolve) => {
    execFile(bin, [...args, ...files], { cwd, encoding: 'utf8' }, (err, stdout) => {
      resolve({ code: err ? err.code : 0, errors: stdout.trim().split('\n').filter(Boolean) })
    })
  })
}

// A user's project as docs/api.md sets it up: package.json of type module, log-bench and
// @types/node in node_modules (log-bench's package.json and index.d.ts copied, so that nothing
// resolves from this checkout's own node_modules), the example in example.ts.
function userProject (code) {
  const dir = tmpDir('lb-types-user-')
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'user', type: 'module', private: true }))
  const pkg = path.join(dir, 'node_modules', 'log-bench')
  fs.mkdirSync(pkg, { recursive: true })
  for (const file of ['package.json', 'index.d.ts']) fs.copyFileSync(path.join(ROOT, file), path.join(pkg, file))
  fs.mkdirSync(path.join(dir, 'node_modules', '@types'))
  fs.symlinkSync(path.join(ROOT, 'node_modules', '@types', 'node'), path.join(dir, 'node_modules', '@types', 'node'), 'dir')
  fs.writeFileSync(path.join(dir, 'example.ts'), code)
  return dir
}

const versionOf = (bin) => new Promise((resolve) => {
  execFile(bin, ['--version'], { encoding: 'utf8' }, (err, stdout) => resolve(err ? null : /Version (\d+)\./.exec(stdout)?.[1] ?? null))
})

test('tsc --strict takes every option of run, http, compare and report, and refuses misspelt options and fields', async () => {
  const every = path.join(tmpDir('lb-types-'), 'every-option.mts')
  fs.writeFileSync(every, everyOption())
  // Only these two files' errors are asserted: the declarations they use (index.d.ts, Node's types)
  // are checked whole by the test of docs/api.md's example below, as a user's project compiles them,
  // so here tsc skips checking them (--skipLibCheck), most of its time.
  const { code, errors } = await tsc([every, MISSPELT], { args: [...STRICT, '--skipLibCheck'] })
  assert.equal(code, 2, errors.join('\n'))
  assert.deepEqual(errors.filter((e) => e.includes('every-option.mts')), [], 'index.d.ts refuses an option the API takes: run npm run docs:options')
  const misspelt = errors.filter((e) => e.startsWith(path.relative(ROOT, MISSPELT)))
  assert.deepEqual(misspelt.map((e) => /\((\d+),\d+\): error (TS\d+)/.exec(e).slice(1, 3).join(' ')), ['4 TS2353', '5 TS2820', '6 TS2561', '9 TS2551'], errors.join('\n'))
  assert.match(misspelt[0], /'lbis' does not exist in type 'RunOptions'/)
  assert.match(misspelt[1], /Type '"consol"' is not assignable/)
  assert.match(misspelt[2], /'ignoreVersions' does not exist in type 'CompareOptions'/)
  assert.match(misspelt[3], /Property 'doneMss' does not exist on type 'RunTypeRecord'/)
})

// The command docs/api.md gives, and under TypeScript 6 and later (whose default module allows
// top-level await) the one with no flag but --strict and --noEmit; neither names Node's types:
// index.d.ts loads them itself, as TypeScript 6 loads none by default.
const DOCUMENTED = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', 'example.ts']

for (const bin of [TSC, ...OTHER_TSC]) {
  test(`docs/api.md's TypeScript example compiles in a user's project with @types/node and no --types (${bin === TSC ? 'the project\'s TypeScript' : bin})`, async (t) => {
    if (!fs.existsSync(bin)) return t.skip(`${bin} not found`)
    const page = fs.readFileSync(path.join(ROOT, 'docs', 'api.md'), 'utf8')
    const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1])
    assert.equal(blocks.length, 1, 'docs/api.md has one ```ts block')
    assert.match(page, /npm install -D typescript @types\/node/)
    assert.ok(page.includes(`npx tsc ${DOCUMENTED.join(' ')}`), 'docs/api.md gives the command this test runs')
    const dir = userProject(blocks[0])
    const major = Number(await versionOf(bin))
    const documented = await tsc([], { bin, cwd: dir, args: DOCUMENTED })
    assert.equal(documented.code, 0, documented.errors.join('\n'))
    if (major >= 6) {
      const bare = await tsc(['example.ts'], { bin, cwd: dir, args: ['--strict', '--noEmit'] })
      assert.equal(bare.code, 0, bare.errors.join('\n'))
    }
  })
}
