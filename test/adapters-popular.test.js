import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { WORKLOADS } from '../src/engine/workloads.js'
import { EVERY_LIB, POPULAR_LIBS, REAL_LIBS } from '../src/loggers/index.js'
import { inPlanOrder } from '../src/results/model.js'
import { leftovers, readJson, runCli, tmpDir } from './helpers.js'

const EVENTS = 2000
const WITH_FILE = ['signale', 'tslog', 'bole', 'logtape']
const CONSOLE_ONLY = ['consola', 'loglevel', 'roarr']

// Each of the seven adapters on the console, and on a file where its library documents one: every
// event arrives, intact and once. A library without a file destination is reported unsupported,
// with its reason, and never run.
test('the seven popular loggers deliver every event on console and file', async () => {
  assert.deepEqual([...WITH_FILE, ...CONSOLE_ONLY].sort(), [...POPULAR_LIBS].sort())
  const out = path.join(tmpDir(), 'popular.json')
  const result = await runCli(['run', '--lib', POPULAR_LIBS.join(','), '--transport', 'console,file', '--events', String(EVENTS),
    '--runs', '1', '--cpus', '1', '--timeout', '60', '--out', out, '--quiet'], { timeoutMs: 170_000 })
  assert.equal(result.code, 0, result.stderr)
  const doc = readJson(out)
  const runOf = (lib, transport) => doc.runs.find((r) => r.lib === lib && r.transport === transport)
  for (const lib of POPULAR_LIBS) {
    assert.match(doc.env.libVersions[lib] ?? '', /^\d+\.\d+\.\d+/, `${lib} records its installed version`)
    for (const transport of ['console', ...(WITH_FILE.includes(lib) ? ['file'] : [])]) {
      const run = runOf(lib, transport)
      const where = `${lib} ${transport}`
      assert.equal(run?.status, 'ok', `${where}: ${run?.error}`)
      assert.equal(run.sent, EVENTS, where)
      assert.equal(run.received, run.sent, where)
      assert.equal(run.corrupt, 0, where)
      assert.equal(run.duplicates, 0, where)
    }
  }
  for (const lib of CONSOLE_ONLY) {
    const run = runOf(lib, 'file')
    assert.equal(run?.status, 'unsupported', `${lib} file`)
    assert.match(run.error, new RegExp(lib), `${lib} file says why`)
  }
  assert.deepEqual(leftovers(result.tag), [])
})

// Every workload each of the seven declares, at 1000 events, on the console and on a file where
// it has one. What each cell must show: every event intact once ('every'), nothing for disabled
// ('none'), or, where the library's default output puts the fields elsewhere than the marker's line
// (util.inspect over several lines, a formatter that prints no properties), every event counted
// corrupt ('fieldsLost': a finding reported in README, measured as the library does it). Anything
// not declared is unsupported with the library's own reason, never run.
const WORKLOAD_EVENTS = 1000
const FIELDS_LOST = {
  consola: { console: ['object', 'deep'] },
  loglevel: { console: ['object', 'deep'] },
  signale: { console: ['object', 'deep', 'error'], file: ['object', 'deep', 'error'] },
  tslog: { console: ['object', 'deep', 'child', 'error'] },
  logtape: { console: ['object', 'deep', 'child'], file: ['object', 'deep', 'child', 'error'] }
}
const WORKLOAD_UNSUPPORTED = {
  consola: { error: /stderr/ },
  loglevel: { child: /getLogger/, error: /stderr/ },
  roarr: { disabled: /level/ },
  signale: { disabled: /debug above info/ },
  tslog: { interpolate: /not supported/ },
  logtape: { error: /stderr/ }
}

test('the seven popular loggers run every workload they declare, through their own idiom', async () => {
  const measured = WORKLOADS.filter((w) => w !== 'string')
  const out = path.join(tmpDir(), 'popular-workloads.json')
  const result = await runCli(['run', '--lib', POPULAR_LIBS.join(','), '--workload', measured.join(','), '--transport', 'console,file',
    '--events', String(WORKLOAD_EVENTS), '--runs', '1', '--cpus', '1', '--timeout', '60', '--out', out, '--quiet'], { timeoutMs: 170_000 })
  assert.equal(result.code, 0, result.stderr)
  const runs = readJson(out).runs
  for (const lib of POPULAR_LIBS) {
    for (const transport of ['console', ...(WITH_FILE.includes(lib) ? ['file'] : [])]) {
      for (const workload of measured) {
        const run = runs.find((r) => r.lib === lib && r.transport === transport && r.workload === workload)
        const cell = `${lib} ${workload} ${transport}`
        const unsupported = WORKLOAD_UNSUPPORTED[lib]?.[workload]
        if (unsupported && !(lib === 'logtape' && transport === 'file')) {
          assert.equal(run?.status, 'unsupported', cell)
          assert.equal(run.sent, null, `${cell}: an unsupported workload must not run`)
          assert.match(run.error, unsupported, cell)
          continue
        }
        assert.equal(run?.status, 'ok', `${cell}: ${run?.error}`)
        assert.equal(run.sent, WORKLOAD_EVENTS, cell)
        assert.equal(run.duplicates, 0, cell)
        if (workload === 'disabled') {
          assert.equal(run.received, 0, cell)
          assert.equal(run.corrupt, 0, cell)
        } else if (FIELDS_LOST[lib]?.[transport]?.includes(workload)) {
          assert.equal(run.received, 0, `${cell}: no line holds the marker and the fields together`)
          assert.ok(run.corrupt >= WORKLOAD_EVENTS, `${cell}: every marker line lacks its fields (${run.corrupt} corrupt)`)
        } else {
          assert.equal(run.received, WORKLOAD_EVENTS, cell)
          assert.equal(run.corrupt, 0, cell)
        }
      }
    }
  }
  assert.deepEqual(leftovers(result.tag), [])
})

test('list shows at least eleven libraries with their versions, and names both sets', async () => {
  const result = await runCli(['list'])
  assert.equal(result.code, 0, result.stderr)
  const rows = result.stdout.split('\n').map((line) => line.split('|').map((cell) => cell.trim()))
  const libraries = rows.filter((cells) => cells[2] === 'library')
  assert.ok(libraries.length >= 11, `${libraries.length} libraries listed`)
  for (const lib of EVERY_LIB) {
    const row = libraries.find((cells) => cells[1] === lib)
    assert.ok(row, `${lib} is listed`)
    assert.match(row[3], /^\d+\.\d+\.\d+/, `${lib} shows its installed version`)
  }
  assert.match(result.stdout, new RegExp(`^all = ${REAL_LIBS.join(', ')}$`, 'm'))
  assert.match(result.stdout, new RegExp(`^every = ${EVERY_LIB.join(', ')}$`, 'm'))
})

test('`every` expands to all eleven libraries; `all` stays the seed\'s four', async () => {
  const out = path.join(tmpDir(), 'sets.json')
  const result = await runCli(['run', '--lib', 'every,all', '--transport', 'file', '--events', '10', '--runs', '1', '--out', out, '--quiet'], { timeoutMs: 170_000 })
  assert.equal(result.code, 0, result.stderr)
  // In plan order (the runs themselves are listed as they ran, interleaved).
  const libs = [...new Set(inPlanOrder(readJson(out).runs).map((r) => r.lib))]
  assert.deepEqual(libs, EVERY_LIB)
  assert.equal(EVERY_LIB.length, 11)
  assert.deepEqual(REAL_LIBS, ['log4js', 'winston', 'bunyan', 'pino'])
})
