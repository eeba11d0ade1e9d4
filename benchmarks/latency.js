// npm run bench:latency -- [stall] [overload] [knee] [--runs 3] [--quick]
//
// The figures of issue 56's note, measured through log-bench itself (the API, as a user's script
// would), to be taken on an idle machine:
// - stall: a logger that writes each line at once but stalls 20 ms on every 1,000th call
//   (test/fixtures/adapters/stalls.js), paced at 10,000 events/s to a file, beside noop at the same
//   rate and at 1,000 events/s: the call's own p99 (service time) against the response time's p50,
//   p99, p99.9 and max (from each event's intended time), and noop's response time, the pacer's floor.
// Each figure is the median over --runs runs (interleaved), printed as a markdown table on stdout;
// progress on stderr. --quick: 2,000 events and one run, to check that it works (a test may run it);
// its figures are not the note's.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { run } from '../src/api/index.js'
import { median } from '../src/stats.js'
import { KNEE_BOUND_NS, kneeOf } from '../src/results/judge/knee.js'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const STALLS = path.join(HERE, '..', 'test', 'fixtures', 'adapters', 'stalls.js')
const SECTIONS = ['stall', 'overload', 'knee']
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

// The medians of a cell's overload figures, and the kinds each run read (runs may disagree).
function overloadRow (records) {
  const ok = records.filter((r) => r.ok && r.overload)
  const kinds = [...new Set(ok.map((r) => r.overload.kinds.join('+') || 'copes'))].join(' / ')
  const mib = (bytes) => (bytes == null ? '—' : (bytes / 1024 / 1024).toLocaleString('en-US', { maximumSignificantDigits: 3 }))
  const rate = medianOf(ok, (r) => r.overload.growthMiBPerSec)
  const blocked = medianOf(ok, (r) => r.overload.blockedMs)
  return [kinds || '—', blocked == null ? '—' : ms(blocked * 1e6), medianOf(ok, (r) => r.overload.lostEvents)?.toLocaleString('en-US') ?? '—', mib(medianOf(ok, (r) => r.overload.growthBytes)), rate == null ? '—' : rate.toLocaleString('en-US', { maximumSignificantDigits: 3 })]
}

async function overload () {
  const events = values.quick ? 5000 : 100000
  const size = 200
  const rows = []
  let pinoGrowth = null
  for (const transport of ['console', 'tcp']) {
    const libs = values.quick ? ['pino', 'raw'] : OVERLOAD_LIBS
    const doc = await measure({ libs, transports: [transport], events, size: [size], receiverStall: STALL_MS })
    for (const lib of libs) {
      const [name, variant = 'default'] = lib.split(':')
      const records = doc.runs.filter((r) => r.lib === name && r.variant === variant)
      // A library without this transport (log4js, pino's sync and transport variants over TCP) has
      // no row: its runs failed at once, saying so on stderr.
      if (!records.some((r) => r.ok)) continue
      if (transport === 'console' && lib === 'pino') pinoGrowth = medianOf(records, (r) => r.overload?.growthBytes)
      rows.push(`| ${lib} | ${transport} | ${records.filter((r) => r.ok).length} | ${overloadRow(records).join(' | ')} |`)
    }
  }
  const plain = plainPinoGrowth(events, size)
  const mib = (bytes) => (bytes == null ? '—' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`)
  return [
    `Behind a receiving end stalled for ${STALL_MS.toLocaleString('en-US')} ms once a tenth of the events arrived, ${events.toLocaleString('en-US')} events of ${size} bytes, 1 worker, tight loop, median of ${runs} run(s)${values.quick ? ' (--quick: checks that it works; not the note\'s figures)' : ''} (thresholds: docs/costs.md, Overload):`,
    '',
    '| library | transport | runs ok | overload | blocked ms | events lost | growth MiB | growth MiB/s |',
    '|---|---|---:|---|---:|---:|---:|---:|',
    ...rows,
    '',
    `pino on the console against a plain program (benchmarks/plain/pino-memory.js, the same events into a pipe whose reader sleeps ${STALL_MS / 1000} s first): log-bench's growth ${mib(pinoGrowth)}, the plain program's ${mib(plain)} (the larger of its heap's and RSS's rise).`
  ].join('\n')
}

// The plain program's growth: the larger of its heap's and RSS's rise (as log-bench's growthBytes).
function plainPinoGrowth (events, size) {
  const script = path.join(HERE, 'plain', 'pino-memory.js')
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(script)} ${events} ${size} | (sleep ${STALL_MS / 1000}; cat > /dev/null)`
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
  const events = values.quick ? 2000 : 20000
  const rows = []
  for (const rate of [10000, 1000]) {
    const libs = rate === 10000 ? [STALLS, 'noop'] : ['noop']
    const doc = await measure({ libs, rate, events })
    for (const lib of rate === 10000 ? ['stalls', 'noop'] : ['noop']) {
      const records = doc.runs.filter((r) => r.lib === lib)
      const response = (key) => medianOf(records, (r) => r.responseLatencyNs?.[key])
      rows.push(`| ${lib} | ${rate.toLocaleString('en-US')} | ${records.filter((r) => r.ok).length} | ${us(medianOf(records, (r) => r.callLatencyNs?.p99))} | ${ms(response('p50'))} | ${ms(response('p99'))} | ${ms(response('p999'))} | ${ms(response('max'))} | ${ms(medianOf(records, (r) => r.eventLoopDelayNs?.p99))} |`)
    }
  }
  return [
    `A logger that stalls 20 ms on every 1,000th call, and noop (the pacer's floor), to a file, 1 worker, ${events.toLocaleString('en-US')} events, median of ${runs} run(s)${values.quick ? ' (--quick: checks that it works; not the note\'s figures)' : ''}:`,
    '',
    '| library | events/s | runs ok | call p99 µs | response p50 ms | response p99 ms | response p99.9 ms | response max ms | event-loop delay p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows
  ].join('\n')
}

async function knee () {
  const events = values.quick ? 1000 : 10000
  const rates = values.quick ? [1000, 10000] : KNEE_RATES
  const libs = values.quick ? ['pino', 'raw:each', 'noop'] : KNEE_LIBS
  const transports = ['console', 'file']
  const doc = await measure({ libs, transports, rate: rates, events })
  const rows = []
  for (const transport of transports) {
    for (const lib of libs) {
      const [name, variant = 'default'] = lib.split(':')
      const entries = doc.summary.filter((e) => e.lib === name && e.variant === variant && e.transport === transport)
      if (!entries.length) continue
      const { knee, tried } = kneeOf(entries)
      const p99 = rates.map((rate) => tried.find((t) => t.rate === rate)).map((t) => (t ? `${ms(t.responseP99Ns)}${t.sustained ? '' : ' ✗'}` : '—'))
      const kept = knee == null ? '—' : knee.keptEvery == null ? 'not counted' : knee.keptEvery ? 'yes' : 'no'
      rows.push(`| ${lib} | ${transport} | ${p99.join(' | ')} | ${knee ? knee.rate.toLocaleString('en-US') : 'none'} | ${kept} |`)
    }
  }
  return [
    `Response time p99 in ms at each rate (events/s, 1 worker, ${events.toLocaleString('en-US')} events, median of ${runs} run(s); ✗: not sustained, p99 above ${ms(KNEE_BOUND_NS)} ms or a run failed), and the knee: the highest rate below the first not sustained${values.quick ? ' (--quick: checks that it works; not the note\'s figures)' : ''}:`,
    '',
    `| library | transport | ${rates.map((r) => r.toLocaleString('en-US')).join(' | ')} | knee | every event kept there |`,
    `|---|---|${rates.map(() => '---:|').join('')}---:|---|`,
    ...rows
  ].join('\n')
}

const SECTION_RUNS = { stall, overload, knee }
const out = []
for (const section of sections) out.push(await SECTION_RUNS[section]())
process.stdout.write(out.join('\n\n') + '\n')
