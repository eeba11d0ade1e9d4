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
  latency: path.join(ROOT, 'test', 'fixtures', 'scenarios', 'workflow-latency.json'),
  'burst-size': path.join(ROOT, 'test', 'fixtures', 'scenarios', 'workflow-burst-size.json'),
  overload: path.join(ROOT, 'test', 'fixtures', 'scenarios', 'workflow-overload.json')
}

function workflow () {
  const text = fs.readFileSync(WORKFLOW, 'utf8')
  const commands = text.split('\n')
    .map((line) => /^\s+run: npx log-bench (.+)$/.exec(line)?.[1])
    .filter(Boolean)
  const matrix = [...text.matchAll(/^\s+- \{ scenario: ([\w-]+), k: (\d+), n: (\d+) \}$/gm)]
    .map((m) => ({ scenario: m[1], k: Number(m[2]), n: Number(m[3]) }))
  return { text, commands, matrix }
}

const argsOf = (command) => command.split(/\s+/)
const scenarioOf = (args) => path.basename(args[args.indexOf('--scenario') + 1], '.json')
const optionOf = (args, name) => args[args.indexOf(name) + 1]
// The measuring command for one entry of the job matrix, as the runner expands it.
const expand = (command, entry) => command.replace(/\$\{\{ matrix\.(\w+) \}\}/g, (_, key) => String(entry[key]))
const minutesOf = (text, job) => Number(new RegExp(`\\n  ${job}:\\n[\\s\\S]*?timeout-minutes: (\\d+)`).exec(text)?.[1])

test('the results workflow: whole comparison groups over a job matrix, merged per scenario, every page reported', async () => {
  const { text, commands, matrix } = workflow()
  const template = commands.filter((c) => c.startsWith('run '))
  assert.equal(template.length, 1, 'one measuring command, run by every job of the matrix')
  const runs = matrix.map((entry) => argsOf(expand(template[0], entry)))
  const merges = commands.filter((c) => c.startsWith('merge ')).map(argsOf)
  const report = argsOf(commands.find((c) => c.startsWith('report ')))
  const scenarios = [...new Set(matrix.map((e) => e.scenario))]
  assert.deepEqual([...scenarios].sort(), Object.keys(STAND_INS).sort(), 'the matrix runs seed-article, http-cost, workloads, versions, durability, destinations, latency, burst-size and overload')
  for (const scenario of scenarios) {
    const entries = matrix.filter((e) => e.scenario === scenario)
    assert.deepEqual(entries.map((e) => e.k), entries.map((_, i) => i + 1), `${scenario}: shards 1 to n, each once`)
    assert.ok(entries.every((e) => e.n === entries.length), `${scenario}: every shard is one of ${entries.length}`)
  }
  assert.ok(matrix.some((e) => e.scenario === 'seed-article' && e.n > 1), 'the seed matrix, longer than one job may run, is split')
  runs.forEach((args, i) => assert.equal(optionOf(args, '--shard'), `${matrix[i].k}/${matrix[i].n}`, 'every job runs its own shard'))
  assert.match(text, /fail-fast: false/, 'one failed shard does not cancel the others')
  assert.match(text, /\n {2}pages:\n\s+needs: measure\n/, 'the pages are made only when every shard finished')
  // A hosted job may run 360 min; the longest scenario job takes about 1 h 37 min on a 2-core VM (docs/scenarios.md).
  assert.ok(minutesOf(text, 'measure') <= 180, 'each measuring job is cut off far inside the hosted limit')
  assert.ok(minutesOf(text, 'pages') <= 60)
  for (const args of runs) assert.ok(fs.existsSync(path.join(ROOT, optionOf(args, '--scenario'))), `${optionOf(args, '--scenario')} exists`)
  const shardDir = path.dirname(optionOf(runs[0], '--out'))
  assert.ok(runs.every((args) => path.dirname(optionOf(args, '--out')) === shardDir), 'every shard is written to one directory')
  assert.equal(new Set(runs.map((args) => optionOf(args, '--out'))).size, runs.length, 'no two shards write one file')
  assert.match(text, new RegExp(`upload-artifact@v4\\n\\s+with:\\n\\s+name: shard-\\$\\{\\{ matrix\\.scenario \\}\\}-\\$\\{\\{ matrix\\.k \\}\\}\\n\\s+path: ${shardDir}/\\n`), 'each job uploads its shard under a name of its own')
  assert.match(text, new RegExp(`download-artifact@v4\\n\\s+with:\\n\\s+pattern: shard-\\*\\n\\s+path: ${shardDir}\\n\\s+merge-multiple: true`), 'the pages job gathers every shard where the merges read them')
  assert.match(text, /apt-get install -y -q rsyslog valgrind/, 'rsyslog and valgrind (the HTTP page\'s counted group) are installed on the runner')
  // Each scenario is merged once, from exactly its shards, into the results file its page reads.
  assert.deepEqual(merges.map((args) => path.basename(optionOf(args, '--out'), '.json')).sort(), [...scenarios].sort(), 'one merge per scenario')
  for (const args of merges) {
    const scenario = path.basename(optionOf(args, '--out'), '.json')
    const files = args.slice(1, args.findIndex((a) => a.startsWith('--')))
    const shards = runs.filter((r) => scenarioOf(r) === scenario).map((r) => optionOf(r, '--out'))
    assert.deepEqual(files, shards, `the merge of ${scenario} names every one of its shards`)
    assert.equal(args.includes('--allow-mixed-hardware'), shards.length > 1, `${scenario}: shards of several runners are merged with their machines named`)
  }
  assert.deepEqual(report.slice(1), ['--pages', 'results/pages.json'])
  const written = merges.map((args) => optionOf(args, '--out'))
  assert.match(text, new RegExp(`git add -f ${written.map((f) => f.replace('.', '\\.')).join(' ')}\\n`), 'the commit step adds every results file')
  assert.doesNotMatch(text, new RegExp(`git add[^\\n]* ${shardDir}`), 'the shards are not committed: the merged file keeps their machines and times')
  const pages = readPages(path.join(ROOT, 'results', 'pages.json'))
  assert.deepEqual(pages.flatMap((p) => p.results).sort(), [...written].sort(), 'the pages are made from exactly what the merges write')
  assert.match(text, /git add [^\n]*results\/pages\.written\.json/, 'the commit step adds the list of written files, so the next run removes what it no longer writes')

  const dir = tmpDir('lb-workflow-')
  const inDir = (arg) => (arg.startsWith('results/') || arg.startsWith(`${shardDir}/`) ? path.join(dir, arg) : arg)
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
      assert.equal(readJson(inDir(optionOf(run, '--out'))).complete, true)
    }
    for (const merge of merges) {
      const merged = await runCli(merge.map(inDir))
      assert.equal(merged.code, 0, merged.stderr)
      const doc = readJson(inDir(optionOf(merge, '--out')))
      assert.equal(doc.complete, true)
      assert.equal(doc.env.shards.length, runs.filter((r) => scenarioOf(r) === path.basename(optionOf(merge, '--out'), '.json')).length)
    }
    const reported = await runCli(report, { cwd: dir })
    assert.equal(reported.code, 0, reported.stderr)
    const seedPage = fs.readFileSync(path.join(dir, pages[0].out), 'utf8')
    // Each transport's tables and charts are on a detail page of its own, listed under Details.
    assert.match(seedPage, /## At a glance[\s\S]*## Then and now[\s\S]*## Details\n[\s\S]*\n- \[Console[^\n]*\n(- [^\n]*\n)*- \[Filesystem/)
    assert.ok(fs.existsSync(path.join(dir, 'images', 'console', 'benchmarks.png')))
    const httpPage = fs.readFileSync(path.join(dir, pages[1].out), 'utf8')
    assert.match(httpPage, /## HTTP route logging/)
    assert.match(seedPage, new RegExp(`\\]\\(${path.basename(pages[1].out).replace('.', '\\.')}\\)`), 'the seed page links the HTTP page')
    const workloadsPage = fs.readFileSync(path.join(dir, pages[2].out), 'utf8')
    assert.match(workloadsPage, /## At a glance[\s\S]*\| Workload +\|[\s\S]*## Workloads[\s\S]*## Details\n[\s\S]*\n- \[Console: object workload\]/)
    assert.ok(fs.existsSync(path.join(dir, pages[2].images, 'console', 'benchmarks-object.png')))
    const versionsPage = fs.readFileSync(path.join(dir, pages[3].out), 'utf8')
    assert.match(versionsPage, /## Console[\s\S]*## HTTP route logging/, 'the versions page holds its run and http cells')
    const durabilityPage = fs.readFileSync(path.join(dir, pages.find((p) => p.out.endsWith('durability.md')).out), 'utf8')
    assert.match(durabilityPage, /## Do the logs survive\?[\s\S]*### Console: kept of logged, per ending[\s\S]*### Filesystem: kept of logged, per ending/)
    assert.doesNotMatch(durabilityPage, /## At a glance/, 'the durability page shows its own section only')
    const latencyPage = fs.readFileSync(path.join(dir, pages.find((p) => p.out.endsWith('latency.md')).out), 'utf8')
    assert.match(latencyPage, /## What does a log call cost a latency-sensitive service\?[\s\S]*### The knee[\s\S]*### When the destination cannot keep up/)
    const burstPage = fs.readFileSync(path.join(dir, pages.find((p) => p.out.endsWith('burst-size.md')).out), 'utf8')
    assert.match(burstPage, /## Does the burst size change the answer\?/)
    const overloadPage = fs.readFileSync(path.join(dir, pages.find((p) => p.out.endsWith('overload.md')).out), 'utf8')
    assert.match(overloadPage, /### When the destination cannot keep up[\s\S]*\| raw:each +\| +Console \| stalled 100 ms \| +paced at 1,000\/s/)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
