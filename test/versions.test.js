import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { UsageError } from '../src/errors.js'
import { splitVariant } from '../src/loggers/index.js'
import { cellKey } from '../src/results/model.js'
import { ownerOf } from '../src/engine/run-dir.js'
import { cacheRoot, cachedVersions, checkRange, ensureInstalled, npmFailure, withLock } from '../src/versions/cache.js'
import { parseRuntimes } from '../src/versions/runtimes.js'
import { leftovers, readJson, runCli, tmpDir } from './helpers.js'

// A cache entry as an install leaves it, without npm: what --lib and list --versions find offline.
function fakeInstall (root, kind, packageName, version, { complete = true } = {}) {
  const dir = path.join(root, kind, `${packageName.replace('/', '+')}@${version}`)
  fs.mkdirSync(path.join(dir, 'node_modules', packageName), { recursive: true })
  fs.writeFileSync(path.join(dir, 'node_modules', packageName, 'package.json'), JSON.stringify({ name: packageName, version }))
  if (complete) fs.writeFileSync(path.join(dir, '.log-bench-complete'), `${packageName}@${version}\n`)
  return dir
}

// The registry is reached only where a test needs a real published version; without it (no network)
// those tests are skipped with the reason, and CI, which has the registry, runs them.
let registry = null
function registrySkip () {
  if (registry === null) {
    try {
      execFileSync('npm', ['view', 'pino@9.14.0', 'version', '--fetch-retries=0', '--fetch-timeout=10000'], { stdio: 'ignore', timeout: 30_000 })
      registry = false
    } catch {
      registry = 'the npm registry is unreachable from here'
    }
  }
  return registry
}

describe('the version cache', () => {
  it('lives in --cache, else $XDG_CACHE_HOME/log-bench, else ~/.cache/log-bench', () => {
    assert.equal(cacheRoot('/x/y'), '/x/y')
    assert.equal(cacheRoot(null, { XDG_CACHE_HOME: '/xdg' }), '/xdg/log-bench')
    // A relative XDG_CACHE_HOME is invalid by the XDG rule and ignored.
    assert.match(cacheRoot(null, { XDG_CACHE_HOME: 'rel' }), /\.cache[\\/]log-bench$/)
    assert.match(cacheRoot(null, {}), /\.cache[\\/]log-bench$/)
  })

  it('lists complete installs only, newest first', () => {
    const root = tmpDir()
    fakeInstall(root, 'libs', 'pino', '9.14.0')
    fakeInstall(root, 'libs', 'pino', '10.4.0')
    fakeInstall(root, 'libs', 'pino', '8.0.0', { complete: false })
    fakeInstall(root, 'libs', 'pinot', '1.0.0')
    fakeInstall(root, 'runtimes', '@oven/bun-linux-x64', '1.4.5')
    assert.deepEqual(cachedVersions(root, 'libs', 'pino').map((v) => v.version), ['10.4.0', '9.14.0'])
    assert.deepEqual(cachedVersions(root, 'runtimes', '@oven/bun-linux-x64').map((v) => v.version), ['1.4.5'])
    assert.deepEqual(cachedVersions(path.join(root, 'none'), 'libs', 'pino'), [])
  })

  it('uses an exact version already cached without asking the registry', async () => {
    const root = tmpDir()
    const dir = fakeInstall(root, 'libs', 'pino', '9.14.0')
    const lines = []
    const got = await ensureInstalled({ root, kind: 'libs', packageName: 'pino', range: '9.14.0', progress: (l) => lines.push(l) })
    assert.deepEqual(got, { version: '9.14.0', dir, installed: false })
    assert.deepEqual(lines, [])
  })

  it('refuses a range that is neither a semver range nor a dist-tag, before any npm', () => {
    assert.throws(() => checkRange('pino', '!!'), (err) => err instanceof UsageError && /neither a version range/.test(err.message))
    checkRange('pino', '9')
    checkRange('pino', '>=5 <7')
    checkRange('pino', 'latest')
  })

  it("turns npm's failures into one line", () => {
    assert.match(npmFailure('pino', '99', { code: 'E404', summary: 'No match found for version 99' }, ''), /^no published version of pino matches "99"/)
    assert.match(npmFailure('nosuch', '*', { code: 'E404', summary: 'Not Found - GET https://registry.npmjs.org/nosuch' }, ''), /nosuch is not in the npm registry/)
    assert.match(npmFailure('pino', '9', null, 'npm error code ETARGET\nnpm error notarget No matching version found for pino@9.'), /no published version of pino matches/)
    assert.match(npmFailure('pino', '9', null, 'npm error code EAI_AGAIN\nnpm error request to https://registry.npmjs.org failed'), /unreachable \(EAI_AGAIN\)/)
    assert.doesNotMatch(npmFailure('pino', '9', null, 'npm error code EACCES\nnpm error syscall mkdir\nnpm error permission denied'), /\n/)
  })

  it('takes over a lock left by a process that is gone, and waits for a live one', async () => {
    const root = tmpDir()
    const lock = path.join(root, '.install.lock')
    fs.writeFileSync(lock, '999999999')
    assert.deepEqual(JSON.parse(await withLock(root, () => {}, async () => fs.readFileSync(lock, 'utf8'))), ownerOf(process.pid))
    assert.equal(fs.existsSync(lock), false)
    // A live owner (this test's parent shell stands in): the second taker waits until it is released.
    fs.writeFileSync(lock, String(process.ppid))
    const said = []
    const order = []
    const waiting = withLock(root, (l) => said.push(l), async () => order.push('second'))
    await new Promise((resolve) => setTimeout(resolve, 400))
    order.push('released')
    fs.rmSync(lock)
    await waiting
    assert.deepEqual(order, ['released', 'second'])
    assert.match(said[0], /waiting for process \d+/)
  })
})

describe('--lib NAME@RANGE and --runtime parsing', () => {
  it('splits a version and a variant', () => {
    assert.deepEqual(splitVariant('pino@9'), { entry: 'pino', variant: 'default', range: '9' })
    assert.deepEqual(splitVariant('pino@9:sync'), { entry: 'pino', variant: 'sync', range: '9' })
    assert.deepEqual(splitVariant('winston@2.4.7'), { entry: 'winston', variant: 'default', range: '2.4.7' })
    assert.deepEqual(splitVariant('pino:sync'), { entry: 'pino', variant: 'sync', range: null })
    assert.deepEqual(splitVariant('./my@adapter.js'), { entry: './my@adapter.js', variant: 'default', range: null })
  })

  it('names runtimes, ranges and paths', () => {
    assert.deepEqual(parseRuntimes(['node', 'node@22', 'bun', 'bun@1.2', './bin/node', 'node']).map((r) => [r.kind, r.range ?? null]), [['node', null], ['node', '22'], ['bun', null], ['bun', '1.2'], ['path', null]])
    assert.throws(() => parseRuntimes(['python']), (err) => err instanceof UsageError && /unknown runtime "python"/.test(err.message))
  })

  it('keeps version and runtime in the cell, and drops the version with the library', () => {
    const base = { type: 'run', lib: 'pino', libVersion: '9.14.0', runtime: 'node 20.20.2', transport: 'file', cpus: 1, events: 10, size: 13 }
    assert.notEqual(cellKey({ ...base, libVersion: '10.4.0' }), cellKey(base))
    assert.notEqual(cellKey({ ...base, runtime: 'bun 1.4.5' }), cellKey(base))
    assert.equal(cellKey({ ...base, lib: 'raw', libVersion: 'v20.20.2' }, { except: ['lib'] }), cellKey(base, { except: ['lib'] }))
  })
})

describe('bad versions and runtimes', () => {
  const out = () => path.join(tmpDir(), 'r.json')

  for (const [args, message] of [
    [['--lib', 'pino@!!'], /neither a version range/],
    [['--lib', 'consola@3'], /runs the installed consola only; published versions work for log4js, winston, bunyan, pino/],
    [['--lib', 'pino@4'], /the pino adapter follows the documented API of pino >=5, and no such version matches "4"/],
    [['--runtime', 'python'], /unknown runtime "python"/],
    [['--runtime', '/nonexistent/node'], /\/nonexistent\/node does not exist/],
    [['--runtime', './'], /is not a file/]
  ]) {
    it(`${args.join(' ')}: one line, exit 2, nothing written`, async () => {
      const file = out()
      const result = await runCli(['run', ...args, '--transport', 'file', '--events', '10', '--runs', '1', '--cache', tmpDir(), '--out', file])
      assert.equal(result.code, 2, result.stderr)
      assert.match(result.stderr, message)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.equal(fs.existsSync(file), false)
    })
  }

  it('a version that does not exist: one line, exit 2, nothing installed', { skip: registrySkip() }, async () => {
    const cache = tmpDir()
    const file = out()
    const result = await runCli(['run', '--lib', 'pino@99', '--transport', 'file', '--events', '10', '--runs', '1', '--cache', cache, '--out', file])
    assert.equal(result.code, 2, result.stderr)
    assert.match(result.stderr, /^log-bench: no published version of pino matches "99"/)
    assert.equal(fs.existsSync(file), false)
    assert.deepEqual(fs.readdirSync(cache).filter((n) => n !== 'libs'), [])
  })
})

describe('--runtime', () => {
  it('runs the workers under a binary given by path, records it, and calls a runtime that cannot start a worker unsupported', async () => {
    const dir = tmpDir()
    // A wrapper around this same Node that notes each start: the forks really take its path.
    const wrapper = path.join(dir, 'node-wrapper')
    const starts = path.join(dir, 'starts')
    fs.writeFileSync(wrapper, `#!/bin/sh\necho started >> "${starts}"\nexec "${process.execPath}" "$@"\n`, { mode: 0o755 })
    const broken = path.join(dir, 'broken-runtime')
    fs.writeFileSync(broken, '#!/bin/sh\necho "this runtime cannot run scripts" >&2\nexit 3\n', { mode: 0o755 })
    const file = path.join(dir, 'r.json')
    const result = await runCli(['run', '--runtime', `${wrapper},${broken}`, '--lib', 'pino,raw', '--transport', 'file', '--cpus', '2', '--events', '2000', '--runs', '1', '--cache', dir, '--out', file])
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(leftovers(result.tag), [])
    const runs = readJson(file).runs
    assert.equal(runs.length, 4)
    const wrapped = runs.filter((r) => r.runtime === `node ${process.versions.node}`)
    assert.equal(wrapped.length, 2)
    for (const r of wrapped) assert.equal(r.received, r.sent, r.lib)
    // The probe, then two workers for each of the two libraries.
    assert.equal(fs.readFileSync(starts, 'utf8').trim().split('\n').length, 5)
    const unsupported = runs.filter((r) => r.status === 'unsupported')
    assert.deepEqual(unsupported.map((r) => r.runtime), ['broken-runtime', 'broken-runtime'])
    assert.match(unsupported[0].error, /^broken-runtime cannot run a log-bench worker: a node:cluster worker under this runtime exited with code 3 before reporting over IPC: this runtime cannot run scripts$/)
  })
})

describe('scenario groups that name one cell', () => {
  it('measure it once, where it is first named', async () => {
    const dir = tmpDir()
    const scenario = path.join(dir, 'twice.json')
    fs.writeFileSync(scenario, JSON.stringify({
      name: 'twice',
      run: [
        { libs: ['noop', 'raw'], transports: ['file'], events: 100, runs: 2 },
        { libs: ['raw'], runtimes: ['node'], transports: ['file'], events: 100, runs: 2 }
      ]
    }))
    const file = path.join(dir, 'r.json')
    const result = await runCli(['run', '--scenario', scenario, '--out', file, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const runs = readJson(file).runs
    // raw on file is in both groups: 2 runs of it, not 4, and no run number twice.
    assert.equal(runs.length, 4)
    assert.deepEqual([...new Set(runs.map((r) => `${r.lib} ${r.run}`))].sort(), ['noop 1', 'noop 2', 'raw 1', 'raw 2'])
  })
})

describe('--lib NAME@RANGE end to end', () => {
  it('installs old majors once, runs each through its own API, records the versions, and reuses the cache offline', { skip: registrySkip(), timeout: 600_000 }, async () => {
    const cache = tmpDir()
    const file = path.join(tmpDir(), 'r.json')
    const libs = 'pino@5,pino@9,winston@2.4.7,winston@3,bunyan@1.8,log4js@4'
    const first = await runCli(['run', '--lib', libs, '--transport', 'console,file', '--events', '2000', '--runs', '1', '--cache', cache, '--out', file], { timeoutMs: 540_000 })
    assert.equal(first.code, 0, first.stderr)
    assert.match(first.stderr, /installing winston 2\.4\.7 \(winston@2\.4\.7\) into /)
    const doc = readJson(file)
    const versions = [...new Set(doc.runs.map((r) => `${r.lib}@${r.libVersion}`))]
    assert.equal(versions.length, 6, versions.join(' '))
    assert.ok(versions.includes('winston@2.4.7') && versions.some((v) => /^pino@5\./.test(v)) && versions.some((v) => /^log4js@4\./.test(v)), versions.join(' '))
    for (const r of doc.runs) {
      assert.equal(r.status, 'ok', `${r.lib}@${r.libVersion} ${r.transport}: ${r.error}`)
      assert.equal(r.received, r.sent, `${r.lib}@${r.libVersion} ${r.transport}`)
    }
    assert.equal(new Set(doc.runs.map(cellKey)).size, 12)
    // Offline now: an unreachable registry, and the exact versions come from the cache.
    const exact = versions.join(',')
    const second = await runCli(['run', '--lib', exact, '--transport', 'file', '--events', '100', '--runs', '1', '--cache', cache, '--out', path.join(tmpDir(), 's.json')], { env: { npm_config_registry: 'http://127.0.0.1:9/' }, timeoutMs: 300_000 })
    assert.equal(second.code, 0, second.stderr)
    assert.doesNotMatch(second.stderr, /installing/)
    const listed = await runCli(['list', '--versions', 'winston', '--cache', cache])
    assert.match(listed.stdout, /2\.4\.7/)
  })
})
