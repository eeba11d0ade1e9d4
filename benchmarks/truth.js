// npm run bench:truth -- [--events 1000000] [--rounds 3] [--libs raw,pino,...|every] [--transports console,file]
//                        [--syslog-events 100000] [--syslog-libs pino,...] [--no-syslog] [--no-alloc]
//                        [--out truth.json] [--quick]
//
// Do log-bench's numbers match a plain script? For each library × console and file, a plain
// standalone script (benchmarks/plain/<lib>.js: the same library, the same default configuration as
// its adapter, the same message, the same close; console piped to `cat > /dev/null`) and the same
// cell through `log-bench run --cpus 1 --runs 1`, interleaved (plain first in odd rounds, log-bench
// first in even ones), several rounds. Per cell: the fastest done of each side, their ratio, and
// whether it is within the target (1.10×; raw 1.10× + 100 ms); then unblocked, and the CPU time and
// write syscalls of each side, which tell waiting from work. A cell whose adapter has no such
// transport (consola, loglevel and roarr have no file) is not run and shows as unsupported.
// --libs defaults to raw and the seed's four; `--libs every` is all twelve plain scripts.
// Then bytes allocated per event, pino to a file: log-bench's allocBytesPerEvent (v8.GCProfiler in the
// worker) against the plain script run under V8's own --trace-gc-nvp, whose every collection line
// says how many bytes were allocated since the one before (summed, divided by the events); within 25%.
// Then, for udp and tcp where rsyslogd is installed, log-bench's embedded sink and rsyslog side by
// side (done and counts): the two receiving ends must agree; --syslog-libs (default: the --libs)
// says which libraries.
// --quick: raw and pino, 20,000 events (2,000 over syslog, pino only), one round: every step in
// seconds, so CI can run it and it cannot rot. At that size start-up dominates: its ratios check
// that the steps work, not the truth standard.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = path.join(root, 'bin', 'log-bench.js')
const SEED = ['raw', 'pino', 'winston', 'bunyan', 'log4js']
const PLAIN = [...SEED, 'consola', 'loglevel', 'roarr', 'signale', 'tslog', 'bole', 'logtape']

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '3' },
    libs: { type: 'string', default: SEED.join(',') },
    transports: { type: 'string', default: 'console,file' },
    'syslog-events': { type: 'string', default: '100000' },
    'syslog-libs': { type: 'string' },
    'no-syslog': { type: 'boolean', default: false },
    'no-alloc': { type: 'boolean', default: false },
    timeout: { type: 'string', default: '300' },
    out: { type: 'string' },
    quick: { type: 'boolean', default: false }
  }
})
const QUICK = { events: '20000', rounds: '1', libs: 'raw,pino', 'syslog-events': '2000', 'syslog-libs': 'pino' }
// --quick sets what was not given; what was given wins.
if (values.quick) for (const [key, value] of Object.entries(QUICK)) if (!process.argv.some((arg) => arg === `--${key}` || arg.startsWith(`--${key}=`))) values[key] = value
const events = Number(values.events)
const rounds = Number(values.rounds)
const syslogEvents = Number(values['syslog-events'])
const libList = (option) => {
  const names = [...new Set(values[option].split(',').flatMap((lib) => (lib === 'every' ? PLAIN : [lib])))]
  for (const lib of names) if (!PLAIN.includes(lib)) fail(`--${option}: no plain script for "${lib}" (have: ${PLAIN.join(', ')}, or every)`)
  return names
}
const libs = libList('libs')
const syslogLibs = values['syslog-libs'] == null ? libs : libList('syslog-libs')
const transports = values.transports.split(',')
for (const t of transports) if (!['console', 'file'].includes(t)) fail(`--transports: "${t}" is not console or file`)
if (![events, rounds, syslogEvents].every((n) => Number.isSafeInteger(n) && n > 0)) fail('--events, --rounds and --syslog-events must be positive integers')

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'log-bench-truth-'))
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }))
process.on('SIGINT', () => process.exit(130))

function fail (message) {
  process.stderr.write(`bench:truth: ${message}\n`)
  process.exit(2)
}

function plainRun (lib, transport) {
  const script = path.join(root, 'benchmarks', 'plain', `${lib}.js`)
  const file = path.join(work, `plain-${lib}.log`)
  const command = transport === 'console'
    ? `"${process.execPath}" "${script}" console ${events} | cat > /dev/null`
    : `"${process.execPath}" "${script}" file ${events} "${file}"`
  const result = spawnSync('sh', ['-c', command], { encoding: 'utf8', cwd: root })
  fs.rmSync(file, { force: true })
  const line = result.stderr.trim().split('\n').pop()
  try {
    return JSON.parse(line)
  } catch {
    return { error: `plain ${lib} ${transport} failed: ${result.stderr.trim().split('\n').slice(-3).join(' / ')}` }
  }
}

function logBenchRun (lib, transport, extra = [], eventCount = events) {
  const out = path.join(work, `lb-${lib}-${transport}-${process.hrtime.bigint()}.json`)
  const result = spawnSync(process.execPath, [bin, 'run', '--lib', lib, '--transport', transport, '--cpus', '1', '--events', String(eventCount), '--runs', '1', '--timeout', values.timeout, '--out', out, '--quiet', ...extra], { encoding: 'utf8', cwd: root })
  if (!fs.existsSync(out)) return { error: `log-bench ${lib} ${transport} exited ${result.status}: ${result.stderr.trim().split('\n').pop()}` }
  const run = JSON.parse(fs.readFileSync(out, 'utf8')).runs[0]
  fs.rmSync(out, { force: true })
  return run.ok ? run : { ...run, error: run.error }
}

const fastest = (xs) => (xs.length ? Math.min(...xs) : null)
const median = (xs) => {
  if (!xs.length) return null
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const fmt = (x) => (x == null ? '–' : Math.round(x).toLocaleString('en-US'))
const note = (text) => process.stderr.write(`${text}\n`)

// The adapter says which transports the log-bench side has; a cell it lacks is skipped, not failed
// (the plain script refuses it too: one line, exit 2).
const adapters = new Map()
for (const lib of libs) adapters.set(lib, (await import(pathToFileURL(path.join(root, 'src', 'loggers', `${lib}.js`)).href)).default)
const unsupported = (lib, transport) => {
  const adapter = adapters.get(lib)
  return adapter.transports.includes(transport) ? null : (adapter.unsupported?.[transport] ?? `${lib} has no ${transport} transport`)
}

const cells = transports.flatMap((transport) => libs.map((lib) => ({
  lib,
  transport,
  unsupported: unsupported(lib, transport),
  plain: [],
  logBench: [],
  unblocked: { plain: [], logBench: [] },
  loopReturned: { plain: [], logBench: [] },
  cpu: { plain: [], logBench: [] },
  syscalls: { plain: [], logBench: [] },
  received: [],
  errors: []
})))
for (const cell of cells) if (cell.unsupported) note(`${cell.lib} ${cell.transport}: unsupported, not run`)
for (let round = 1; round <= rounds; round++) {
  for (const cell of cells) {
    if (cell.unsupported) continue
    const order = round % 2 ? ['plain', 'logBench'] : ['logBench', 'plain']
    for (const side of order) {
      const r = side === 'plain' ? plainRun(cell.lib, cell.transport) : logBenchRun(cell.lib, cell.transport)
      if (r.error) cell.errors.push(r.error)
      else {
        cell[side].push(r.doneMs)
        cell.unblocked[side].push(r.unblockedMs)
        cell.loopReturned[side].push(r.loopReturnedMs)
        cell.cpu[side].push(r.cpuUserMs + r.cpuSystemMs)
        if (r.syscallsWrite != null) cell.syscalls[side].push(r.syscallsWrite)
        else if (r.syscallsWritePerEvent != null) cell.syscalls[side].push(r.syscallsWritePerEvent * r.sent)
        if (side === 'logBench') cell.received.push(`${r.received}/${r.sent}`)
      }
      note(`round ${round}/${rounds} ${cell.lib} ${cell.transport} ${side === 'plain' ? 'plain    ' : 'log-bench'} ${r.error ? `FAILED: ${r.error}` : `done ${fmt(r.doneMs)} ms`}`)
    }
  }
}

const rows = cells.map((cell) => {
  const plain = fastest(cell.plain)
  const logBench = fastest(cell.logBench)
  const ratio = plain && logBench ? logBench / plain : null
  const limit = plain == null ? null : plain * 1.1 + (cell.lib === 'raw' ? 100 : 0)
  return {
    ...cell,
    plainFastest: plain,
    logBenchFastest: logBench,
    plainMedian: median(cell.plain),
    logBenchMedian: median(cell.logBench),
    ratio,
    met: logBench != null && limit != null ? logBench <= limit : null,
    unblockedFastest: { plain: fastest(cell.unblocked.plain), logBench: fastest(cell.unblocked.logBench) },
    loopReturnedFastest: { plain: fastest(cell.loopReturned.plain), logBench: fastest(cell.loopReturned.logBench) }
  }
})

const lines = [
  `Done in ms at ${events.toLocaleString('en-US')} events, 1 worker; fastest of ${rounds} rounds (median in brackets); plain scripts: benchmarks/plain/, console piped to \`cat > /dev/null\`.`,
  '',
  '| library | transport | plain script | log-bench | ratio | within target |',
  '|---|---|---:|---:|---:|---|'
]
for (const r of rows) {
  const target = r.lib === 'raw' ? '1.10× + 100 ms' : '1.10×'
  if (r.unsupported) {
    lines.push(`| ${r.lib} | ${r.transport} | – | – | – | unsupported |`)
    continue
  }
  lines.push(`| ${r.lib} | ${r.transport} | ${fmt(r.plainFastest)} (${fmt(r.plainMedian)}) | ${fmt(r.logBenchFastest)} (${fmt(r.logBenchMedian)}) | ${r.ratio == null ? '–' : `${r.ratio.toFixed(2)}×`} | ${r.met == null ? `failed: ${r.errors[0]}` : r.met ? `yes (${target})` : `**no** (${target})`} |`)
}
// Unblocked, both sides until the event loop was next free after the last call; the last call's return
// (the 2019 article's unblocked) in brackets: where they part, the logger deferred work past its calls.
lines.push('', `Unblocked in ms (until the event loop is free; when the last call returned in brackets), fastest of ${rounds} rounds:`, '',
  '| library | transport | plain script | log-bench | ratio |', '|---|---|---:|---:|---:|')
for (const r of rows) {
  if (r.unsupported) continue
  const { plain, logBench } = r.unblockedFastest
  const side = (key) => `${fmt(r.unblockedFastest[key])} (${fmt(r.loopReturnedFastest[key])})`
  lines.push(`| ${r.lib} | ${r.transport} | ${side('plain')} | ${side('logBench')} | ${plain && logBench ? `${(logBench / plain).toFixed(2)}×` : '–'} |`)
}
// The work behind the times: CPU (user + system, every thread of the logging process) and write
// syscalls, both from the first call to done. Where done parts and CPU does not, the difference is
// waiting (a full pipe, a timer), not work; where CPU parts too, one side does more.
const span = (xs) => (xs.length ? `${fmt(median(xs))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})` : '–')
lines.push('', `CPU in ms (user + system, from the first call to done) and write syscalls, median of ${rounds} rounds (range in brackets):`, '',
  '| library | transport | CPU plain | CPU log-bench | ratio | write syscalls plain | write syscalls log-bench |', '|---|---|---:|---:|---:|---:|---:|')
for (const r of rows) {
  if (r.unsupported) continue
  const plain = median(r.cpu.plain)
  const logBench = median(r.cpu.logBench)
  lines.push(`| ${r.lib} | ${r.transport} | ${span(r.cpu.plain)} | ${span(r.cpu.logBench)} | ${plain && logBench ? `${(logBench / plain).toFixed(2)}×` : '–'} | ${span(r.syscalls.plain)} | ${span(r.syscalls.logBench)} |`)
}
const rankOf = (key, transport) => rows.filter((r) => r.transport === transport && r.lib !== 'raw' && r[key] != null).sort((a, b) => a[key] - b[key]).map((r) => r.lib).join(' < ')
for (const transport of transports) {
  lines.push('', `${transport} ranking by done: plain ${rankOf('plainFastest', transport)}; log-bench ${rankOf('logBenchFastest', transport)}`)
  // raw is the transport's limit only if no plain script, of any library, is faster than it.
  const raw = rows.find((r) => r.lib === 'raw' && r.transport === transport && r.logBenchFastest != null)
  const best = rows.filter((r) => r.transport === transport && r.plainFastest != null)
    .sort((a, b) => a.plainFastest - b.plainFastest)[0]
  if (raw && best) lines.push(`${transport} limit: raw in log-bench ${fmt(raw.logBenchFastest)} ms; the fastest plain script, ${best.lib} (benchmarks/plain/${best.lib}.js), ${fmt(best.plainFastest)} ms: ${raw.logBenchFastest <= best.plainFastest * 1.1 + 100 ? 'raw is the limit (within 1.10× + 100 ms)' : '**raw is not the limit**: a plain script is faster than 1.10× + 100 ms of it'}`)
}

// The plain script's allocation as V8 traces it: the sum of `allocated=` over every collection.
function plainAllocation (lib) {
  const script = path.join(root, 'benchmarks', 'plain', `${lib}.js`)
  const file = path.join(work, `plain-alloc-${lib}.log`)
  const result = spawnSync(process.execPath, ['--trace-gc-nvp', script, 'file', String(events), file], { encoding: 'utf8', cwd: root, maxBuffer: 1 << 30 })
  fs.rmSync(file, { force: true })
  if (result.status !== 0) return { error: `plain ${lib} file --trace-gc-nvp exited ${result.status}: ${result.stderr.trim().split('\n').pop()}` }
  let bytes = 0
  let collections = 0
  for (const match of result.stdout.matchAll(/ allocated=(\d+)/g)) {
    bytes += Number(match[1])
    collections++
  }
  return { bytesPerEvent: bytes / events, collections }
}

const allocRows = []
if (!values['no-alloc'] && libs.includes('pino') && transports.includes('file')) {
  const plain = []
  const logBench = []
  for (let round = 1; round <= rounds; round++) {
    for (const side of round % 2 ? ['plain', 'logBench'] : ['logBench', 'plain']) {
      const r = side === 'plain' ? plainAllocation('pino') : logBenchRun('pino', 'file')
      const value = side === 'plain' ? r.bytesPerEvent : r.allocBytesPerEvent
      if (r.error || value == null) note(`round ${round}/${rounds} pino file allocation ${side}: FAILED: ${r.error ?? 'no allocBytesPerEvent recorded'}`)
      else (side === 'plain' ? plain : logBench).push(value)
      if (!r.error) note(`round ${round}/${rounds} pino file ${side === 'plain' ? 'plain --trace-gc-nvp' : 'log-bench'} ${fmt(value)} bytes/event`)
    }
  }
  const ratio = plain.length && logBench.length ? median(logBench) / median(plain) : null
  allocRows.push({ lib: 'pino', transport: 'file', plain, logBench, ratio, met: ratio != null && Math.abs(ratio - 1) <= 0.25 })
  lines.push('', `Bytes allocated per event, pino to a file, ${events.toLocaleString('en-US')} events: log-bench's allocBytesPerEvent (v8.GCProfiler) against the plain script under node --trace-gc-nvp (V8's own "allocated" per collection, summed); median of ${rounds} rounds (range in brackets).`, '',
    '| library | transport | plain script | log-bench | ratio | within 25% |', '|---|---|---:|---:|---:|---|')
  const range = (xs) => (xs.length ? `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}` : '–')
  for (const r of allocRows) lines.push(`| ${r.lib} | ${r.transport} | ${fmt(median(r.plain))} (${range(r.plain)}) | ${fmt(median(r.logBench))} (${range(r.logBench)}) | ${r.ratio == null ? '–' : `${r.ratio.toFixed(2)}×`} | ${r.ratio == null ? 'failed' : r.met ? 'yes' : '**no**'} |`)
}

const syslogRows = []
const rsyslogd = ['/usr/sbin/rsyslogd', '/sbin/rsyslogd'].find((p) => fs.existsSync(p))
if (!values['no-syslog']) {
  for (const protocol of ['udp', 'tcp']) {
    for (const lib of syslogLibs) {
      const embedded = logBenchRun(lib, protocol, [], syslogEvents)
      const rsyslog = rsyslogd ? logBenchRun(lib, protocol, ['--syslog', 'rsyslog'], syslogEvents) : null
      note(`${lib} ${protocol} embedded ${embedded.error ?? `done ${fmt(embedded.doneMs)} ms`}${rsyslog ? `; rsyslog ${rsyslog.error ?? `done ${fmt(rsyslog.doneMs)} ms`}` : ''}`)
      syslogRows.push({ lib, protocol, embedded, rsyslog })
    }
  }
  const side = (r) => {
    if (r == null) return '– | rsyslogd not installed'
    if (r.status === 'unsupported') return '– | unsupported'
    const counts = r.received == null ? 'not counted' : `${r.received.toLocaleString('en-US')}/${r.sent.toLocaleString('en-US')}${r.corrupt ? `, ${r.corrupt} corrupt` : ''}`
    return `${r.ok ? fmt(r.doneMs) : `failed: ${r.error}`} | ${counts}`
  }
  lines.push('', `Syslog at ${syslogEvents.toLocaleString('en-US')} events, 1 worker, 1 run each: log-bench's embedded sink and rsyslog side by side (done in ms; received/sent).`, '',
    '| library | transport | embedded sink done | received | rsyslog done | received |', '|---|---|---:|---|---:|---|')
  for (const r of syslogRows) lines.push(`| ${r.lib} | ${r.protocol} | ${side(r.embedded)} | ${side(r.rsyslog)} |`)
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU'
lines.push('', `Machine: ${cpu}, ${os.cpus().length} cores, Node ${process.version}.`)
process.stdout.write(lines.join('\n') + '\n')
if (values.out) fs.writeFileSync(values.out, JSON.stringify({ events, rounds, syslogEvents, machine: cpu, node: process.version, rows, allocRows, syslogRows }, null, 2) + '\n')
