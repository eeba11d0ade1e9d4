import { HTTP_BASELINE } from '../../engine/library-names.js'
import { httpCellOf } from '../../results/http-summary.js'
import { inPlanOrder } from '../../results/model.js'
import { runTypeName } from '../../results/record.js'
import { coverageNote, formatBytes, formatChange, formatCountedDifference, formatNumber, formatPct, libraryName } from '../../draw/labels.js'
import { figureColumns } from '../../draw/table.js'

// The http result tables, shared by the terminal and the markdown report: per cell (mode, transport,
// workers, logs per request, size) the seed's Latency and Req/Sec tables with a row per library,
// and a comparison with the `none` baseline.

const latency = (v, digits = 0) => (v == null ? '' : `${formatNumber(v, digits)} ms`)

export function cellTitle ({ mode, transport, cpus, logsPerRequest, size, rate = null, measure = null }) {
  const what = mode === 'middleware'
    ? `request logger (middleware), ${size}-character payload`
    : `${logsPerRequest} log${logsPerRequest === 1 ? '' : 's'} of ${size} characters per request`
  const load = `${rate ? `, ${rate} requests/s` : ''}${measure === 'instructions' ? ', instructions counted' : ''}`
  return `${what}; ${transport}, ${cpus} CPU${cpus > 1 ? 's' : ''}${load}`
}

// Cells in plan order, each with its runs and summary entries.
export function httpCells (doc) {
  const cells = new Map()
  for (const run of inPlanOrder(doc.runs).filter((r) => runTypeName(r) === 'http')) {
    const key = httpCellOf(run)
    if (!cells.has(key)) {
      cells.set(key, {
        mode: run.mode,
        transport: run.transport,
        sink: run.sink,
        cpus: run.cpus,
        logsPerRequest: run.logsPerRequest,
        size: run.size,
        rate: run.rate ?? null,
        measure: run.measure ?? null,
        runs: [],
        summary: []
      })
    }
    cells.get(key).runs.push(run)
  }
  for (const entry of (doc.summary ?? []).filter((s) => runTypeName(s) === 'http')) {
    cells.get(httpCellOf(entry))?.summary.push(entry)
  }
  return [...cells.values()]
}

// A library's rows are named by libraryName: winston@2.4.7 and winston@3.19.0 in one cell are two
// rows, never one median over both.
const rowName = (r, runs) => (runs.some((x) => libraryName(x) === libraryName(r) && x.run !== r.run) ? `${libraryName(r)} (run ${r.run})` : libraryName(r))

// Per library the finished run with the median requests per second (the lower of the two middle
// ones for an even count): the run the seed's per-run tables show when a cell has several.
export function medianRuns (runs) {
  const chosen = []
  for (const lib of [...new Set(runs.map(libraryName))]) {
    const ok = runs.filter((r) => libraryName(r) === lib && r.ok && r.reqPerSec)
      .sort((a, b) => a.reqPerSec.mean - b.reqPerSec.mean)
    if (ok.length) chosen.push(ok[(ok.length - 1) >> 1])
  }
  return chosen
}

export function latencyTable (runs) {
  const ok = runs.filter((r) => r.ok && r.latencyMs)
  const rows = ok.map((r) => {
    const l = r.latencyMs
    return [
      rowName(r, runs),
      latency(l.p2_5),
      latency(l.p50),
      latency(l.p97_5),
      latency(l.p99),
      latency(l.mean, 2),
      latency(l.stddev, 2),
      latency(l.max)
    ]
  })
  return { columns: figureColumns(['Latency', '2.5%', '50%', '97.5%', '99%', 'Avg', 'Stdev', 'Max']), rows }
}

export function requestsTable (runs) {
  const rows = []
  for (const r of runs.filter((x) => x.ok && x.reqPerSec)) {
    const q = r.reqPerSec
    const b = r.bytesPerSec
    rows.push([`${rowName(r, runs)} Req/Sec`, formatNumber(q.p1), formatNumber(q.p2_5), formatNumber(q.p50), formatNumber(q.p97_5), formatNumber(q.mean, 2), formatNumber(q.stddev, 2), formatNumber(q.min)])
    rows.push([`${rowName(r, runs)} Bytes/Sec`, formatBytes(b.p1), formatBytes(b.p2_5), formatBytes(b.p50), formatBytes(b.p97_5), formatBytes(b.mean), formatBytes(b.stddev), formatBytes(b.min)])
  }
  return { columns: figureColumns(['Stat', '1%', '2.5%', '50%', '97.5%', 'Avg', 'Stdev', 'Min']), rows }
}

const interval = (d, format) => (d?.ciLow == null || d.n < 2 ? '' : ` [${format(d.ciLow)}–${format(d.ciHigh)}${coverageNote(d.ciCoverage)}]`)
const withInterval = (d, format) => (d ? `${format(d.median)}${interval(d, format)}` : '')

// One row per library: median req/s with its 95% interval and its change against none with the
// verdict, latency, the server's cost, and how many of the events it logged arrived.
// decided: false where the table's control failed (verdict-rules.js): changes without verdicts.
export function comparisonTable (summary, { decided = true } = {}) {
  // Results recorded before the server measured its event loop have no such column.
  const loop = summary.some((s) => s.eventLoopDelayP99Ms)
  // Counted runs (--measure instructions) have no times: their own table.
  if (summary.some((s) => s.measure === 'instructions')) return countedTable(summary, { decided })
  // The server's CPU time per request, where the runs recorded it (older ones did not).
  const cpu = summary.some((s) => s.serverCpuUsPerRequest)
  const columns = figureColumns(['Library', 'Runs', 'Req/s', 'vs none', 'p50', 'p99', 'p99 vs none', 'Server CPU', ...(cpu ? ['CPU µs/request', 'CPU vs none'] : []), ...(loop ? ['Loop delay p99'] : []), 'Peak RSS', 'Events logged', 'Received', 'Drop', 'Errors'])
  const rows = summary.map((s) => {
    if (!s.reqPerSec) return [libraryName(s), String(s.runs), s.status, '', '', '', '', '', ...(cpu ? ['', ''] : []), ...(loop ? [''] : []), '', '', '', '', shortError(s.errors[0])]
    const failures = s.okRuns < s.runs ? `${s.runs - s.okRuns}/${s.runs} runs failed` : ''
    const http = [s.requestErrors?.mean, s.timeouts?.mean, s.non2xx?.mean].some((v) => v > 0)
      ? `${formatNumber(s.requestErrors?.mean)} errors, ${formatNumber(s.timeouts?.mean)} timeouts, ${formatNumber(s.non2xx?.mean)} non-2xx`
      : '0'
    return [
      s.middleware ? `${libraryName(s)} (${s.middleware})` : libraryName(s),
      String(s.okRuns),
      withInterval(s.reqPerSec, (v) => formatNumber(v)),
      s.lib === HTTP_BASELINE ? 'baseline' : formatChange(s.throughputVsBaseline, { interval: true, decided }),
      latency(s.latencyP50Ms?.median),
      withInterval(s.latencyP99Ms, (v) => latency(v)),
      s.lib === HTTP_BASELINE ? '' : formatChange(s.p99VsBaseline, { decided }),
      s.serverCpuPct ? `${s.serverCpuPct.median.toFixed(0)}%` : '',
      ...(cpu ? [withInterval(s.serverCpuUsPerRequest, (v) => `${formatNumber(v, 1)} µs`), s.lib === HTTP_BASELINE ? 'baseline' : formatChange(s.cpuPerRequestVsBaseline, { interval: true, decided })] : []),
      ...(loop ? [latency(s.eventLoopDelayP99Ms?.median, 1)] : []),
      formatBytes(s.maxRssBytes?.median),
      formatNumber(s.sent?.median),
      s.received ? formatNumber(s.received.median) : 'n/a',
      s.sent?.mean > 0 ? formatPct(s.dropRate?.mean) : '',
      [http, failures].filter(Boolean).join('; ')
    ]
  })
  return { columns, rows }
}

// Counted runs: the server's instructions per request with the change against none and its verdict
// (±3% noise) and the difference of the medians per request and per log call, what V8's compilers
// executed beside it (counted apart, not in the comparison), and the requests and events that were
// counted. No time is shown: none was taken.
function countedTable (summary, { decided = true } = {}) {
  const none = summary.find((s) => s.lib === HTTP_BASELINE)?.instructionsPerRequest?.median
  const versusNone = (s) => {
    const change = formatChange(s.instructionsPerRequestVsBaseline, { interval: true, decided })
    if (none == null || !change) return change
    return { lines: [change, formatCountedDifference(s.instructionsPerRequest.median - none, { type: 'http', logsPerRequest: s.mode === 'middleware' ? null : s.logsPerRequest })] }
  }
  const columns = figureColumns(['Library', 'Runs', 'Instructions/request', 'vs none', 'V8 compilers/request', 'Method', 'Events logged', 'Received', 'Drop', 'Errors'])
  const rows = summary.map((s) => {
    if (!s.instructionsPerRequest) return [libraryName(s), String(s.runs), s.status, '', '', '', '', '', '', shortError(s.errors[0])]
    return [
      s.middleware ? `${libraryName(s)} (${s.middleware})` : libraryName(s),
      String(s.okRuns),
      withInterval(s.instructionsPerRequest, (v) => formatNumber(v)),
      s.lib === HTTP_BASELINE ? 'baseline' : versusNone(s),
      s.compilerInstructionsPerRequest ? formatNumber(s.compilerInstructionsPerRequest.median) : 'n/a',
      s.instructionsMethod ?? '',
      formatNumber(s.sent?.median),
      s.received ? formatNumber(s.received.median) : 'n/a',
      s.sent?.mean > 0 ? formatPct(s.dropRate?.mean) : '',
      s.okRuns < s.runs ? `${s.runs - s.okRuns}/${s.runs} runs failed` : '0'
    ]
  })
  return { columns, rows }
}

function shortError (error) {
  return (error ?? '').length > 90 ? error.slice(0, 89) + '…' : error ?? ''
}
