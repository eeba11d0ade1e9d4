import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { patchSonicBoom } from '../benchmarks/plain/patch-sonic-boom.js'
import { hashFiles, parseLocalRange } from '../src/versions/local.js'
import { RUN_TYPE } from '../src/results/run-types/run.js'
import { readJson, runCli, tmpDir } from './helpers.js'

// A maintainer's loop (docs/versions.md, "Local copies"): a library or one of its dependencies from a
// local folder or tarball, as a cell of its own beside the release.

describe('local copies of a library', () => {
  it('reads the local parts of --lib NAME@…', () => {
    assert.equal(parseLocalRange('9'), null)
    assert.equal(parseLocalRange('1.0.0+build'), null)
    assert.deepEqual(parseLocalRange('./pino'), { release: null, libPath: './pino', overrides: [] })
    assert.deepEqual(parseLocalRange('../pino-10.4.0.tgz'), { release: null, libPath: '../pino-10.4.0.tgz', overrides: [] })
    assert.deepEqual(parseLocalRange('+sonic-boom@./sb'), { release: null, libPath: null, overrides: [{ name: 'sonic-boom', path: './sb' }] })
    assert.deepEqual(parseLocalRange('10.4.0+sonic-boom@./sb+@scope/x@/abs/x'), { release: '10.4.0', libPath: null, overrides: [{ name: 'sonic-boom', path: './sb' }, { name: '@scope/x', path: '/abs/x' }] })
    assert.throws(() => parseLocalRange('10+sonic-boom@4'), /a dependency is given as a local folder or \.tgz/)
  })

  it('hashes a folder\'s files, not its node_modules', () => {
    const dir = tmpDir()
    fs.writeFileSync(path.join(dir, 'a.js'), 'one')
    const first = hashFiles(dir)
    fs.mkdirSync(path.join(dir, 'node_modules'))
    fs.writeFileSync(path.join(dir, 'node_modules', 'x.js'), 'ignored')
    assert.equal(hashFiles(dir), first)
    fs.writeFileSync(path.join(dir, 'a.js'), 'two')
    assert.notEqual(hashFiles(dir), first)
  })

  it('runs pino with a local sonic-boom (a folder, then a tarball) beside the release, and names its source', async () => {
    const dir = tmpDir()
    patchSonicBoom(path.join(dir, 'sb'))
    // The tarball's copy differs by one file: two copies, two cells (the same files would be one).
    fs.cpSync(path.join(dir, 'sb'), path.join(dir, 'pack', 'package'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'pack', 'package', 'NOTE.md'), 'packed\n')
    assert.equal(spawnSync('tar', ['-czf', 'sb.tgz', '-C', 'pack', 'package'], { cwd: dir }).status, 0)
    const out = path.join(dir, 'r.json')
    const result = await runCli(['run', '--lib', 'pino,pino+sonic-boom@./sb,pino+sonic-boom@./sb.tgz', '--transport', 'file', '--events', '500', '--runs', '1', '--cache', path.join(dir, 'cache'), '--out', out, '--quiet'], { cwd: dir })
    assert.equal(result.code, 0, result.stderr)
    const runs = readJson(out).runs
    assert.equal(runs.length, 3)
    const [release, ...local] = ['', './sb', './sb.tgz'].map((given) => runs.find((r) => (given ? r.libSource?.overrides[0].path === given : !r.libSource)))
    assert.equal(release.ok, true, release.error)
    for (const run of local) {
      assert.equal(run.ok, true, run.error)
      assert.equal(RUN_TYPE.validate(run), null)
      assert.match(run.libVersion, new RegExp(`^${release.libVersion.replace(/\./g, '\\.')}\\+local\\.[0-9a-f]{8}$`))
      assert.deepEqual([run.libSource.release, run.libSource.lib, run.libSource.overrides[0].name], [release.libVersion, null, 'sonic-boom'])
    }
    assert.equal(local[0].libSource.overrides[0].sha256, hashFiles(path.join(dir, 'sb')))
    assert.equal(local[1].libSource.overrides[0].sha256, hashFiles(path.join(dir, 'pack', 'package')))
    assert.notEqual(local[0].libVersion, local[1].libVersion)
    assert.match(result.stdout, /pino@[\d.]+\+local\.[0-9a-f]{8}/)
    // Set beside the release: --baseline pino names the release only.
    const compared = await runCli(['compare', out, '--baseline', 'pino'])
    assert.equal(compared.code, 0, compared.stderr)
    const rows = new Set(compared.stdout.match(/^\| pino@[\d.]+\+local\.[0-9a-f]{8}, Filesystem, 1 worker \|/gm))
    assert.equal(rows.size, 2, compared.stdout)
    assert.doesNotMatch(compared.stdout, /^\| pino, Filesystem/m)
  })

  it('refuses a folder that is not the package it is given as: one line, exit 2', async () => {
    const dir = tmpDir()
    fs.mkdirSync(path.join(dir, 'other'))
    fs.writeFileSync(path.join(dir, 'other', 'package.json'), '{"name":"other"}')
    for (const [lib, expected] of [
      ['pino+sonic-boom@./other', /^log-bench: --lib: \.\/other is not sonic-boom: its package\.json names "other"$/],
      ['pino@./other', /^log-bench: --lib: \.\/other is not pino: its package\.json names "other"$/],
      ['pino+sonic-boom@./missing', /^log-bench: --lib: \.\/missing does not exist/],
      ['noop+sonic-boom@./other', /the noop adapter runs the installed noop only; local copies work for/]
    ]) {
      const result = await runCli(['run', '--lib', lib, '--transport', 'file', '--events', '10', '--runs', '1', '--cache', path.join(dir, 'cache'), '--out', path.join(dir, 'r.json')], { cwd: dir })
      assert.equal(result.code, 2, result.stderr)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.match(result.stderr.trim(), expected)
      assert.equal(fs.existsSync(path.join(dir, 'r.json')), false)
    }
  })
})
