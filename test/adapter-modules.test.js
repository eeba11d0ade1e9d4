import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, readJson, runCli, tmpDir } from './helpers.js'

const EXAMPLES = path.join(ROOT, 'docs', 'examples')

// A user's project as npm init -y makes it ("type": "commonjs"), with log-bench installed in it.
function commonjsProject () {
  const dir = tmpDir()
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'my-project', version: '1.0.0', type: 'commonjs' }))
  fs.mkdirSync(path.join(dir, 'node_modules'))
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'log-bench'))
  fs.copyFileSync(path.join(EXAMPLES, 'lines.cjs'), path.join(dir, 'lines.js'))
  fs.copyFileSync(path.join(EXAMPLES, 'lines.mjs'), path.join(dir, 'lines.mjs'))
  fs.copyFileSync(path.join(EXAMPLES, 'lines.mjs'), path.join(dir, 'esm-as-js.js'))
  return dir
}

test('the documented CommonJS (.js in a commonjs project) and ES module (.mjs) adapters deliver every event on console and file', async () => {
  const cwd = commonjsProject()
  const result = await runCli(['run', '--lib', './lines.js,./lines.mjs', '--transport', 'console,file', '--workload', 'string,object', '--events', '2000', '--runs', '1', '--quiet', '--out', 'r.json'], { cwd })
  assert.equal(result.code, 0, result.stderr)
  const runs = readJson(path.join(cwd, 'r.json')).runs
  assert.equal(runs.length, 8)
  for (const r of runs) {
    const cell = `${r.lib} ${r.transport} ${r.workload}`
    assert.equal(r.ok, true, `${cell}: ${r.error}`)
    assert.equal(r.sent, 2000, cell)
    assert.equal(r.received, 2000, cell)
    assert.equal(r.dropRate, 0, cell)
  }
})

test('an ES module named .js in a commonjs project is refused with the way out', async () => {
  const cwd = commonjsProject()
  const result = await runCli(['run', '--lib', './esm-as-js.js', '--events', '10'], { cwd })
  assert.equal(result.code, 2)
  assert.match(result.stderr, /could not be loaded: .*\(it is an ES module, but the nearest package\.json makes \.js files CommonJS: name it \.mjs, or write it with require and module\.exports; see docs\/adapters\.md\)\n$/)
  assert.equal(result.stderr.trim().split('\n').length, 1)
})
