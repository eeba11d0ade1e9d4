import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT } from './helpers.js'
import { validatorsSource, VALIDATORS_MODULE } from '../scripts/results-validators.js'
import { cellKey } from '../src/results/model.js'
import { RUN_TYPES } from '../src/results/run-types/index.js'
import { identityFields, recordDefinition, recordDimensions, recordFields, recordMeasures, uncountedFields } from '../src/results/schema.js'

// The schema (schema/results.schema.json) is the one definition of a run record: each run type's
// dimensions, summary identity, measures and what a counted run leaves out are read from its
// annotations (x-dimension, x-identity, x-measure, x-counted). These tests fail when code lists
// them again, and when an edit of the schema would change every cell key.

// Every x-measure of a type, wherever it sits: [{ path, measure }].
function annotatedMeasures (typeName) {
  return recordFields(typeName).flatMap(({ field, schema }) => [
    ...[schema['x-measure'] ?? []].flat().map((measure) => ({ path: field, measure })),
    ...Object.entries(schema.properties ?? {}).flatMap(([member, inner]) => [inner['x-measure'] ?? []].flat().map((measure) => ({ path: `${field}.${member}`, measure })))
  ])
}

test('each run type\'s dimensions, identity and measures are the schema\'s annotated ones', () => {
  for (const type of RUN_TYPES) {
    assert.deepEqual(type.dimensions, recordDimensions(type.name), type.name)
    const annotated = annotatedMeasures(type.name).sort((a, b) => a.measure.order - b.measure.order)
    assert.deepEqual(type.measures.map((m) => m.field), annotated.map(({ path, measure }) => measure.name ?? path), `${type.name}: every measure of the schema, and only those, in its order`)
    assert.deepEqual(annotated.map(({ measure }) => measure.order), annotated.map((_, i) => i + 1), `${type.name}: x-measure orders run 1..N`)
    for (const m of type.measures) assert.ok(m.better !== undefined, `${type.name} ${m.field}: x-measure says better (null where neither way is)`)
    assert.deepEqual(Object.keys(type.identity({ type: type.name })), identityFields(type.name), type.name)
  }
})

test('the cell key\'s order is the one every results file was keyed by', () => {
  // A renumbered x-dimension changes every cell key, and --resume and merge with existing files. An
  // appended one (http's alternate) reads null in older records: keys are made when a file is
  // read, never stored, so those still resume and merge. run's profile (18) moved http's own
  // dimensions one place on: an http record has no profile, so its key holds a null there, whether
  // written before or after. run's cores (19, run --cores) did the same: a record without it, and
  // every http record, holds null there (every CPU); run's burst (20, run --burst) likewise: null is
  // every event in one loop.
  const run = { type: 'run', lib: 'pino', libVersion: '9.0.0', variant: 'default', workload: 'string', runtime: 'node 22', transport: 'file', sink: 'file', cpus: 2, events: 1000, size: 13, ending: 'close', measure: 'time' }
  assert.equal(cellKey(run), '["run","pino","9.0.0","default","string","node 22","file","file",2,1000,13,null,"close",null,null,"time",null,null,null,null]')
  assert.equal(cellKey({ ...run, profile: true }), '["run","pino","9.0.0","default","string","node 22","file","file",2,1000,13,null,"close",null,null,"time",null,true,null,null]')
  assert.equal(cellKey({ ...run, cores: 1 }), '["run","pino","9.0.0","default","string","node 22","file","file",2,1000,13,null,"close",null,null,"time",null,null,1,null]')
  assert.equal(cellKey({ ...run, cores: null }), cellKey(run), 'cores null is a record without it: every CPU')
  const http = { ...run, type: 'http', mode: 'route', middleware: null, logsPerRequest: 1, connections: 10, pipelining: 1, durationSeconds: 5, warmupSeconds: 1 }
  assert.equal(cellKey(http), '["http","pino","9.0.0","default","string","node 22","file","file",2,1000,13,null,"close",null,null,"time",null,null,null,null,"route",null,1,10,1,5,1,null,null,null]')
})

test('what a counted run leaves out is the schema\'s x-counted: false', () => {
  assert.ok(uncountedFields('run').includes('doneMs'))
  assert.ok(uncountedFields('http').includes('reqPerSec'))
  for (const type of RUN_TYPES) {
    for (const field of uncountedFields(type.name)) assert.ok(recordDefinition(type.name).properties[field], `${type.name} ${field}`)
  }
})

// Compiling in strict mode also checks that the validator knows every annotation the schema uses.
test('src/results/validators.js is what scripts/results-validators.js compiles from the schema', () => {
  assert.equal(fs.readFileSync(VALIDATORS_MODULE, 'utf8'), validatorsSource(), 'run npm run docs:results')
})

test('a measure named apart from what it reads needs its value in code, and code for an unknown measure is refused', () => {
  assert.throws(() => recordMeasures('run'), /gcPer10kEvents .*needs a value function/)
  assert.throws(() => recordMeasures('http', { eventLoopDelayP99Ms: { value: () => 1 }, notAMeasure: { value: () => 1 } }), /notAMeasure/)
})

// The lists the schema holds, as code would spell them again: a literal array holding most (80%,
// at least four) of one kind's names (dimensions, fields a counted run leaves out), or measure
// objects ({ field: 'doneMs', … }) naming most of a type's measures, in a source file. Subsets for
// one purpose (a label's fields, compare's row identity) are not the list.
function relisted (text, kinds) {
  const found = []
  const most = (names, known) => names.filter((n) => known.has(n)).length >= Math.max(4, 0.8 * known.size)
  for (const [array] of text.matchAll(/\[\s*'[^'\n]+'(?:\s*,\s*'[^'\n]+')+\s*\]/g)) {
    const names = [...new Set([...array.matchAll(/'([^']+)'/g)].map((m) => m[1]))]
    for (const { what, names: known } of kinds) if (most(names, known)) found.push(`${what} ${array.slice(0, 60)}…`)
  }
  const fields = [...new Set([...text.matchAll(/\bfield: '([^']+)'/g)].map((m) => m[1]))]
  for (const { what, names: known } of kinds) if (what.endsWith('measures') && most(fields, known)) found.push(`${what} as { field: … } objects`)
  return found
}

const kinds = RUN_TYPES.flatMap((type) => [
  { what: `${type.name} dimensions`, names: new Set(type.dimensions) },
  { what: `${type.name} measures`, names: new Set(type.measures.map((m) => m.field)) },
  { what: `${type.name} x-counted fields`, names: new Set(uncountedFields(type.name)) }
])

test('no source file lists again what the schema defines', () => {
  const files = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : []))
  const found = files(path.join(ROOT, 'src')).flatMap((file) => relisted(fs.readFileSync(file, 'utf8'), kinds).map((what) => `${path.relative(ROOT, file)}: ${what}`))
  assert.deepEqual(found, [])
})

test('the re-listing check sees the hand-kept lists the schema replaced', () => {
  const dimensions = "const DIMENSIONS = ['type', 'lib', 'libVersion', 'variant', 'workload', 'runtime', 'transport', 'sink', 'cpus', 'events', 'size', 'rate', 'ending', 'receiverRate', 'receiverStallMs', 'measure', 'instructionsMethod']"
  assert.deepEqual(relisted(dimensions, kinds), [`run dimensions ${dimensions.slice(19, 79)}…`])
  const simulated = `const SIMULATED = [${uncountedFields('http').map((f) => `'${f}'`).join(', ')}]`
  assert.equal(relisted(simulated, kinds).length, 1)
  const measures = RUN_TYPES[0].measures.map((m) => `{ field: '${m.field}', unit: '${m.unit}' }`).join(',\n')
  assert.deepEqual(relisted(measures, kinds), ['run measures as { field: … } objects'])
})
