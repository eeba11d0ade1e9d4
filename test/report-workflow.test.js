import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, leftovers, runCli, tmpDir } from './helpers.js'

// The results workflow cannot run here, so its log-bench steps are run as written, only smaller
// (fewer libraries, workers, events and runs) and into a temporary directory.
const WORKFLOW = path.join(ROOT, '.github', 'workflows', 'results.yml')

function workflowCommands () {
  return fs.readFileSync(WORKFLOW, 'utf8').split('\n')
    .map((line) => /^\s+run: npx log-bench (.+)$/.exec(line)?.[1])
    .filter(Boolean)
    .map((command) => command.split(/\s+/))
}

function setOption (args, name, value) {
  const i = args.indexOf(name)
  assert.ok(i >= 0, `the workflow gives ${name}`)
  args[i + 1] = value
}

test('the results workflow runs the core matrix, then report on its output', async () => {
  const [run, report] = workflowCommands()
  assert.equal(run[0], 'run')
  assert.equal(report[0], 'report')
  const resultsFile = run[run.indexOf('--out') + 1]
  assert.deepEqual(report.slice(1), [resultsFile], 'report reads what run wrote, with the default page and images')
  assert.match(fs.readFileSync(WORKFLOW, 'utf8'), new RegExp(`git add -f ${resultsFile.replace('.', '\\.')}`))

  const dir = tmpDir('lb-workflow-')
  try {
    const small = [...run]
    setOption(small, '--lib', 'noop,raw')
    setOption(small, '--cpus', '1')
    setOption(small, '--events', '300')
    setOption(small, '--runs', '1')
    setOption(small, '--out', path.join(dir, 'core.json'))
    const ran = await runCli(small)
    assert.equal(ran.code, 0, ran.stderr)
    assert.deepEqual(leftovers(ran.tag), [])
    const reported = await runCli(['report', path.join(dir, 'core.json'), '--out', path.join(dir, 'README.md'), '--images', path.join(dir, 'images')])
    assert.equal(reported.code, 0, reported.stderr)
    assert.ok(fs.existsSync(path.join(dir, 'images', 'console', 'benchmarks.png')))
    assert.match(fs.readFileSync(path.join(dir, 'README.md'), 'utf8'), /## Console[\s\S]*## Filesystem/)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
