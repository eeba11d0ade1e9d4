import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT } from './helpers.js'

// What `npm pack` would put in the tarball, without writing it.
function packed () {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  const [info] = JSON.parse(out)
  return { ...info, paths: new Set(info.files.map((f) => f.path)) }
}

const MAX_PACKED_BYTES = 1.5 * 1024 * 1024

test('the package holds the tool, not its charts, tests, results or CI files, and stays small', () => {
  const pack = packed()
  const unwanted = [...pack.paths].filter((p) => /^(images|test|results|docker|\.github|\.ci|build|node_modules)\//.test(p))
  assert.deepEqual(unwanted, [])
  assert.ok(pack.size < MAX_PACKED_BYTES, `packed ${pack.size} bytes, more than ${MAX_PACKED_BYTES}`)
  for (const needed of ['bin/log-bench.js', 'binding.gyp', 'scripts/build-native.js', 'native/udp_receiver.c', 'native/pipe_reader.c', 'scenarios/schema.json', 'scenarios/quick.json', 'README.md']) {
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
