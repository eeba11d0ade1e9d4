#!/usr/bin/env node
// npm run bench:profile — what `run --profile` costs and what its profiles say, for docs/costs.md
// ("CPU profiles"):
// 1. the overhead: done time and CPU time (the worker's user and system time, every thread: the
//    profiler's own work included) without and with --profile, per library and transport, in rounds
//    (each round runs every library once plain and once profiled, the two in alternating order), as
//    the median of each and the median of the rounds' ratios (profiled / plain, paired by round);
// 2. the causes: each library's top package and top function (by self time, (idle) and (program)
//    left out) from its profiled runs, to set beside the cause each results page gives by hand.
// Run it on an idle machine: node benchmarks/profile-overhead.js [--libs log4js,winston,bunyan,pino]
//   [--transports file,console] [--events 200000] [--rounds 5] [--json]
// --quick: pino to a file, 2,000 events, one round, so CI can run it and it cannot rot; its figures
// check that it works, they are not the overhead.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { payloadOfSize } from '../src/engine/message.js'
import { runOnce } from '../src/run/run-once.js'
import { adapterFile } from '../src/loggers/index.js'
import { figureColumns, terminalTable } from '../src/draw/table.js'
import { median } from '../src/stats.js'

const { values } = parseArgs({
  options: {
    libs: { type: 'string', default: 'log4js,winston,bunyan,pino' },
    transports: { type: 'string', default: 'file,console' },
    events: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '5' },
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false }
  }
})
if (values.quick) Object.assign(values, { libs: 'pino', transports: 'file', events: '2000', rounds: '1' })
const libs = values.libs.split(',').map((s) => s.trim()).filter(Boolean)
const transports = values.transports.split(',').map((s) => s.trim()).filter(Boolean)
const events = Number(values.events)
const rounds = Number(values.rounds)
if (![events, rounds].every((n) => Number.isSafeInteger(n) && n > 0)) {
  process.stderr.write('bench:profile: --events and --rounds must be positive integers\n')
  process.exit(2)
}
const badTransport = transports.find((t) => !['file', 'console'].includes(t))
if (badTransport) {
  process.stderr.write(`bench:profile: --transports takes file and console, got "${badTransport}"\n`)
  process.exit(2)
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-bench-profile-'))
const payload = payloadOfSize(null)
const num = (v, digits = 0) => (v == null ? 'n/a' : v.toLocaleString('en-US', { maximumFractionDigits: digits }))
const pct = (share) => (share == null ? 'n/a' : `${(share * 100).toFixed(1)}%`)

function settingsOf (lib, transport, profile) {
  return {
    type: 'run',
    lib,
    variant: 'default',
    transport,
    cpus: 1,
    events,
    adapterFile: adapterFile(lib),
    payload,
    timeoutMs: 600_000,
    verify: true,
    ...(profile ? { profile: true, profileOut: path.join(dir, 'profiled.json') } : {})
  }
}

async function once (lib, transport, profile) {
  const run = await runOnce(settingsOf(lib, transport, profile))
  if (!run.ok) throw new Error(`${lib} ${transport}${profile ? ' --profile' : ''}: ${run.error}`)
  return run
}

process.stderr.write(`bench:profile${values.quick ? ' (--quick: checks that it works; not its figures)' : ''}: ${libs.join(', ')} on ${transports.join(', ')}, ${events.toLocaleString('en-US')} events, 1 worker, ${rounds} round${rounds > 1 ? 's' : ''}; ${os.cpus().length} cores (${os.cpus()[0]?.model?.trim()}), load average ${os.loadavg()[0].toFixed(2)}\n`)

const cells = transports.flatMap((transport) => libs.map((lib) => ({ lib, transport, plain: [], profiled: [] })))
try {
  for (let round = 0; round < rounds; round++) {
    for (const cell of cells) {
      // Alternating which goes first, so that neither always runs on a machine warmed by the other.
      const order = round % 2 === 0 ? [false, true] : [true, false]
      for (const profile of order) {
        const run = await once(cell.lib, cell.transport, profile)
        ;(profile ? cell.profiled : cell.plain).push(run)
      }
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}

// The top package and function, leaving out a thread waiting ((idle)) and V8's (program).
const WAITING = ['(idle)', '(program)']
function causes (cell) {
  const summaries = cell.profiled.map((r) => r.profileSummary).filter(Boolean)
  const top = (list) => {
    const byName = new Map()
    for (const summary of summaries) {
      for (const item of summary[list].filter((i) => !WAITING.includes(i.name))) {
        const key = list === 'packages' ? item.name : `${item.name} ${item.file}:${item.line}`
        byName.set(key, [...(byName.get(key) ?? []), item])
      }
    }
    const ranked = [...byName].map(([key, items]) => ({
      key,
      item: items[0],
      share: median(items.map((i) => i.share)),
      usPerEvent: median(items.map((i) => i.usPerEvent))
    }))
    return ranked.sort((a, b) => b.share - a.share)[0] ?? null
  }
  return { topPackage: top('packages'), topFunction: top('functions') }
}

// A figure plain and profiled: the median of each, and the median and range of the rounds' ratios.
function paired (cell, valueOf) {
  const ratios = cell.plain.map((r, i) => valueOf(cell.profiled[i]) / valueOf(r))
  return {
    plain: median(cell.plain.map(valueOf)),
    profiled: median(cell.profiled.map(valueOf)),
    ratio: median(ratios),
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios)
  }
}

const rows = cells.map((cell) => ({
  lib: cell.lib,
  transport: cell.transport,
  done: paired(cell, (r) => r.doneMs),
  cpu: paired(cell, (r) => r.cpuUserMs + r.cpuSystemMs),
  ...causes(cell)
}))

const ratioText = (p) => `${p.ratio.toFixed(2)}× (${p.ratioMin.toFixed(2)}–${p.ratioMax.toFixed(2)})`

// A function as the table names it: its name, its file's last two path parts and its line.
const functionPlace = (fn) => `${fn.name} ${fn.file.split('/').slice(-2).join('/')}${fn.line == null ? '' : `:${fn.line}`}`

if (values.json) {
  process.stdout.write(JSON.stringify({ events, rounds, rows }, null, 2) + '\n')
} else {
  process.stdout.write(`\ndone time and CPU time (the worker's user + system, every thread) without and with --profile (1 worker, ${num(events)} events; median of ${rounds} rounds; a ratio is the median of the rounds' profiled / plain, range in brackets)\n`)
  process.stdout.write(terminalTable({
    columns: figureColumns(['library', 'transport', 'done ms', 'done ms --profile', 'ratio', 'CPU ms', 'CPU ms --profile', 'CPU ratio']),
    rows: rows.map((r) => [
      r.lib,
      r.transport,
      num(r.done.plain, 1),
      num(r.done.profiled, 1),
      ratioText(r.done),
      num(r.cpu.plain, 1),
      num(r.cpu.profiled, 1),
      ratioText(r.cpu)
    ])
  }) + '\n')
  process.stdout.write('\nwhere the time went (profiled runs; self time, (idle) and (program) left out; median share and µs per event over the rounds)\n')
  process.stdout.write(terminalTable({
    columns: figureColumns(['library', 'transport', 'top package', 'top function']),
    rows: rows.map((r) => [
      r.lib,
      r.transport,
      r.topPackage ? `${r.topPackage.key} ${pct(r.topPackage.share)} (${num(r.topPackage.usPerEvent, 2)} µs/event)` : 'n/a',
      r.topFunction ? `${functionPlace(r.topFunction.item)} ${pct(r.topFunction.share)}` : 'n/a'
    ])
  }) + '\n')
}
