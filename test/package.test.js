import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, tmpDir } from './helpers.js'
import { assertApiUse, assertRequired, requireApi, useApi } from './api-helpers.js'

// The tarball `npm pack` writes, packed once for every test here: its contents, size and file.
let tarball
function packed () {
  if (!tarball) {
    const dir = tmpDir('lb-package-')
    const [info] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))
    tarball = { ...info, file: path.join(dir, info.filename), paths: new Set(info.files.map((f) => f.path)) }
  }
  return tarball
}

const MAX_PACKED_BYTES = 1.5 * 1024 * 1024

test('the package holds the tool, not its charts, tests, results or CI files, and stays small', () => {
  const pack = packed()
  const unwanted = [...pack.paths].filter((p) => /^(images|test|results|docker|\.github|\.ci|build|node_modules)\//.test(p))
  assert.deepEqual(unwanted, [])
  assert.ok(pack.size < MAX_PACKED_BYTES, `packed ${pack.size} bytes, more than ${MAX_PACKED_BYTES}`)
  for (const needed of ['bin/log-bench.js', 'src/api/index.js', 'index.d.ts', 'schema/results.schema.json', 'binding.gyp', 'scripts/build-native.js', 'native/udp_receiver.c', 'native/pipe_reader.c', 'scenarios/schema.json', 'scenarios/quick.json', 'README.md']) {
    assert.ok(pack.paths.has(needed), `${needed} is not in the package`)
  }
})

test('every file the packed code imports or reads by a relative path is packed too', () => {
  const pack = packed()
  const code = [...pack.paths].filter((p) => /^(bin|src)\/.*\.js$/.test(p))
  assert.ok(code.length > 50, `only ${code.length} source files packed`)
  const missing = []
  for (const file of code) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8')
    for (const match of text.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1] ?? match[2]))
      if (!pack.paths.has(target)) missing.push(`${file} -> ${target}`)
    }
  }
  assert.deepEqual(missing, [])
  for (const scenario of fs.readdirSync(path.join(ROOT, 'scenarios'))) assert.ok(pack.paths.has(`scenarios/${scenario}`), `scenarios/${scenario} is not packed`)
})

// The API from the registry's point of view: the tarball installed into a fresh `npm init -y`
// project (dependencies from the registry, the native receivers built by the install script), used
// by a user's script that imports 'log-bench'. About two minutes, most of it npm install.
test('from the packed tarball in a fresh project: import { run, compare } from \'log-bench\' runs, compares and prints nothing; require(\'log-bench\') from CommonJS runs too', { timeout: 600_000 }, () => {
  // A folder named as npm names a package: npm init -y takes its name from it.
  const project = path.join(tmpDir('lb-package-'), 'project')
  fs.mkdirSync(project)
  execFileSync('npm', ['init', '-y'], { cwd: project, stdio: 'ignore' })
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', packed().file], { cwd: project, stdio: 'ignore', timeout: 540_000 })
  const installed = path.join(project, 'node_modules', 'log-bench')
  assertApiUse(useApi('log-bench', project), { schemaFile: path.join(installed, 'schema', 'results.schema.json') })
  assertRequired(requireApi('log-bench', project))
  assert.equal(JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).types, './index.d.ts')
  assert.ok(fs.existsSync(path.join(installed, 'index.d.ts')))
})
