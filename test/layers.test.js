import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src')

// The folders of src/ from the ground up: a file may import from its own folder and from the
// layers below its own, never from its layer or above (the files directly in src/ are the ground).
// A folder's subfolders are of its layer: results/judge/ (the verdict, rank, knee, overload and
// anomaly rules) is results', report/run/ and report/http/ (each run type's sections) report's.
// draw/ sits above what measures (run/, http/), so that nothing there draws a page.
const LAYERS = [
  ['.'],
  ['engine'],
  ['versions'],
  ['loggers', 'sinks', 'results'],
  ['runner'],
  ['run'],
  ['http'],
  ['draw'],
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

// The import cycles of a graph (a Map from a file to the files it imports), each once, as its
// files in import order from its first file found: a depth-first search that reports a cycle
// whenever it reaches a file still on its path.
function importCycles (graph) {
  const cycles = []
  const seen = new Set()
  const onPath = []
  const visit = (file) => {
    const at = onPath.indexOf(file)
    if (at >= 0) {
      cycles.push(onPath.slice(at))
      return
    }
    if (seen.has(file)) return
    seen.add(file)
    onPath.push(file)
    for (const next of graph.get(file) ?? []) visit(next)
    onPath.pop()
  }
  for (const file of [...graph.keys()].sort()) visit(file)
  return cycles
}

function importGraph () {
  const graph = new Map()
  for (const { from, to } of imports()) {
    if (!graph.has(from)) graph.set(from, new Set())
    graph.get(from).add(to)
  }
  return graph
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

test('the cycle search finds a cycle in a small graph, and none where there is none', () => {
  const graph = new Map([
    ['a.js', ['b.js', 'd.js']],
    ['b.js', ['c.js']],
    ['c.js', ['a.js', 'd.js']],
    ['d.js', []]
  ])
  assert.deepEqual(importCycles(graph), [['a.js', 'b.js', 'c.js']])
  assert.deepEqual(importCycles(new Map([['self.js', ['self.js']]])), [['self.js']])
  graph.set('c.js', ['d.js'])
  assert.deepEqual(importCycles(graph), [])
})

test('no import cycle between the files of src/', () => {
  const cycles = importCycles(importGraph()).map((cycle) => [...cycle, cycle[0]].map((f) => `src/${f}`).join(' -> '))
  assert.deepEqual(cycles, [], 'a module imported while it is still being evaluated sees its imports unset: move what both need into a third file')
})
