import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, leftovers, runCli, tmpDir } from './helpers.js'

// The example workflow for a logger's repository (docs/examples/benchmark-pr.yml) cannot run here, so
// its log-bench steps are run as written, read from the file, in a stand-in checkout: a package
// named pino whose code is the installed pino with 0.2 ms of busy work after each call, with the
// example adapter (docs/examples/pr-adapter.mjs) as bench/log-bench-adapter.mjs. The stand-ins: the
// release is the installed pino instead of pino@latest from the registry, and 2,000 events. The
// handicap is that large (0.4 s a run, against pino's few ms) so that the verdict cannot depend on the
// load of the machine the tests share: what is tested is the workflow, not the resolution of wall
// time (docs/comparisons.md measures that).
const WORKFLOW = path.join(ROOT, 'docs', 'examples', 'benchmark-pr.yml')
const HANDICAP_NS = 200_000

function workflow () {
  const text = fs.readFileSync(WORKFLOW, 'utf8')
  const commands = text.split('\n').map((line) => /^\s+run: npx log-bench (.+)$/.exec(line)?.[1]).filter(Boolean)
  return { text, run: commands.find((c) => c.startsWith('run ')), compare: commands.find((c) => c.startsWith('compare ')) }
}

function standInCheckout () {
  const dir = tmpDir('lb-pr-')
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'pino', version: '10.99.0', main: 'index.js' }))
  fs.writeFileSync(path.join(dir, 'index.js'), `'use strict'
const pino = require(${JSON.stringify(path.join(ROOT, 'node_modules', 'pino'))})
// The change under review: ${HANDICAP_NS} ns of busy work after each call.
function handicapped (...args) {
  const logger = pino(...args)
  const info = logger.info
  logger.info = function (...message) {
    info.apply(this, message)
    const until = process.hrtime.bigint() + ${HANDICAP_NS}n
    while (process.hrtime.bigint() < until);
  }
  return logger
}
module.exports = Object.assign(handicapped, pino)
`)
  fs.mkdirSync(path.join(dir, 'bench'))
  fs.copyFileSync(path.join(ROOT, 'docs', 'examples', 'pr-adapter.mjs'), path.join(dir, 'bench', 'log-bench-adapter.mjs'))
  return dir
}

test('the pull-request workflow: the checkout against the release in one run, the gate fails on a handicapped checkout, the comment is short', async () => {
  const { text, run, compare } = workflow()
  assert.match(text, /^on:\n {2}pull_request:/m)
  assert.match(text, /pull-requests: write/)
  assert.match(run, /^run --lib \.\/bench\/log-bench-adapter\.mjs,pino@latest /, 'the checkout through its adapter, against the release by version')
  const [compareCommand, commentFile] = compare.split(' > ')
  assert.match(compareCommand, /--baseline pino --fail-on slower --markdown$/)
  assert.match(text, new RegExp(`--body-file ${commentFile.replace('.', '\\.')}`), 'the comment step posts what compare wrote')

  const dir = standInCheckout()
  const runArgs = run.replace('pino@latest', 'pino').replace(/--events \d+/, '--events 2000').split(/\s+/)
  const ran = await runCli(runArgs, { cwd: dir, timeoutMs: 300_000 })
  assert.equal(ran.code, 0, ran.stderr)
  assert.deepEqual(leftovers(ran.tag), [])
  const doc = JSON.parse(fs.readFileSync(path.join(dir, runArgs[runArgs.indexOf('--out') + 1]), 'utf8'))
  assert.deepEqual([...new Set(doc.runs.map((r) => `${r.lib} ${r.libVersion}`))].sort(), [`pino ${doc.runs.find((r) => r.lib === 'pino').libVersion}`, 'pino-pr 10.99.0'].sort())
  assert.ok(doc.runs.every((r) => r.ok && r.dropRate === 0), 'every run delivered every event')

  const gated = await runCli(compareCommand.split(/\s+/), { cwd: dir })
  assert.equal(gated.code, 3, gated.stderr)
  assert.match(gated.stderr, /^log-bench: --fail-on slower: \d+ of \d+ comparisons read slower \(/)
  const comment = gated.stdout
  assert.ok(comment.split('\n').length < 60, comment)
  assert.match(comment, /^### log-bench comparison\n\neach cell against `pino`: \*\*\d+ slower\*\*/)
  assert.match(comment, /^\| `pino-pr, (Console, 1 worker, pipe|Filesystem, 1 worker, file)` \| (unblocked|done) \(ms\) \| .* \| \*\*slower\*\* \|$/m)
  const ungated = await runCli(compareCommand.replace(' --fail-on slower', '').split(/\s+/), { cwd: dir })
  assert.equal(ungated.code, 0, ungated.stderr)
  assert.equal(ungated.stdout, comment)
})
