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
