import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { readPages } from '../src/report/pages.js'
import { ROOT, leftovers, readJson, runCli, tmpDir } from './helpers.js'

// The results workflow cannot run here, so its log-bench steps are run as written, read from the
// workflow file: every scenario on one runner, then the report of every page; only the scenarios
// are tiny stand-ins and files go to a temporary directory.
const WORKFLOW = path.join(ROOT, '.github', 'workflows', 'results.yml')
const STAND_INS = {
  'seed-article': path.join(ROOT, 'test', 'fixtures', 'scenarios', 'workflow.json'),
  'http-cost': path.join(ROOT, 'test', 'fixtures', 'scenarios', 'workflow-http.json'),
  workloads: path.join(ROOT, 'test', 'fixtures', 'scenarios', 'workflow-workloads.json'),
  versions: path.join(ROOT, 'test', 'fixtures', 'scenarios', 'workflow-versions.json'),
  durability: path.join(ROOT, 'test', 'fixtures', 'scenarios', 'workflow-durability.json'),
  destinations: path.join(ROOT, 'test', 'fixtures', 'scenarios', 'workflow-destinations.json'),
  latency: path.join(ROOT, 'test', 'fixtures', 'scenarios', 'workflow-latency.json')
}

function workflow () {
  const text = fs.readFileSync(WORKFLOW, 'utf8')
  const commands = text.split('\n')
    .map((line) => /^\s+run: npx log-bench (.+)$/.exec(line)?.[1])
    .filter(Boolean)
  return { text, commands }
}

const argsOf = (command) => command.split(/\s+/)
const scenarioOf = (args) => path.basename(args[args.indexOf('--scenario') + 1], '.json')

test('the results workflow: every scenario on one runner from one commit, every page reported', async () => {
  const { text, commands } = workflow()
  const runs = commands.filter((c) => c.startsWith('run ')).map(argsOf)
  const report = argsOf(commands.find((c) => c.startsWith('report ')))
  assert.deepEqual(runs.map(scenarioOf).sort(), Object.keys(STAND_INS).sort(), 'the workflow runs seed-article, http-cost, workloads, versions, durability, destinations and latency')
  // One job: no matrix (each entry would be another runner, often another CPU model), no shards, no merge.
  assert.doesNotMatch(text, /strategy:|matrix:|--shard|log-bench merge/, 'one runner runs every scenario')
  assert.equal((text.match(/^\s+runs-on:/gm) ?? []).length, 1, 'one job')
  for (const args of runs) assert.ok(fs.existsSync(path.join(ROOT, args[args.indexOf('--scenario') + 1])), `${args[args.indexOf('--scenario') + 1]} exists`)
  assert.match(text, /apt-get install -y -q rsyslog valgrind/, 'rsyslog and valgrind (the HTTP page\'s counted group) are installed on the runner')
  assert.deepEqual(report.slice(1), ['--pages', 'results/pages.json'])
  const written = runs.map((args) => args[args.indexOf('--out') + 1])
  assert.match(text, new RegExp(`git add -f ${written.map((f) => f.replace('.', '\\.')).join(' ')}\\n`), 'the commit step adds every results file')
  const pages = readPages(path.join(ROOT, 'results', 'pages.json'))
  assert.deepEqual(pages.flatMap((p) => p.results).sort(), [...written].sort(), 'the pages are made from exactly what the runs write')
  assert.match(text, /git add [^\n]*results\/pages\.written\.json/, 'the commit step adds the list of written files, so the next run removes what it no longer writes')

  const dir = tmpDir('lb-workflow-')
  const inDir = (arg) => (arg.startsWith('results/') ? path.join(dir, arg) : arg)
  try {
    fs.mkdirSync(path.join(dir, 'results', 'reference'), { recursive: true })
    fs.copyFileSync(path.join(ROOT, 'results', 'pages.json'), path.join(dir, 'results', 'pages.json'))
    for (const page of pages.filter((p) => p.reference)) {
      fs.copyFileSync(path.join(ROOT, page.reference), path.join(dir, page.reference))
    }
    // The pages' profiles are committed, not measured by the workflow (docs/costs.md, "Profiles on the pages").
    for (const file of new Set(pages.flatMap((p) => p.profiles ?? []))) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
      fs.copyFileSync(path.join(ROOT, file), path.join(dir, file))
    }
    for (const run of runs) {
      const args = run.map(inDir)
      args[args.indexOf('--scenario') + 1] = STAND_INS[scenarioOf(run)]
      const ran = await runCli(args)
      assert.equal(ran.code, 0, ran.stderr)
      assert.deepEqual(leftovers(ran.tag), [])
      assert.equal(readJson(inDir(run[run.indexOf('--out') + 1])).complete, true)
    }
    const reported = await runCli(report, { cwd: dir })
    assert.equal(reported.code, 0, reported.stderr)
    const seedPage = fs.readFileSync(path.join(dir, pages[0].out), 'utf8')
    assert.match(seedPage, /## At a glance[\s\S]*## Console[\s\S]*## Filesystem[\s\S]*## Then and now/)
    assert.ok(fs.existsSync(path.join(dir, 'images', 'console', 'benchmarks.png')))
    const httpPage = fs.readFileSync(path.join(dir, pages[1].out), 'utf8')
    assert.match(httpPage, /## HTTP route logging/)
    assert.match(seedPage, new RegExp(`\\]\\(${path.basename(pages[1].out).replace('.', '\\.')}\\)`), 'the seed page links the HTTP page')
    const workloadsPage = fs.readFileSync(path.join(dir, pages[2].out), 'utf8')
    assert.match(workloadsPage, /## At a glance[\s\S]*\| Workload +\|[\s\S]*## Console: object workload[\s\S]*## Workloads/)
    assert.ok(fs.existsSync(path.join(dir, pages[2].images, 'console', 'benchmarks-object.png')))
    const versionsPage = fs.readFileSync(path.join(dir, pages[3].out), 'utf8')
    assert.match(versionsPage, /## Console[\s\S]*## HTTP route logging/, 'the versions page holds its run and http cells')
    const durabilityPage = fs.readFileSync(path.join(dir, pages.find((p) => p.out.endsWith('durability.md')).out), 'utf8')
    assert.match(durabilityPage, /## Do the logs survive\?[\s\S]*### Console: kept of logged, per ending[\s\S]*### Filesystem: kept of logged, per ending/)
    assert.doesNotMatch(durabilityPage, /## At a glance/, 'the durability page shows its own section only')
    const latencyPage = fs.readFileSync(path.join(dir, pages.find((p) => p.out.endsWith('latency.md')).out), 'utf8')
    assert.match(latencyPage, /## What does a log call cost a latency-sensitive service\?[\s\S]*### The knee[\s\S]*### When the destination cannot keep up/)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
