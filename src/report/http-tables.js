import { httpCellOf } from '../http/summary.js'
import { fmt, formatTable } from './table.js'

// The http result tables, shared by the terminal and the markdown report: per cell (mode, transport,
// workers, logs per request, size) the seed's Latency and Req/Sec tables with a row per library,
// and a comparison with the `none` baseline.

const num = (v, digits = 0) => (v == null ? '' : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }))
const latency = (v, digits = 0) => (v == null ? '' : `${num(v, digits)} ms`)

export function bytes (v) {
  if (v == null) return ''
  const units = ['B', 'kB', 'MB', 'GB']
  let value = v
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${value.toPrecision(3).replace(/\.?0+$/, '')} ${units[unit]}`
}

export function signedPct (v) {
  if (v == null) return ''
  return `${v > 0 ? '+' : ''}${v.toFixed(1)}%`
}

export function cellTitle ({ mode, transport, cpus, logsPerRequest, size }) {
  const what = mode === 'middleware'
    ? `request logger (middleware), ${size}-character payload`
    : `${logsPerRequest} log${logsPerRequest === 1 ? '' : 's'} of ${size} characters per request`
  return `${what}; ${transport}, ${cpus} CPU${cpus > 1 ? 's' : ''}`
}

// Cells in the order they ran, each with its runs and summary entries.
export function httpCells (doc) {
  const cells = new Map()
  for (const run of doc.runs.filter((r) => r.type === 'http')) {
    const key = httpCellOf(run)
    if (!cells.has(key)) cells.set(key, { mode: run.mode, transport: run.transport, sink: run.sink, cpus: run.cpus, logsPerRequest: run.logsPerRequest, size: run.size, runs: [], summary: [] })
    cells.get(key).runs.push(run)
  }
  for (const entry of (doc.summary ?? []).filter((s) => s.type === 'http')) {
    cells.get(httpCellOf(entry))?.summary.push(entry)
  }
  return [...cells.values()]
}

const rowName = (r, runs) => (runs.some((x) => x.lib === r.lib && x.run > 1) ? `${r.lib} (run ${r.run})` : r.lib)

export function latencyTable (runs, options) {
  const ok = runs.filter((r) => r.ok)
  const rows = ok.map((r) => {
    const l = r.latencyMs
    return [rowName(r, runs), latency(l.p2_5), latency(l.p50), latency(l.p97_5), latency(l.p99), latency(l.mean, 2), latency(l.stddev, 2), latency(l.max)]
  })
  return formatTable(['Latency', '2.5%', '50%', '97.5%', '99%', 'Avg', 'Stdev', 'Max'], rows, options)
}

export function requestsTable (runs, options) {
  const rows = []
  for (const r of runs.filter((x) => x.ok)) {
    const q = r.reqPerSec
    const b = r.bytesPerSec
    rows.push([`${rowName(r, runs)} Req/Sec`, num(q.p1), num(q.p2_5), num(q.p50), num(q.p97_5), num(q.mean, 2), num(q.stddev, 2), num(q.min)])
    rows.push([`${rowName(r, runs)} Bytes/Sec`, bytes(b.p1), bytes(b.p2_5), bytes(b.p50), bytes(b.p97_5), bytes(b.mean), bytes(b.stddev), bytes(b.min)])
  }
  return formatTable(['Stat', '1%', '2.5%', '50%', '97.5%', 'Avg', 'Stdev', 'Min'], rows, options)
}

// One row per library: mean req/s and its change against none, latency, the server's cost, and how
// many of the events it logged arrived.
export function comparisonTable (summary, options) {
  const header = ['Library', 'Req/s', 'vs none', 'p50', 'p99', 'Server CPU', 'Peak RSS', 'Events logged', 'Received', 'Drop', 'Errors']
  const rows = summary.map((s) => {
    if (!s.reqPerSec) return [s.lib, s.status, '', '', '', '', '', '', '', '', shortError(s.errors[0])]
    const failures = s.okRuns < s.runs ? `${s.runs - s.okRuns}/${s.runs} runs failed` : ''
    const http = [s.requestErrors?.mean, s.timeouts?.mean, s.non2xx?.mean].some((v) => v > 0)
      ? `${num(s.requestErrors?.mean)} errors, ${num(s.timeouts?.mean)} timeouts, ${num(s.non2xx?.mean)} non-2xx`
      : '0'
    return [
      s.middleware ? `${s.lib} (${s.middleware})` : s.lib,
      num(s.reqPerSec.mean),
      s.lib === 'none' ? 'baseline' : signedPct(s.throughputChangePct),
      latency(s.latencyP50Ms?.mean),
      latency(s.latencyP99Ms?.mean),
      s.serverCpuPct ? `${s.serverCpuPct.mean.toFixed(0)}%` : '',
      fmt.mb(s.maxRssBytes?.mean),
      num(s.sent?.mean),
      s.received ? num(s.received.mean) : 'n/a',
      s.sent?.mean > 0 ? fmt.pct(s.dropRate?.mean) : '',
      [http, failures].filter(Boolean).join('; ')
    ]
  })
  return formatTable(header, rows, options)
}

function shortError (error) {
  return (error ?? '').length > 90 ? error.slice(0, 89) + '…' : error ?? ''
}
