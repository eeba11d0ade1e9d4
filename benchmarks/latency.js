// npm run bench:latency -- [floor] [cold-start] [stall] [overload] [knee] [--runs 3] [--quick]
//
// The figures of issues 56's and 66's notes, measured through log-bench itself (the API, as a user's
// script would), to be taken on an idle machine:
// - floor: the pacer's own floor, noop's steady-state response p99 at 1,000, 10,000 and 100,000
//   events/s to a file (the knee is stated only where it is at most a fifth of the bound,
//   src/results/judge/knee.js), beside test/fixtures/adapters/next-tick.js, which writes on the next turn of
//   the event loop: its delivery p99 shows that an asynchronous logger still gets its turns.
// - cold-start: a logger slow for its first 400 calls (1 ms each), then a few µs a call
//   (test/fixtures/adapters/cold-start.js), at 5,000 and 10,000 events/s: its steady state and its
//   warm-up, apart.
// - stall: a logger that writes each line at once but stalls 20 ms on every 1,000th call
//   (test/fixtures/adapters/stalls.js), paced at 10,000 events/s to a file, beside noop at the same
//   rate and at 1,000 events/s: the call's own p99 (service time) against the response time's p50,
//   p99, p99.9 and max (from each event's intended time), and noop's response time, the pacer's floor.
// Each figure is the median over --runs runs (interleaved), printed as a markdown table on stdout;
// progress on stderr. --quick: one run, and each section at the least that still prints each of its
// rows (at least 1,000 events and half a second at each rate of the floor and the stall, 10,000
// cold-start events, 1,000 knee events at 2,000 and 10,000 events/s, 5,000 events behind a 500 ms
// stall), to check that it works (a test runs it); its figures are not the note's.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { run } from '../src/api/index.js'
import { median } from '../src/stats.js'
import { KNEE_BOUND_NS, KNEE_FLOOR_SHARE } from '../src/results/judge/knee.js'
import { kneesOf, overloadOf } from '../src/report/run/latency-section.js'
import { warmupEventsOf } from '../src/engine/pacing.js'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const FIXTURES = path.join(HERE, '..', 'test', 'fixtures', 'adapters')
const STALLS = path.join(FIXTURES, 'stalls.js')
const COLD_START = path.join(FIXTURES, 'cold-start.js')
const NEXT_TICK = path.join(FIXTURES, 'next-tick.js')
const SECTIONS = ['floor', 'cold-start', 'stall', 'overload', 'knee']
const FLOOR_RATES = [1000, 10000, 100000]
const KNEE_LIBS = ['log4js', 'winston', 'bunyan', 'pino', 'pino:sync', 'pino:transport', 'raw:each', 'noop']
const KNEE_RATES = [1000, 2000, 5000, 10000, 20000, 50000, 100000]
const OVERLOAD_LIBS = ['log4js', 'winston', 'bunyan', 'pino', 'pino:sync', 'pino:transport', 'raw', 'raw:each']
const STALL_MS = 2000

function fail (message) {
  process.stderr.write(`bench:latency: ${message}\n`)
  process.exit(2)
}

let parsed
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      runs: { type: 'string' },
      quick: { type: 'boolean', default: false }
    }
  })
} catch (err) {
  fail(err.message)
}
const { values, positionals } = parsed
const sections = positionals.length ? positionals : SECTIONS
const unknown = sections.find((s) => !SECTIONS.includes(s))
if (unknown) fail(`no section "${unknown}": one of ${SECTIONS.join(', ')}`)
const runs = Number(values.runs ?? (values.quick ? 1 : 3))
if (!Number.isSafeInteger(runs) || runs < 1 || runs > 50) fail(`--runs must be a whole number from 1 to 50, got "${values.runs}"`)
// --quick: a stall a quarter as long still holds a logger that waits for the reader far beyond the
// share of the stall that reads as blocking (src/results/judge/overload.js).
const stallMs = values.quick ? STALL_MS / 4 : STALL_MS
// --quick's paced runs of the floor and the stall: at least half a second, so that one late turn near
// the end does not take the rate reached under 95% of the rate asked, and at 1,000 events/s a second.
const quickEventsAt = (rate) => Math.max(1000, rate / 2)

const ms = (ns) => (ns == null ? '—' : (ns / 1e6).toLocaleString('en-US', { maximumSignificantDigits: 3 }))
const us = (ns) => (ns == null ? '—' : (ns / 1e3).toLocaleString('en-US', { maximumSignificantDigits: 3 }))
const medianOf = (records, pick) => {
  const values = records.filter((r) => r.ok).map(pick).filter((v) => v != null)
  return values.length ? median(values) : null
}

async function measure (options) {
  const how = options.rate ? `at ${[options.rate].flat().join(', ')} events/s` : `behind a ${options.receiverStall} ms stall on ${options.transports}`
  process.stderr.write(`bench:latency: ${options.libs.join(', ')} ${how}, ${options.events} events, ${runs} run(s)\n`)
  const doc = await run({ transports: ['file'], cpus: [1], runs, ...options })
  for (const r of doc.runs.filter((r) => !r.ok)) process.stderr.write(`bench:latency: ${r.lib} failed: ${r.error}\n`)
  return doc
}

// A cell's verdict against its control (the same cell read at full speed, measured beside it), and
// the medians of the figures it rests on.
function overloadRow (records, runs) {
  const o = overloadOf(records, runs)
  const mib = (v) => (v == null ? '—' : v.toLocaleString('en-US', { maximumSignificantDigits: 3 }))
  const kib = (bytes) => (bytes == null ? '—' : Math.round(bytes / 1024).toLocaleString('en-US'))
  if (!o) return ['no run finished', '—', '—', '—', '—', '—', '—', '—']
  return [o.kinds, o.blockedMs == null ? '—' : ms(o.blockedMs * 1e6), o.lostEvents?.toLocaleString('en-US') ?? '—', mib(o.growthMiB), mib(o.growthMiBPerSec), mib(o.controlGrowthMiB), kib(o.loggedBytes), kib(o.bufferBytes)]
}

async function overload () {
  const events = values.quick ? 5000 : 100000
  const size = 200
  const rows = []
  let pinoGrowth = null
  for (const transport of ['console', 'tcp']) {
    const libs = values.quick ? ['pino', 'raw'] : OVERLOAD_LIBS
    const doc = await measure({ libs, transports: [transport], events, size: [size], receiverStall: stallMs })
    for (const lib of libs) {
      const [name, variant = 'default'] = lib.split(':')
      const records = doc.runs.filter((r) => r.lib === name && r.variant === variant && r.receiverStallMs != null)
      // A library without this transport (log4js, pino's sync and transport variants over TCP) has
      // no row: its runs failed at once, saying so on stderr.
      if (!records.some((r) => r.ok)) continue
      if (transport === 'console' && lib === 'pino') pinoGrowth = medianOf(records, (r) => r.overload?.growthBytes)
      rows.push(`| ${lib} | ${transport} | ${records.filter((r) => r.ok).length} | ${overloadRow(records, doc.runs).join(' | ')} |`)
    }
  }
  const plain = plainPinoGrowth(events, size)
  const mib = (bytes) => (bytes == null ? '—' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`)
  return [
    `Behind a receiving end stalled for ${stallMs.toLocaleString('en-US')} ms once a tenth of the events arrived, ${events.toLocaleString('en-US')} events of ${size} bytes, 1 worker, tight loop, median of ${runs} run(s)${values.quick ? ' (--quick: checks that it works; not the note\'s figures)' : ''} (thresholds: docs/costs.md, Overload):`,
    '',
    '| library | transport | runs ok | overload (against the control) | blocked ms | events lost | growth MiB | MiB/s of the stall | control growth MiB | KiB logged in the stall | KiB of buffers |',
    '|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `pino on the console against a plain program (benchmarks/plain/pino-memory.js, the same events into a pipe whose reader sleeps ${stallMs / 1000} s first): log-bench's growth ${mib(pinoGrowth)}, the plain program's ${mib(plain)} (the larger of its heap's and RSS's rise).`
  ].join('\n')
}

// The plain program's growth: the larger of its heap's and RSS's rise (as log-bench's growthBytes).
function plainPinoGrowth (events, size) {
  const script = path.join(HERE, 'plain', 'pino-memory.js')
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(script)} ${events} ${size} | (sleep ${stallMs / 1000}; cat > /dev/null)`
  const result = spawnSync('sh', ['-c', command], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 })
  try {
    const figures = JSON.parse(result.stderr.trim().split('\n').at(-1))
    return Math.max(figures.heapRiseBytes, figures.rssRiseBytes)
  } catch {
    process.stderr.write(`bench:latency: the plain program failed: ${result.stderr || result.error?.message}\n`)
    return null
  }
}

async function stall () {
  const events = 20000
  const eventsAt = (rate) => (values.quick ? quickEventsAt(rate) : events)
  const rows = []
  for (const rate of [10000, 1000]) {
    const libs = rate === 10000 ? [STALLS, 'noop'] : ['noop']
    const doc = await measure({ libs, rate, events: eventsAt(rate) })
    for (const lib of rate === 10000 ? ['stalls', 'noop'] : ['noop']) {
      const records = doc.runs.filter((r) => r.lib === lib)
      const response = (key) => medianOf(records, (r) => r.responseLatencyNs?.[key])
      rows.push(`| ${lib} | ${rate.toLocaleString('en-US')} | ${records.filter((r) => r.ok).length} | ${us(medianOf(records, (r) => r.callLatencyNs?.p99))} | ${ms(response('p50'))} | ${ms(response('p99'))} | ${ms(response('p999'))} | ${ms(response('max'))} | ${ms(medianOf(records, (r) => r.eventLoopDelayNs?.p99))} |`)
    }
  }
  return [
    `A logger that stalls 20 ms on every 1,000th call, and noop (the pacer's floor), to a file, 1 worker, ${values.quick ? 'at least 1,000 events and half a second at each rate' : `${events.toLocaleString('en-US')} events`}, median of ${runs} run(s)${values.quick ? ' (--quick: checks that it works; not the note\'s figures)' : ''}:`,
    '',
    '| library | events/s | runs ok | call p99 µs | response p50 ms | response p99 ms | response p99.9 ms | response max ms | event-loop delay p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows
  ].join('\n')
}

async function knee () {
  // --quick: two rates, the higher one half a second long (as quickEventsAt: 1,000 events at 10,000
  // events/s, a tenth of a second, fell under 95% of the rate on a busy 2-core machine: 9,384 of 10,000).
  const events = values.quick ? quickEventsAt(10000) : 10000
  const rates = values.quick ? [5000, 10000] : KNEE_RATES
  const libs = values.quick ? ['pino', 'raw:each', 'noop'] : KNEE_LIBS
  const transports = ['console', 'file']
  const doc = await measure({ libs, transports, rate: rates, events })
  const knees = kneesOf(doc.summary)
  const mark = { sustained: '', exceeded: ' ✗', undecided: ' ?', unresolved: ' ~', unrecorded: ' —' }
  const rows = []
  for (const transport of transports) {
    for (const [name, { knee, tried }] of knees.get(transport) ?? []) {
      const p99 = rates.map((rate) => tried.find((t) => t.rate === rate)).map((t) => (t ? `${ms(t.responseP99Ns)}${mark[t.state]}` : '—'))
      const kept = knee == null ? '—' : knee.keptEvery == null ? 'not counted' : knee.keptEvery ? 'yes' : 'no'
      rows.push(`| ${name} | ${transport} | ${p99.join(' | ')} | ${knee ? knee.rate.toLocaleString('en-US') : 'none'} | ${kept} |`)
    }
  }
  return [
    `Steady-state response time p99 in ms at each rate (events/s, 1 worker, ${events.toLocaleString('en-US')} events, median of ${runs} run(s); ✗: not sustained, every run's p99 above ${ms(KNEE_BOUND_NS)} ms or a run failed; ?: not decided, the runs straddle it; ~: not resolved, noop's p99 there above ${ms(KNEE_BOUND_NS / KNEE_FLOOR_SHARE)} ms), and the knee: the highest rate sustained below the first that was not${values.quick ? ' (--quick: checks that it works; not the note\'s figures)' : ''}:`,
    '',
    `| library | transport | ${rates.map((r) => r.toLocaleString('en-US')).join(' | ')} | knee | every event kept there |`,
    `|---|---|${rates.map(() => '---:|').join('')}---:|---|`,
    ...rows
  ].join('\n')
}

// The pacer's floor: enough events at each rate for a warm-up and a steady state of 20,000 calls.
async function floor () {
  const rows = []
  for (const rate of FLOOR_RATES) {
    const events = values.quick ? quickEventsAt(rate) : warmupEventsOf(Infinity, rate) + 20000
    const doc = await measure({ libs: ['noop', NEXT_TICK], rate, events })
    for (const lib of ['noop', 'next-tick']) {
      const records = doc.runs.filter((r) => r.lib === lib)
      const steady = (key) => medianOf(records, (r) => r.responseLatencyNs?.[key])
      const warmup = (key) => medianOf(records, (r) => r.responseWarmupNs?.[key])
      const delivery = lib === 'noop' ? '—' : ms(medianOf(records, (r) => r.deliveryLatencyMs?.p99 == null ? null : r.deliveryLatencyMs.p99 * 1e6))
      rows.push(`| ${lib} | ${rate.toLocaleString('en-US')} | ${records.filter((r) => r.ok).length} | ${ms(steady('p50'))} | ${ms(steady('p99'))} | ${ms(steady('p999'))} | ${steady('count')?.toLocaleString('en-US') ?? '—'} | ${ms(warmup('p99'))} | ${ms(warmup('max'))} | ${delivery} |`)
    }
  }
  return [
    `The pacer's floor: noop (and next-tick, which writes on the next turn of the event loop) paced to a file, 1 worker, median of ${runs} run(s); steady state after the warm-up (src/engine/pacing.js); a knee is stated only where noop's steady p99 is at most ${ms(KNEE_BOUND_NS / KNEE_FLOOR_SHARE)} ms${values.quick ? ' (--quick: at least 1,000 events and half a second at each rate, checks that it works; not the note\'s figures)' : ''}:`,
    '',
    '| library | events/s | runs ok | steady p50 ms | steady p99 ms | steady p99.9 ms | steady calls | warm-up p99 ms | warm-up max ms | delivery p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows
  ].join('\n')
}

// The cold-start fixture: the knee must be its steady state's, its warm-up reported apart.
async function coldStart () {
  // --quick: a second at the higher rate, so that the 400 slow calls (0.4 s) leave the rate reached
  // above 95% of the rate asked.
  const events = values.quick ? 10000 : 60000
  const rates = [5000, 10000]
  const doc = await measure({ libs: [COLD_START, 'noop'], rate: rates, events })
  const rows = []
  for (const lib of ['cold-start', 'noop']) {
    for (const rate of rates) {
      const records = doc.runs.filter((r) => r.lib === lib && r.rate === rate)
      const steady = (key) => medianOf(records, (r) => r.responseLatencyNs?.[key])
      const warmup = (key) => medianOf(records, (r) => r.responseWarmupNs?.[key])
      rows.push(`| ${lib} | ${rate.toLocaleString('en-US')} | ${records.filter((r) => r.ok).length} | ${ms(steady('p99'))} | ${ms(steady('max'))} | ${steady('count')?.toLocaleString('en-US') ?? '—'} | ${warmup('durationMs')?.toLocaleString('en-US', { maximumFractionDigits: 0 }) ?? '—'} | ${warmup('count')?.toLocaleString('en-US') ?? '—'} | ${ms(warmup('p99'))} | ${ms(warmup('max'))} |`)
    }
  }
  return [
    `A logger slow for its first 400 calls (1 ms each), then a few µs a call, and noop, to a file, 1 worker, ${events.toLocaleString('en-US')} events, median of ${runs} run(s)${values.quick ? ' (--quick: checks that it works; not the note\'s figures)' : ''}:`,
    '',
    '| library | events/s | runs ok | steady p99 ms | steady max ms | steady calls | warm-up ms | warm-up calls | warm-up p99 ms | warm-up max ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows
  ].join('\n')
}

const SECTION_RUNS = { floor, 'cold-start': coldStart, stall, overload, knee }
const out = []
for (const section of sections) out.push(await SECTION_RUNS[section]())
process.stdout.write(out.join('\n\n') + '\n')
