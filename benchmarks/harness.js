#!/usr/bin/env node
// npm run bench:harness — what the harness itself costs, so its figures can be set beside what it
// measures: the noop floor, the embedded sink's capacity, the verifier's speed, the per-run
// overhead, and the peak memory of the primary and the sink. Prints medians of --reps repetitions.
// --quick: every section in seconds, not minutes (20,000 events, one repetition, 1 and 2 workers,
// one round of the timing comparison), so CI can run it and it cannot rot; its figures check that
// the harness works, they are not the harness's costs.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { payloadOfSize } from '../src/engine/message.js'
import { DEFAULT_CALL_TIMING, runOnce } from '../src/run/run-once.js'
import { adapterFile } from '../src/loggers/index.js'
import { nativeUdpReceiver } from '../src/sinks/embedded-sink.js'
import { verifyFile } from '../src/sinks/verify-files.js'
import { Verifier } from '../src/sinks/verifier.js'
import { figureColumns, terminalTable } from '../src/draw/table.js'
import { mannWhitneyU, median } from '../src/stats.js'

const SECTIONS = ['floor', 'capacity', 'verifier', 'overhead', 'timing']
const { values } = parseArgs({ options: { reps: { type: 'string' }, events: { type: 'string' }, only: { type: 'string', default: SECTIONS.join(',') }, 'udp-reader': { type: 'string' }, quick: { type: 'boolean', default: false } } })
const quick = values.quick
const reps = Number(values.reps ?? (quick ? 1 : 3))
const events = Number(values.events ?? (quick ? 20_000 : 1_000_000))
const WORKERS = quick ? [1, 2] : [1, 8]
const TIMING_ROUNDS = quick ? 1 : Math.max(reps, 5)
if (![reps, events].every((n) => Number.isSafeInteger(n) && n > 0)) {
  process.stderr.write('bench:harness: --reps and --events must be positive integers\n')
  process.exit(2)
}
const formatTable = (titles, rows) => terminalTable({ columns: figureColumns(titles), rows })
const only = new Set(values.only.split(',').map((s) => s.trim()))
for (const name of only) {
  if (!SECTIONS.includes(name)) {
    process.stderr.write(`bench:harness: unknown section "${name}" in --only: use a comma list of ${SECTIONS.join(', ')}\n`)
    process.exit(2)
  }
}
const payload = payloadOfSize(null)
const mb = (bytes) => (bytes == null ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MB`)
const num = (v, digits = 0) => (v == null ? 'n/a' : v.toLocaleString('en-US', { maximumFractionDigits: digits }))

async function repeat (lib, transport, cpus) {
  const runs = []
  for (let i = 0; i < reps; i++) {
    const run = await runOnce({ adapterFile: adapterFile(lib), transport, cpus, events, payload, timeoutMs: 600_000, verify: lib !== 'noop' })
    if (!run.ok) throw new Error(`${lib} ${transport} ${cpus}: ${run.error}`)
    runs.push(run)
  }
  const med = (key) => median(runs.map((r) => r[key]))
  return {
    unblockedMs: med('unblockedMs'),
    doneMs: med('doneMs'),
    overheadMs: med('overheadMs'),
    receivedPerSec: median(runs.map((r) => (r.received == null ? null : r.received / (r.doneMs / 1000)))),
    dropRate: med('dropRate'),
    primaryPeakRssBytes: Math.max(...runs.map((r) => r.primaryPeakRssBytes)),
    sinkMaxRssBytes: runs[0].sinkMaxRssBytes == null ? null : Math.max(...runs.map((r) => r.sinkMaxRssBytes))
  }
}

function verifierSpeed () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-bench-verify-'))
  const file = path.join(dir, 'w0.log')
  const fd = fs.openSync(file, 'w')
  for (let from = 0; from < events; from += 10_000) {
    let chunk = ''
    for (let seq = from; seq < Math.min(events, from + 10_000); seq++) chunk += `{"level":30,"time":1763769600000,"pid":4242,"hostname":"bench","msg":"w0 ${seq}: ${payload}"}\n`
    fs.writeSync(fd, chunk)
  }
  fs.closeSync(fd)
  const bytes = fs.statSync(file).size
  const times = []
  return (async () => {
    for (let i = 0; i < Math.max(reps, 3); i++) {
      const verifier = new Verifier({ workers: 1, events, payload })
      const began = process.hrtime.bigint()
      await verifyFile(file, verifier)
      times.push(Number(process.hrtime.bigint() - began) / 1e6)
      if (verifier.received !== events) throw new Error(`verifier counted ${verifier.received} of ${events}`)
    }
    fs.rmSync(dir, { recursive: true, force: true })
    const ms = median(times)
    return { ms, linesPerSec: events / (ms / 1000), mbPerSec: bytes / 1e6 / (ms / 1000) }
  })()
}

// Internal: the UDP rows of one reader, measured in this fresh process and printed as JSON.
if (values['udp-reader']) {
  if (values['udp-reader'] === 'dgram') process.env.LOG_BENCH_UDP_READER = 'dgram'
  const rows = []
  for (const cpus of WORKERS) rows.push(['udp', cpus, values['udp-reader'], await repeat('raw', 'udp', cpus)])
  process.stdout.write(JSON.stringify(rows))
  process.exit(0)
}

process.stderr.write(`log-bench harness benchmark${quick ? ' (--quick: checks that it works; not its figures)' : ''}: ${events.toLocaleString('en-US')} events per worker, median of ${reps} runs each; ${os.cpus().length} cores (${os.cpus()[0]?.model?.trim()})\n`)

if (only.has('floor')) {
  const floor = { console: await repeat('noop', 'console', 1), file: await repeat('noop', 'file', 1) }
  process.stdout.write('\nnoop floor (building the message and calling a function that does nothing)\n')
  process.stdout.write(formatTable(['transport', 'unblocked ms', 'done ms', 'ns/event'], Object.entries(floor).map(([t, r]) => [t, num(r.unblockedMs, 1), num(r.doneMs, 1), num((r.unblockedMs * 1e6) / events, 1)])) + '\n')
}

// UDP once through each reader the sink has: the native recvmmsg thread (when built) and the
// node:dgram fallback, in the same session so their ratio is measured under the same conditions,
// each in a fresh process of its own (a process that has loaded the native reader does not
// measure the fallback alone, nor its memory).
const capacity = []
if (only.has('capacity') || only.has('overhead')) {
  const readers = nativeUdpReceiver() ? ['native', 'dgram'] : ['dgram']
  for (const reader of readers) {
    const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--udp-reader', reader, '--events', String(events), '--reps', String(reps), ...(quick ? ['--quick'] : [])], { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 })
    capacity.push(...JSON.parse(output))
  }
  for (const cpus of WORKERS) capacity.push(['tcp', cpus, 'node:net', await repeat('raw', 'tcp', cpus)])
}
if (only.has('capacity')) {
  process.stdout.write(`\nembedded sink capacity (raw baseline senders; received events/s = received / done)${nativeUdpReceiver() ? '' : '; the native UDP receiver is not built (npm rebuild), so UDP is measured on node:dgram only'}\n`)
  process.stdout.write(formatTable(['transport', 'senders', 'reader', 'received events/s', 'drop rate', 'done ms', 'sink peak RSS', 'primary peak RSS'],
    capacity.map(([t, cpus, reader, r]) => [t, cpus, reader, num(r.receivedPerSec), `${(r.dropRate * 100).toFixed(2)}%`, num(r.doneMs), mb(r.sinkMaxRssBytes), mb(r.primaryPeakRssBytes)])) + '\n')
}

if (only.has('verifier')) {
  const verify = await verifierSpeed()
  process.stdout.write(`\nverifier: a ${events.toLocaleString('en-US')}-line pino-style file in ${num(verify.ms)} ms: ${num(verify.linesPerSec)} lines/s, ${num(verify.mbPerSec, 1)} MB/s\n`)
}

if (only.has('overhead')) {
  const overhead = []
  for (const transport of ['console', 'file']) {
    for (const cpus of WORKERS) overhead.push([transport, cpus, '', await repeat('raw', transport, cpus)])
  }
  process.stdout.write('\nharness overhead per run (forking, barrier, verifying, settling: wall time of the run minus done)\n')
  process.stdout.write(formatTable(['transport', 'workers', 'overhead ms', 'done ms', 'primary peak RSS'],
    [...overhead, ...capacity].map(([t, cpus, reader, r]) => [`raw ${t}${reader ? ` (${reader})` : ''}`, cpus, num(r.overheadMs), num(r.doneMs), mb(r.primaryPeakRssBytes)])) + '\n')
}

// What timing calls costs: the noop floor and pino to a file with no call timed, every call timed,
// and the default sample, in rounds (one run of each per round, in a new order each round) so that
// the machine's drift falls on all of them alike. Unblocked per event, medians and the ratio to
// "none timed", the Mann-Whitney p and the range.
if (only.has('timing')) {
  const settings = [['none', { sampleEvery: 0 }], ['every call', { sampleEvery: 1 }], [`1 in ${DEFAULT_CALL_TIMING.sampleEvery} (default)`, DEFAULT_CALL_TIMING]]
  const rows = []
  for (const lib of ['noop', 'pino']) {
    const times = settings.map(() => [])
    for (let round = 0; round < TIMING_ROUNDS; round++) {
      const order = settings.map((_, i) => i).sort(() => Math.random() - 0.5)
      for (const i of order) {
        const run = await runOnce({ adapterFile: adapterFile(lib), transport: 'file', cpus: 1, events, payload, timeoutMs: 600_000, verify: lib !== 'noop', callTiming: settings[i][1] })
        if (!run.ok) throw new Error(`${lib} file: ${run.error}`)
        times[i].push((run.unblockedMs * 1e6) / events)
      }
    }
    for (const [i, [name]] of settings.entries()) {
      const test = i === 0 ? null : mannWhitneyU(times[i], times[0])
      rows.push([lib, name, num(median(times[i]), 1), i === 0 ? '1' : (median(times[i]) / median(times[0])).toFixed(3), test ? test.p.toFixed(3) : '', `${num(Math.min(...times[i]), 1)}–${num(Math.max(...times[i]), 1)}`, times[i].length])
    }
  }
  process.stdout.write('\nwhat timing each call costs (file, 1 worker; unblocked ns per event, median; ratio of medians to none timed, Mann-Whitney p, range)\n')
  process.stdout.write(formatTable(['library', 'calls timed', 'ns/event', 'ratio', 'p', 'range', 'runs'], rows) + '\n')
}
