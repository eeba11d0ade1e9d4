import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, readJson, tmpDir } from './helpers.js'

// A user's project with log-bench installed: its own package.json, and log-bench's dependencies
// hoisted beside log-bench in its node_modules (yargs among them), as npm installs them. Links stand
// for the copies, and Node keeps the links' paths (--preserve-symlinks), so every module sees the
// project's layout.
function installedIn (project) {
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'my-app', version: '9.9.9' }))
  const modules = path.join(project, 'node_modules')
  fs.mkdirSync(path.join(modules, 'log-bench'), { recursive: true })
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (!entry.startsWith('.')) fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry))
  }
  const packed = readJson(path.join(ROOT, 'package.json')).files.map((entry) => entry.split('/')[0])
  for (const entry of new Set([...packed, 'build', 'package.json'])) fs.symlinkSync(path.join(ROOT, entry), path.join(modules, 'log-bench', entry))
  return path.join(modules, 'log-bench', 'bin', 'log-bench.js')
}

test('log-bench --version is log-bench\'s own version, not the version of the project it is installed in', () => {
  const project = tmpDir('lb-project-')
  const bin = installedIn(project)
  const version = execFileSync(process.execPath, ['--preserve-symlinks', '--preserve-symlinks-main', bin, '--version'], { cwd: project, encoding: 'utf8' })
  assert.equal(version, `${readJson(path.join(ROOT, 'package.json')).version}\n`)
})

// The option tables take their value lists from small modules and each command imports its work when
// it runs, so that --version and --help start at once (npm run bench:startup times them). Loading
// one of these packages for them is the regression: their import took --version to about 2 s.
const HEAVY = ['@napi-rs/canvas', 'chart.js', 'ajv', 'protobufjs', 'hdr-histogram-js', 'semver', 'express', 'autocannon']

test('--version and every --help load neither the charts nor the result model, receivers or servers, and --help not yargs', () => {
  const dir = tmpDir('lb-imports-')
  for (const args of [['--version'], ['--help'], ...['run', 'http', 'report', 'compare', 'merge', 'sink', 'list'].map((command) => [command, '--help'])]) {
    const record = path.join(dir, `${args.join('-')}.txt`)
    execFileSync(process.execPath, ['--import', path.join(ROOT, 'test', 'fixtures', 'record-imports.mjs'), path.join(ROOT, 'bin', 'log-bench.js'), ...args], { env: { ...process.env, LOG_BENCH_IMPORTS: record }, stdio: 'ignore' })
    const urls = fs.readFileSync(record, 'utf8').trim().split('\n')
    assert.ok(urls.some((url) => url.endsWith('/src/cli/main.js')), `the record of log-bench ${args.join(' ')} holds its imports`)
    // --help is written without yargs (src/cli/help.js); --version is yargs'.
    assert.equal(urls.some((url) => url.includes('/node_modules/yargs/')), args[0] === '--version', `log-bench ${args.join(' ')} and yargs`)
    const heavy = urls.filter((url) => HEAVY.some((name) => url.includes(`/node_modules/${name}/`)))
    assert.deepEqual(heavy, [], `log-bench ${args.join(' ')} imported what only a command's work needs: take the option tables' values from a small module, import the rest in the command's handler`)
  }
})
