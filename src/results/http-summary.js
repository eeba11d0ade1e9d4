import { cellKey, cellStatus, runsByCell } from './model.js'
import { describe } from '../stats.js'

export const BASELINE = 'none'

// A cell of the http matrix without its library: the runs that share it are compared with `none`.
export function httpCellOf (r) {
  return cellKey(r, { except: LIBRARY_DIMENSIONS })
}

// What tells the libraries of one http cell apart: the library, its variant and its request logger.
export const LIBRARY_DIMENSIONS = ['lib', 'variant', 'middleware']

// Throughput change in percent: how much more (or, negative, fewer) requests per second than the baseline.
export function throughputChangePct (reqPerSec, baselineReqPerSec) {
  if (reqPerSec == null || !baselineReqPerSec) return null
  return (reqPerSec / baselineReqPerSec - 1) * 100
}

// The change of one run against the `none` run of the same cell and run number.
export function runThroughputChange (record, runs) {
  if (record.lib === BASELINE || !record.ok) return null
  const baseline = runs.find((r) => r.type === 'http' && r.lib === BASELINE && r.ok && r.run === record.run && httpCellOf(r) === httpCellOf(record))
  return throughputChangePct(record.reqPerSec?.mean, baseline?.reqPerSec?.mean)
}

const mean = (field) => (r) => r[field]?.mean
const SUMMARIZED = {
  reqPerSec: mean('reqPerSec'),
  bytesPerSec: mean('bytesPerSec'),
  latencyP2_5Ms: (r) => r.latencyMs?.p2_5,
  latencyP50Ms: (r) => r.latencyMs?.p50,
  latencyP97_5Ms: (r) => r.latencyMs?.p97_5,
  latencyP99Ms: (r) => r.latencyMs?.p99,
  latencyMeanMs: (r) => r.latencyMs?.mean,
  latencyMaxMs: (r) => r.latencyMs?.max,
  requestErrors: (r) => r.requestErrors,
  timeouts: (r) => r.timeouts,
  non2xx: (r) => r.non2xx,
  serverCpuPct: (r) => r.serverCpuPct,
  maxRssBytes: (r) => r.maxRssBytes,
  sent: (r) => r.sent,
  received: (r) => r.received,
  dropRate: (r) => r.dropRate
}

// One entry per (cell, library) over the runs that succeeded, plus the mean requests per second as a
// change against `none` in the same cell. Entries of type 'run' come from summarize() in the results model.
export function summarizeHttp (runs) {
  const summary = []
  for (const cellRuns of runsByCell(runs, 'http')) {
    const first = cellRuns[0]
    const ok = cellRuns.filter((r) => r.ok)
    const entry = {
      type: 'http',
      lib: first.lib,
      libVersion: first.libVersion,
      libRange: first.libRange ?? null,
      runtime: first.runtime ?? null,
      middleware: first.middleware,
      middlewareVersion: first.middlewareVersion,
      mode: first.mode,
      transport: first.transport,
      sink: first.sink,
      cpus: first.cpus,
      logsPerRequest: first.logsPerRequest,
      size: first.size,
      durationSeconds: first.durationSeconds,
      warmupSeconds: first.warmupSeconds,
      connections: first.connections,
      pipelining: first.pipelining,
      runs: cellRuns.length,
      okRuns: ok.length,
      status: cellStatus(cellRuns),
      errors: [...new Set(cellRuns.filter((r) => !r.ok).map((r) => r.error))]
    }
    for (const [key, value] of Object.entries(SUMMARIZED)) entry[key] = describe(ok.map(value))
    summary.push(entry)
  }
  for (const entry of summary) {
    const baseline = summary.find((s) => s.lib === BASELINE && httpCellOf(s) === httpCellOf(entry))
    entry.throughputChangePct = entry.lib === BASELINE ? null : throughputChangePct(entry.reqPerSec?.mean, baseline?.reqPerSec?.mean)
  }
  return summary
}
