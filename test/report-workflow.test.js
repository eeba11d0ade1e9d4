import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, leftovers, readJson, runCli, tmpDir } from './helpers.js'

// The results workflow cannot run here, so its log-bench steps are run as written: each shard of
// the matrix, the merge, the report; only the scenario is a tiny stand-in and files go to a
// temporary directory.
const WORKFLOW = path.join(ROOT, '.github', 'workflows', 'results.yml')
const STAND_IN = path.join(ROOT, 'test', 'fixtures', 'scenarios', 'workflow.json')

function workflowCommands () {
  return fs.readFileSync(WORKFLOW, 'utf8').split('\n')
    .map((line) => /^\s+run: npx log-bench (.+)$/.exec(line)?.[1])
    .filter(Boolean)
    .map((command) => command.replaceAll('${{ matrix.shard }}', '<shard>').split(/\s+/))
}

test('the results workflow: shards of the scenario, merged, then reported', async () => {
  const [run, merge, report] = workflowCommands()
  assert.deepEqual([run[0], merge[0], report[0]], ['run', 'merge', 'report'])
  const shards = JSON.parse(/shard: (\[[\d, ]+\])/.exec(fs.readFileSync(WORKFLOW, 'utf8'))[1])
  const scenario = run[run.indexOf('--scenario') + 1]
  assert.ok(fs.existsSync(path.join(ROOT, scenario)), `${scenario} exists`)
  const merged = merge[merge.indexOf('--out') + 1]
  assert.deepEqual(report.slice(1), [merged], 'report reads what merge wrote, with the default page and images')
  assert.match(fs.readFileSync(WORKFLOW, 'utf8'), new RegExp(`git add -f ${merged.replace('.', '\\.')}`))

  const dir = tmpDir('lb-workflow-')
  const inDir = (arg) => (arg.startsWith('results/') ? path.join(dir, arg) : arg)
  try {
    for (const shard of shards) {
      const args = run.map((arg) => arg.replaceAll('<shard>', String(shard))).map(inDir)
      args[args.indexOf('--scenario') + 1] = STAND_IN
      fs.mkdirSync(path.join(dir, 'results'), { recursive: true })
      const ran = await runCli(args)
      assert.equal(ran.code, 0, ran.stderr)
      assert.deepEqual(leftovers(ran.tag), [])
    }
    const joined = await runCli(merge.map(inDir))
    assert.equal(joined.code, 0, joined.stderr)
    const doc = readJson(inDir(merged))
    assert.equal(doc.complete, true)
    assert.equal(doc.runs.length, 4)
    const reported = await runCli(['report', inDir(merged), '--out', path.join(dir, 'README.md'), '--images', path.join(dir, 'images')])
    assert.equal(reported.code, 0, reported.stderr)
    assert.ok(fs.existsSync(path.join(dir, 'images', 'console', 'benchmarks.png')))
    const page = fs.readFileSync(path.join(dir, 'README.md'), 'utf8')
    assert.match(page, /## Console[\s\S]*## Filesystem/)
    assert.match(page, /\| Shard 1\/2 +\|/)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
