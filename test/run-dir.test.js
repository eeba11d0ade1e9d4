import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { makeRunDir, sweepStaleRunDirs } from '../src/engine/run-dir.js'
import { tmpDir } from './helpers.js'

// A run's directory names its owner; the first run in a base directory removes those whose owner
// is gone (a primary killed with SIGKILL) and nothing else.

const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid

function planted (base, name, owner, bytes = 0) {
  const dir = path.join(base, name)
  fs.mkdirSync(dir)
  if (owner) fs.writeFileSync(path.join(dir, '.log-bench-owner'), JSON.stringify(owner))
  if (bytes) fs.writeFileSync(path.join(dir, 'capture-0.log'), Buffer.alloc(bytes, 'x'))
  return dir
}

test('makeRunDir makes a directory that names its owner', () => {
  const base = tmpDir()
  const dir = makeRunDir(base)
  assert.match(path.basename(dir), /^log-bench-[A-Za-z0-9]{6}$/)
  const owner = JSON.parse(fs.readFileSync(path.join(dir, '.log-bench-owner'), 'utf8'))
  assert.equal(owner.pid, process.pid)
  if (process.platform === 'linux') assert.match(owner.started, /^\d+$/)
})

test('only directories whose owner is gone are removed', () => {
  const base = tmpDir()
  const me = JSON.parse(fs.readFileSync(path.join(makeRunDir(base), '.log-bench-owner'), 'utf8'))
  const stale = planted(base, 'log-bench-Stale1', { pid: deadPid(), started: '1' }, 300_000)
  const staleHttp = planted(base, 'log-bench-http-Stale2', { pid: deadPid(), started: '1' })
  const live = planted(base, 'log-bench-Live01', me)
  const noOwner = planted(base, 'log-bench-NoOwnr', null, 10)
  const other = planted(base, 'my-own-Stale3', { pid: deadPid() })
  const target = planted(base, 'target', { pid: deadPid() })
  fs.symlinkSync(target, path.join(base, 'log-bench-Link01'))
  const result = sweepStaleRunDirs(base)
  assert.equal(result.removed, 2)
  assert.ok(result.bytes >= 300_000, `${result.bytes} bytes`)
  assert.ok(!fs.existsSync(stale) && !fs.existsSync(staleHttp))
  for (const kept of [live, noOwner, other, target, path.join(base, 'log-bench-Link01')]) assert.ok(fs.existsSync(kept), kept)
})

test('a reused pid (alive, but started at another time) does not keep a directory', { skip: process.platform !== 'linux' && 'needs /proc' }, () => {
  const base = tmpDir()
  const dir = planted(base, 'log-bench-Reused', { pid: process.pid, started: '1' })
  assert.equal(sweepStaleRunDirs(base).removed, 1)
  assert.ok(!fs.existsSync(dir))
})

test('a base directory that cannot be read sweeps nothing', () => {
  assert.deepEqual(sweepStaleRunDirs(path.join(tmpDir(), 'missing')), { removed: 0, bytes: 0 })
})
