import { execFileSync, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { findRsyslogd } from '../src/sinks/rsyslog.js'

// The busy-machine warning (src/results/env.js) depends on what else the machine runs: off in every
// process the tests start, so that stderr is the same on a quiet and a loaded machine; the tests of
// the warning set LOG_BENCH_BUSY_LOAD themselves.
process.env.LOG_BENCH_BUSY_LOAD ??= 'off'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BIN = path.join(ROOT, 'bin', 'log-bench.js')
export const ADAPTERS = path.join(ROOT, 'test', 'fixtures', 'adapters')

// Every temporary directory a test makes is removed when its test file's process exits, passed or
// failed (LOG_BENCH_KEEP_TEST_DIRS=1 keeps them, to look at after a failure).
const made = []
process.on('exit', () => {
  if (process.env.LOG_BENCH_KEEP_TEST_DIRS) return
  for (const dir of made) {
    try { fs.rmSync(dir, { recursive: true, force: true }) } catch {}
  }
})

export function tmpDir (prefix = 'lb-test-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  made.push(dir)
  return dir
}

// Runs the CLI as a user would. Every process it starts inherits a tag in its environment, so a test
// can find any of them left behind afterwards (see leftovers). timeoutMs guards against a hang, not
// a speed: a six-run http command took more than 120 s at load average 25 on 2 cores. openFiles: the limit on open
// files (`ulimit -n`) it runs under.
export function runCli (
  args,
  { cwd = ROOT, timeoutMs = 600_000, detached = false, onSpawn, env = {}, openFiles = null } = {}
) {
  const tag = randomUUID()
  const command = openFiles == null ? [process.execPath, BIN, ...args] : ['bash', '-c', `ulimit -n ${openFiles} && exec "$@"`, 'bash', process.execPath, BIN, ...args]
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), {
      cwd,
      detached,
      env: { ...process.env, ...env, LOG_BENCH_TEST_TAG: tag },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => { stdout += c })
    child.stderr.on('data', (c) => { stderr += c })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`log-bench ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stderr}`))
    }, timeoutMs)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr, tag })
    })
    onSpawn?.(child, tag)
  })
}

// Processes still alive that carry the tag of one runCli call.
export function leftovers (tag) {
  return tagged(tag).map(({ pid, cmdline }) => `${pid} ${cmdline}`)
}

// Pids of the processes of one runCli call whose command line matches a pattern.
export function taggedPids (tag, pattern) {
  return tagged(tag).filter(({ cmdline }) => pattern.test(cmdline)).map(({ pid }) => pid)
}

function tagged (tag) {
  const found = []
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, 'latin1').includes(`LOG_BENCH_TEST_TAG=${tag}`)) {
        found.push({ pid: Number(pid), cmdline: fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ') })
      }
    } catch {}
  }
  return found
}

// A string as a regular expression that matches it literally.
export const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

export function readJson (file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'))
}

export async function waitFor (condition, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = condition()
    if (value) return value
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

// rsyslogd is a system package. Without it the tests that need it say why they are skipped; CI
// installs it and sets LOG_BENCH_REQUIRE_RSYSLOG=1, which turns the skip into a failure.
export const rsyslogSkip = findRsyslogd() !== null || process.env.LOG_BENCH_REQUIRE_RSYSLOG ? false : 'rsyslogd is not installed (apt-get install rsyslog); CI sets LOG_BENCH_REQUIRE_RSYSLOG=1 to make this a failure'

// Every file under dir with its bytes: what a refused command must leave as it was.
export function snapshot (dir) {
  const files = {}
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath ?? entry.path, entry.name)
    files[path.relative(dir, full)] = entry.isFile() ? fs.readFileSync(full, 'base64') : entry.isDirectory() ? 'dir' : 'other'
  }
  return files
}

// One synthetic run record of a file (or console) cell, 1 worker, 1,000 events, unblocked at half its
// done time; doneMs null makes it a run where nothing arrived. `rest` adds or replaces fields.
export function syntheticRun ({ lib, run, doneMs, libVersion = '1', transport = 'file', ...rest }) {
  const ok = doneMs != null
  return {
    type: 'run',
    lib,
    libVersion,
    variant: 'default',
    workload: 'string',
    transport,
    sink: transport === 'file' ? 'file' : 'pipe',
    cpus: 1,
    events: 1000,
    size: 13,
    run,
    ok,
    status: ok ? 'ok' : 'failed',
    error: ok ? null : 'nothing arrived',
    sent: 1000,
    received: ok ? 1000 : 0,
    corrupt: 0,
    duplicates: 0,
    dropRate: ok ? 0 : 1,
    unblockedMs: doneMs && doneMs / 2,
    doneMs,
    eventsPerSec: doneMs && 1e6 / doneMs,
    cpuUserMs: 1,
    cpuSystemMs: 1,
    maxRssBytes: 1e8,
    ...rest
  }
}

// These need a file system of their own (root, to mount a tmpfs); elsewhere they are skipped.
export function mountTmpfs (t, options) {
  const mount = tmpDir('lb-mount-')
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', mount], { stdio: 'ignore' })
  } catch {
    fs.rmdirSync(mount)
    t.skip('cannot mount a tmpfs here (needs root)')
    return null
  }
  t.after(() => {
    execFileSync('umount', [mount])
    fs.rmdirSync(mount)
  })
  return mount
}

// Leaves `free` bytes free on the file system of dir.
export function fill (dir, free) {
  const { bavail, bsize } = fs.statfsSync(dir)
  const bytes = bavail * bsize - free
  if (bytes > 0) fs.writeFileSync(path.join(dir, 'filler'), Buffer.alloc(bytes))
}

let syntheticDocuments = 0
// A results document holding `runs` (see syntheticRun), each one a distinct invocation (its start
// time), as report and compare refuse the same invocation given twice.
export function syntheticResults (runs, env = {}) {
  syntheticDocuments++
  const time = new Date(Date.UTC(2026, 10, 23, 10) + syntheticDocuments * 1000).toISOString()
  return { schema: 1, tool: 'log-bench', kind: 'results', complete: true, interrupted: false, env: { node: 'v20.0.0', os: 'Linux', cpuModel: 'Test CPU', cpuCount: 2, memoryBytes: 1 << 30, libVersions: {}, command: 'log-bench run', time, hostname: 'h', ...env }, runs, summary: [] }
}

// `log-bench run` as n shards at once (--shard k/n: whole comparison groups each), each into its own
// file beside out: for a test of many independent runs that asserts nothing about the order in which
// they ran. Each shard's result, with its document where it finished.
export async function runShards (args, out, n, options) {
  const files = Array.from({ length: n }, (_, i) => `${out}.${i + 1}`)
  const results = await Promise.all(files.map((file, i) => runCli([...args, '--shard', `${i + 1}/${n}`, '--out', file], options)))
  return results.map((result, i) => ({ ...result, doc: result.code === 0 ? readJson(files[i]) : null }))
}
