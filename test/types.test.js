import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, tmpDir } from './helpers.js'
import { API_TABLES, apiKeys } from '../scripts/index-types.js'

const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc')
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

function tsc (files) {
  return new Promise((resolve) => {
    execFile(TSC, ['--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--typeRoots', path.join(ROOT, 'node_modules', '@types'), '--types', 'node', ...files], { cwd: ROOT, encoding: 'utf8' }, (err, stdout) => {
      resolve({ code: err ? err.code : 0, errors: stdout.trim().split('\n').filter(Boolean) })
    })
  })
}

test('tsc --strict takes every option of run, http, compare and report, and refuses misspelt options and fields', async () => {
  const every = path.join(tmpDir('lb-types-'), 'every-option.mts')
  fs.writeFileSync(every, everyOption())
  const { code, errors } = await tsc([every, MISSPELT])
  assert.equal(code, 2, errors.join('\n'))
  assert.deepEqual(errors.filter((e) => e.includes('every-option.mts')), [], 'index.d.ts refuses an option the API takes: run npm run docs:options')
  const misspelt = errors.filter((e) => e.startsWith(path.relative(ROOT, MISSPELT)))
  assert.deepEqual(misspelt.map((e) => /\((\d+),\d+\): error (TS\d+)/.exec(e).slice(1, 3).join(' ')), ['4 TS2353', '5 TS2820', '6 TS2561', '9 TS2551'], errors.join('\n'))
  assert.match(misspelt[0], /'lbis' does not exist in type 'RunOptions'/)
  assert.match(misspelt[1], /Type '"consol"' is not assignable/)
  assert.match(misspelt[2], /'ignoreVersions' does not exist in type 'CompareOptions'/)
  assert.match(misspelt[3], /Property 'doneMss' does not exist on type 'RunTypeRecord'/)
})

test('docs/api.md\'s TypeScript example compiles with tsc --strict and @types/node, as the page says', async () => {
  const page = fs.readFileSync(path.join(ROOT, 'docs', 'api.md'), 'utf8')
  const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1])
  assert.ok(blocks.length >= 1, 'docs/api.md has a ```ts block')
  assert.match(page, /@types\/node/)
  const dir = tmpDir('lb-types-')
  const files = blocks.map((code, i) => {
    const file = path.join(dir, `api-example-${i}.mts`)
    fs.writeFileSync(file, code.replaceAll("from 'log-bench'", `from ${JSON.stringify(path.join(ROOT, 'index.js'))}`))
    return file
  })
  const { code, errors } = await tsc(files)
  assert.equal(code, 0, errors.join('\n'))
})
