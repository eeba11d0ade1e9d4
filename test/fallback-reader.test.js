import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, readJson, runCli, tmpDir } from './helpers.js'

test('run says on stderr which transport is read by a fallback reader, and why (a switch)', async () => {
  const out = path.join(tmpDir(), 'r.json')
  const result = await runCli(['run', '--lib', 'noop', '--transport', 'console,file', '--events', '100', '--runs', '1', '--quiet', '--out', out], { env: { LOG_BENCH_PIPE_READER: 'node' } })
  assert.equal(result.code, 0, result.stderr)
  assert.equal(result.stderr, 'log-bench: the console transport is read by node\'s streams, not the native pipe reader, which can slow a fast logger down: LOG_BENCH_PIPE_READER=node asks for the fallback\n')
  assert.equal(readJson(out).runs.find((r) => r.transport === 'console').consoleReader, 'node')
})

test('run names the readers it uses before the first run, as list does; the fallback among them', async () => {
  const out = path.join(tmpDir(), 'r.json')
  const args = ['run', '--lib', 'noop', '--transport', 'console,udp,file', '--events', '100', '--runs', '1', '--out', out]
  const native = await runCli(args)
  assert.equal(native.code, 0, native.stderr)
  const line = native.stderr.split('\n').find((l) => l.startsWith('readers: '))
  assert.match(line ?? '', /^readers: console (native \(a pipe per worker, drained by a thread\)|node's streams), embedded UDP (native \(recvmmsg thread\)|node:dgram \(\d+ processes\))$/)
  assert.ok(native.stderr.indexOf(line) < native.stderr.indexOf('run 1:'), 'said before the first run')
  const fallback = await runCli([...args, '--force'], { env: { LOG_BENCH_PIPE_READER: 'node' } })
  assert.match(fallback.stderr, /^readers: console node's streams, embedded UDP /m)
})

// log-bench as a project's dependency whose install script npm did not run: no build/ directory.
test('installed without its native build, run names the cause and the npm commands that fix it', () => {
  const project = tmpDir()
  const modules = path.join(project, 'node_modules')
  const installed = path.join(modules, 'log-bench')
  fs.mkdirSync(installed, { recursive: true })
  for (const entry of ['bin', 'src', 'scenarios', 'schema', 'package.json']) fs.cpSync(path.join(ROOT, entry), path.join(installed, entry), { recursive: true })
  for (const dep of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (!dep.startsWith('.')) fs.symlinkSync(path.join(ROOT, 'node_modules', dep), path.join(modules, dep))
  }
  const result = spawnSync(process.execPath, [path.join(installed, 'bin', 'log-bench.js'), 'run', '--lib', 'noop', '--transport', 'console,udp', '--events', '100', '--runs', '1', '--quiet', '--out', 'r.json'], { cwd: project, encoding: 'utf8', timeout: 60_000 })
  assert.equal(result.status, 0, result.stderr)
  const lines = result.stderr.trim().split('\n')
  assert.equal(lines.length, 2, result.stderr)
  assert.match(lines[0], /^log-bench: the console transport is read by node's streams, not the native pipe reader, .*: it was never built: npm did not run log-bench's install script .*: run npm install-scripts approve log-bench, then npm rebuild log-bench$/)
  assert.match(lines[1], /^log-bench: the embedded sink reads UDP with node:dgram, not the native receiver, .*: it was never built: .*npm install-scripts approve log-bench, then npm rebuild log-bench$/)
})
