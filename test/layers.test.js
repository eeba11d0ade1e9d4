import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src')

// The folders of src/ from the ground up: a file may import from its own folder and from the
// layers below its own, never from its layer or above (the files directly in src/ are the ground).
const LAYERS = [
  ['.'],
  ['engine'],
  ['versions'],
  ['loggers', 'sinks', 'results'],
  ['runner'],
  ['draw'],
  ['run'],
  ['http'],
  ['report'],
  ['api'],
  ['cli']
]
const layerOf = (folder) => LAYERS.findIndex((names) => names.includes(folder))

function sourceFiles (dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(file)
    return /\.[cm]?js$/.test(entry.name) ? [file] : []
  })
}

const folderOf = (file) => {
  const parts = path.relative(SRC, file).split(path.sep)
  return parts.length > 1 ? parts[0] : '.'
}

// Static imports, re-exports and dynamic imports of a relative path.
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g

function imports () {
  const found = []
  for (const file of sourceFiles(SRC)) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(file), match[1] ?? match[2] ?? match[3])
      if (!target.startsWith(SRC + path.sep)) continue
      found.push({
        from: path.relative(SRC, file),
        to: path.relative(SRC, target),
        fromFolder: folderOf(file),
        toFolder: folderOf(target)
      })
    }
  }
  return found
}

test('the import scan finds the imports it is meant to judge', () => {
  const found = imports()
  assert.ok(found.some((i) => i.from === path.join('loggers', 'pino.js') && i.to === path.join('engine', 'workloads.js')))
  assert.ok(found.some((i) => i.fromFolder === 'cli' && i.toFolder === 'report'))
})

test('every folder of src/ has a layer', () => {
  const folders = new Set(sourceFiles(SRC).map(folderOf))
  const missing = [...folders].filter((folder) => layerOf(folder) < 0)
  assert.deepEqual(missing, [], `give ${missing.join(', ')} a place in LAYERS of test/layers.test.js`)
})

test('layers only point down: no folder of src/ imports one on its own layer or above', () => {
  const upward = imports()
    .filter((i) => i.fromFolder !== i.toFolder && layerOf(i.toFolder) >= layerOf(i.fromFolder))
    .map((i) => `src/${i.from} -> src/${i.to}`)
  assert.deepEqual(upward, [], 'move the shared code down a layer (src/engine/ holds what run types, adapters and receivers share)')
})
