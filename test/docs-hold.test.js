import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { reproducibleScenario } from '../src/report/markdown.js'
import { escapeRegExp, ROOT, runCli, tmpDir } from './helpers.js'

// Docs and pages that hold, checked (issue 54, item 4).

test('a page\'s Reproduce block gives a command that runs: a scenario file of one\'s own by its path, a shipped one by name', async () => {
  const shipped = new Set(['quick', 'workloads'])
  assert.equal(reproducibleScenario('quick', shipped), 'quick')
  assert.equal(reproducibleScenario('scenarios/workloads.json', shipped), 'workloads')
  assert.equal(reproducibleScenario('tiny.json', shipped), './tiny.json')
  assert.equal(reproducibleScenario('my/tiny.json', shipped), 'my/tiny.json')
  assert.equal(reproducibleScenario('$(rm -rf ~).json', shipped), null)

  const dir = tmpDir()
  fs.writeFileSync(path.join(dir, 'tiny.json'), JSON.stringify({ name: 'tiny', run: [{ libs: ['noop'], transports: ['file'], cpus: [1], events: 100, runs: 1 }] }))
  const ran = await runCli(['run', '--scenario', 'tiny.json', '--out', 'r.json'], { cwd: dir })
  assert.equal(ran.code, 0, ran.stderr)
  fs.writeFileSync(path.join(dir, 'pages.json'), JSON.stringify({ pages: [{ out: 'page.md', title: 'Mine', label: 'Mine', results: ['r.json'], images: 'images' }] }))
  const reported = await runCli(['report', '--pages', 'pages.json'], { cwd: dir })
  assert.equal(reported.code, 0, reported.stderr)
  const page = fs.readFileSync(path.join(dir, 'page.md'), 'utf8')
  const command = page.match(/^npx log-bench@[\d.]+ run --scenario (\S+) --out r\.json$/m)
  assert.ok(command, page)
  assert.equal(command[1], './tiny.json')
  assert.match(page, /`\.\/tiny\.json` is a scenario file of the measurer's own, not shipped with log-bench/)
  // The command as the page gives it, from the directory the runs began in.
  const again = await runCli(['run', '--scenario', command[1], '--out', 'again.json'], { cwd: dir })
  assert.equal(again.code, 0, again.stderr)
  fs.rmSync(dir, { recursive: true, force: true })
})

test('quick\'s time is one figure wherever it is given: README, docs/scenarios.md and the scenario\'s description', () => {
  const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8')
  const description = JSON.parse(read('scenarios/quick.json')).description
  const readmeLine = read('README.md').split('\n').find((l) => l.includes('--scenario quick'))
  const scenariosLine = read('docs/scenarios.md').split('\n').find((l) => l.includes('--scenario quick'))
  for (const [where, text] of [['scenarios/quick.json', description], ['README.md', readmeLine], ['docs/scenarios.md', scenariosLine]]) {
    assert.match(text, /about a minute/i, `${where}: ${text}`)
    assert.doesNotMatch(text, /under a minute|a few minutes/i, `${where}: ${text}`)
  }
})

test('where the docs say what the results workflow runs, every command and option they name is in .github/workflows/results.yml', () => {
  const workflow = fs.readFileSync(path.join(ROOT, '.github', 'workflows', 'results.yml'), 'utf8')
  // The measuring command is a template over the job matrix: the docs name its expansions.
  const matrix = [...workflow.matchAll(/^\s+- \{ scenario: ([\w-]+), k: (\d+), n: (\d+) \}$/gm)].map(([, scenario, k, n]) => ({ scenario, k, n }))
  const expand = (command) => (command.includes('${{ matrix.')
    ? matrix.map((entry) => command.replace(/\$\{\{ matrix\.(\w+) \}\}/g, (_, key) => entry[key]))
    : [command])
  const commands = [...workflow.matchAll(/run: (npx log-bench .+)$/gm)].flatMap((m) => expand(m[1].trim()))
  const claims = []
  for (const file of ['docs/versions.md', 'docs/development.md', 'docs/reports.md', 'README.md']) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/\n(?!\n)/g, ' ')
    // The sentences that say what the workflow runs.
    for (const sentence of text.split(/(?<=[.:])\s+(?=[A-Z`])/).filter((s) => /workflow runs|results\.yml` runs/.test(s))) {
      for (const [, span] of sentence.matchAll(/`([^`]+)`/g)) claims.push({ file, span })
    }
  }
  assert.ok(claims.some((c) => c.file === 'docs/versions.md'), 'docs/versions.md says what the workflow runs')
  for (const { file, span } of claims) {
    if (span.startsWith('npx log-bench')) {
      const pattern = new RegExp(`^${escapeRegExp(span).replace(/<[a-z]+>/g, '[\\w-]+')}$`)
      assert.ok(commands.some((c) => pattern.test(c)), `${file}: the workflow runs no \`${span}\``)
    } else if (span.startsWith('--')) {
      assert.ok(workflow.includes(span.split(' ')[0]), `${file}: the workflow uses no ${span}`)
    } else if (['merge', 'report', 'compare', 'run'].includes(span)) {
      assert.ok(commands.some((c) => c.startsWith(`npx log-bench ${span}`)), `${file}: the workflow runs no log-bench ${span}`)
    }
  }
})

test('an installed user is given commands that exist in the package: a script\'s path under node_modules, not a clone\'s npm script', async () => {
  const { runnableHere } = await import('../src/paths.js')
  const text = 'shown by `node benchmarks/anomalies.js shift`; `benchmarks/anomalies.js writestream`; the plain scripts of `npm run bench:durability`'
  assert.equal(runnableHere(text, { root: '/work/project/node_modules/log-bench', cwd: '/work/project' }),
    'shown by `node node_modules/log-bench/benchmarks/anomalies.js shift`; `node_modules/log-bench/benchmarks/anomalies.js writestream`; the plain scripts of `node node_modules/log-bench/benchmarks/durability.js`')
  assert.equal(runnableHere(text, { root: '/work/project/node_modules/log-bench', cwd: '/work/project/src' }).match(/`node (\S+) shift`/)[1], '../node_modules/log-bench/benchmarks/anomalies.js')
  // In a clone the commands run from its root as written.
  assert.equal(runnableHere(text, { root: '/home/me/log-bench', cwd: '/home/me/log-bench' }), text)
  // Every script the anomalies and pages name is in the package.
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
  assert.ok(pkg.files.includes('benchmarks/'))
  const named = new Set()
  for (const file of ['src/results/judge/known-causes.json', 'src/results/judge/anomalies.js', 'src/report/run/durability-section.js']) {
    for (const [, script] of fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/benchmarks\/([\w-]+\.js)/g)) named.add(script)
    for (const [, name] of fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/npm run bench:([\w-]+)/g)) named.add(`${name}.js`)
  }
  for (const script of named) assert.ok(fs.existsSync(path.join(ROOT, 'benchmarks', script)), script)
})
