import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import Ajv from 'ajv/dist/2020.js'
import { ROOT, tmpDir } from './helpers.js'
import { ANNOTATIONS } from '../src/results/schema.js'

// The API as a user meets it, shared by test/api.test.js (this repository) and test/package.test.js
// (the packed tarball in a fresh project).

// Strict: every field of every record must be described (additionalProperties: false), unlike the
// reader, which passes fields it does not know.
export function strictValidator (schemaFile = path.join(ROOT, 'schema', 'results.schema.json')) {
  const ajv = new Ajv({ allErrors: true, strict: true })
  for (const keyword of ANNOTATIONS) ajv.addKeyword(keyword)
  return ajv.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')))
}

export function assertValid (doc, schemaFile) {
  const validate = strictValidator(schemaFile)
  const ok = validate(doc)
  assert.ok(ok, JSON.stringify(validate.errors?.slice(0, 5), null, 1))
}

// A user's script from fixtures/api, in the project `cwd`: copied there, since 'log-bench' named from
// a file inside this repository resolves to the repository itself (a package's self-reference by its
// name), never to the copy the project installed.
function userScript (name, cwd) {
  const fixture = path.join(ROOT, 'test', 'fixtures', 'api', name)
  if (cwd === ROOT) return fixture
  fs.copyFileSync(fixture, path.join(cwd, name))
  return path.join(cwd, name)
}

// A user's script (fixtures/api/use.mjs) in a process of its own, so that its stdout is its own.
export function useApi (from, cwd = ROOT) {
  const out = path.join(tmpDir(), 'seen.json')
  const result = spawnSync(process.execPath, [userScript('use.mjs', cwd), from, out], { cwd, encoding: 'utf8', timeout: 300_000 })
  assert.equal(result.status, 0, result.stderr)
  return { ...JSON.parse(fs.readFileSync(out, 'utf8')), stdout: result.stdout }
}

// The Done-when of the API, in the package and in this repository alike.
export function assertApiUse (seen, { schemaFile } = {}) {
  assert.equal(seen.stdout, '')
  assert.deepEqual(seen.listeners.after, seen.listeners.before)
  assert.equal(seen.exitCode, null)
  const { doc, comparison } = seen
  assert.equal(doc.runs.length, 4)
  for (const record of doc.runs) assert.equal(record.status, 'ok', record.error)
  assert.deepEqual(doc.runs.filter((r) => r.lib === 'raw').map((r) => r.received), [2000, 2000])
  assert.equal(doc.complete, true)
  assert.equal(doc.env.command, 'log-bench run --lib raw,noop --transport file --events 2000 --runs 2')
  assert.deepEqual(seen.seen.sort(), ['noop ok', 'noop ok', 'raw ok', 'raw ok'])
  assertValid(doc, schemaFile)
  const noop = comparison.comparisons.filter((row) => /^noop\b/.test(row.cell))
  assert.ok(noop.length > 0, JSON.stringify(comparison))
  for (const row of noop) assert.ok(['faster', 'slower', 'same', 'unclear'].includes(row.verdict), row.verdict)
}

// A CommonJS script (fixtures/api/require.cjs) that require()s log-bench from `from` and runs it.
export function requireApi (from, cwd = ROOT) {
  const out = path.join(tmpDir(), 'required.json')
  const result = spawnSync(process.execPath, [userScript('require.cjs', cwd), from, out], { cwd, encoding: 'utf8', timeout: 300_000 })
  assert.equal(result.status, 0, result.stderr)
  assert.equal(result.stderr, '')
  return JSON.parse(fs.readFileSync(out, 'utf8'))
}

export function assertRequired (required) {
  assert.deepEqual(required.exports, ['Interrupted', 'RESULTS_SCHEMA_FILE', 'UsageError', 'compare', 'http', 'report', 'run'])
  assert.deepEqual(required.runs, [{ status: 'ok', error: null, sent: 2000, received: 2000 }])
}
