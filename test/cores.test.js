import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { run, UsageError } from '../src/api/index.js'
import { parseCores } from '../src/api/option-tables.js'
import { availableCpus, cpusOf, findTaskset, formatCpuList } from '../src/http/placement.js'
import { sampleLoad } from '../src/results/env.js'
import { parseReceiveBuffer, udpSocketDrops } from '../src/sinks/udp-drops.js'
import { ADAPTERS, runCli, tmpDir } from './helpers.js'
import { assertValid } from './api-helpers.js'

const linux = fs.existsSync('/proc/self/status') ? false : 'no /proc/self/status (not Linux)'
const noTaskset = linux || (findTaskset() ? false : 'taskset (util-linux) is not installed')

test('run --cores 1: every worker runs on one CPU, the record says cores 1 and its CPU, and the caller\'s process gets its CPUs back', { skip: noTaskset }, async () => {
  const file = path.join(tmpDir(), 'cpus.txt')
  const before = cpusOf(process.pid)
  process.env.LOG_BENCH_TEST_CPUS_FILE = file
  let doc
  try {
    doc = await run({ libs: [path.join(ADAPTERS, 'reports-cpus.js')], transports: ['console'], cpus: 2, cores: 1, events: 100, runs: 1 })
  } finally {
    delete process.env.LOG_BENCH_TEST_CPUS_FILE
  }
  const first = String(availableCpus()[0])
  assert.deepEqual(fs.readFileSync(file, 'utf8').trim().split('\n'), [first, first], 'both workers on the first CPU alone')
  assert.equal(doc.runs[0].ok, true, doc.runs[0].error)
  assert.equal(doc.runs[0].cores, 1)
  assert.equal(doc.runs[0].coresCpus, first)
  assertValid(doc)
  assert.equal(cpusOf(process.pid), before, 'the API put this process back on the CPUs it had')
})

test('a scenario\'s progress lines tell its 1-core cells from its cells on every core, though each run group has one of them', { skip: noTaskset }, async () => {
  const dir = tmpDir()
  const scenario = path.join(dir, 'cores.json')
  fs.writeFileSync(scenario, JSON.stringify({
    name: 'cores-labels',
    run: [
      { libs: ['noop'], transports: ['console'], cpus: [1], events: 100, runs: 1 },
      { libs: ['noop'], transports: ['console'], cpus: [1], cores: [1], events: 100, runs: 1 }
    ]
  }))
  const ran = await runCli(['run', '--scenario', scenario, '--out', path.join(dir, 'out.json')])
  assert.equal(ran.code, 0, ran.stderr)
  const lines = ran.stderr.split('\n').filter((line) => /noop, Console, 1 worker/.test(line))
  assert.equal(lines.length, 2, ran.stderr)
  assert.match(lines.join('\n'), /1 worker, on every core run 1[\s\S]*1 worker, on 1 core run 1|1 worker, on 1 core run 1[\s\S]*1 worker, on every core run 1/)
})

test('run without --cores records cores null and leaves the workers on every CPU', { skip: linux }, async () => {
  const file = path.join(tmpDir(), 'cpus.txt')
  process.env.LOG_BENCH_TEST_CPUS_FILE = file
  let doc
  try {
    doc = await run({ libs: [path.join(ADAPTERS, 'reports-cpus.js')], transports: ['console'], events: 100, runs: 1 })
  } finally {
    delete process.env.LOG_BENCH_TEST_CPUS_FILE
  }
  assert.equal(doc.runs[0].cores, null)
  assert.equal(doc.runs[0].coresCpus, undefined)
  assert.equal(fs.readFileSync(file, 'utf8').trim(), formatCpuList(availableCpus()))
})

test('--cores refuses 0, more CPUs than log-bench may use and non-integers with one line, exit 2', async () => {
  const available = availableCpus().length
  const values = ['0', String(available + 1), '1.5', 'one']
  // Four refusals, each a process of its own: side by side.
  const refused = await Promise.all(values.map((value) => runCli(['run', '--lib', 'noop', '--cores', value, '--events', '10', '--runs', '1'])))
  for (const [i, value] of values.entries()) {
    const { code, stderr } = refused[i]
    assert.equal(code, 2, stderr)
    const lines = stderr.trim().split('\n').filter((line) => !/machine is busy/.test(line))
    assert.equal(lines.length, 1, stderr)
    assert.match(lines[0], new RegExp(`--cores must be an integer from 1 to ${available} \\(the CPUs log-bench may use here: [\\d,-]+\\), got "${value.replace('.', '\\.')}"`))
  }
  await assert.rejects(run({ libs: ['noop'], cores: 0 }), UsageError)
})

test('--cores without taskset is refused naming the package that has it', () => {
  assert.throws(() => parseCores('1', { available: [0, 1], taskset: null }), (err) => err instanceof UsageError && /taskset.*util-linux/.test(err.message))
  assert.deepEqual(parseCores('1,2', { available: [0, 1], taskset: '/usr/bin/taskset' }), [1, 2])
})

test('a UDP run to the embedded sink records the receive buffer the kernel granted and the socket\'s drops over the run; TCP records neither', { skip: linux }, async () => {
  const doc = await run({ libs: ['raw'], transports: ['udp', 'tcp'], events: 2000, runs: 1 })
  const udp = doc.runs.find((r) => r.transport === 'udp')
  const tcp = doc.runs.find((r) => r.transport === 'tcp')
  assert.equal(udp.ok, true, udp.error)
  assert.ok(Number.isInteger(udp.receiveBufferBytes) && udp.receiveBufferBytes > 0, `receiveBufferBytes ${udp.receiveBufferBytes}`)
  assert.ok(Number.isInteger(udp.receiverDrops) && udp.receiverDrops >= 0, `receiverDrops ${udp.receiverDrops}`)
  assert.ok(udp.receiverDrops <= udp.sent - udp.received, 'what the socket dropped never arrived')
  assert.equal(tcp.receiveBufferBytes, null)
  assert.equal(tcp.receiverDrops, null)
  assertValid(doc)
})

test('the receive buffer is read from ss\'s skmem, and drops from udp6 as from udp', () => {
  assert.equal(parseReceiveBuffer('UNCONN 0 0 127.0.0.1:514 0.0.0.0:*\n\t skmem:(r0,rb425984,t0,tb212992,f0,w0,o0,bl0,d3)\n'), 425984)
  assert.equal(parseReceiveBuffer(''), null)
  const table = path.join(tmpDir(), 'udp6')
  fs.writeFileSync(table, [
    '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops',
    '  10: 00000000000000000000000001000000:15BA 00000000000000000000000000000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 1001 2 0000000000000000 42',
    ''
  ].join('\n'))
  assert.equal(udpSocketDrops(5562, [path.join(tmpDir(), 'missing'), table]), 42)
})

test('the load is sampled at once and then every interval, counted from the command\'s start', async () => {
  const env = { time: new Date(1_000_000).toISOString() }
  let now = 1_000_000 + 2_500
  let load = 0.5
  const sampler = sampleLoad(env, { everyMs: 20, now: () => now, loadavg: () => [load, 0, 0] })
  now += 10_000
  load = 1.25
  await new Promise((resolve) => setTimeout(resolve, 70))
  sampler.stop()
  const count = env.loadSamples.length
  await new Promise((resolve) => setTimeout(resolve, 50))
  assert.equal(env.loadSamples.length, count, 'stop() ends the sampling')
  assert.deepEqual(env.loadSamples[0], [2.5, 0.5])
  assert.ok(count >= 2)
  assert.deepEqual(env.loadSamples.at(-1), [12.5, 1.25])
})

test('a run\'s results carry env.loadSamples, the first at its start', async () => {
  const doc = await run({ libs: ['noop'], transports: ['console'], events: 100, runs: 1 })
  assert.ok(Array.isArray(doc.env.loadSamples) && doc.env.loadSamples.length >= 1)
  const [seconds, load] = doc.env.loadSamples[0]
  assert.ok(seconds >= 0 && seconds < 60 && load >= 0 && load <= os.cpus().length * 100)
  assertValid(doc)
})
