import { COMPARED_DIMENSIONS, cellStatus, comparisonGroupKey, runsByCell } from './model.js'
import { compareRuns, describe } from '../stats.js'

export const BASELINE = 'none'

// A cell of the http matrix without its library: the runs that share it are compared with `none`.
export function httpCellOf (r) {
  return comparisonGroupKey(r)
}

// What tells the libraries of one http cell apart: the library, its variant and its request logger.
export const LIBRARY_DIMENSIONS = COMPARED_DIMENSIONS

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
  // The server's event-loop delay under load, p99 of its worst worker, in ms.
  eventLoopDelayP99Ms: (r) => (r.eventLoopDelayNs?.p99 == null ? null : r.eventLoopDelayNs.p99 / 1e6),
  maxRssBytes: (r) => r.maxRssBytes,
  sent: (r) => r.sent,
  received: (r) => r.received,
  dropRate: (r) => r.dropRate
}

// One entry per (cell, library) over the runs that succeeded, plus the requests per second against
// `none` in the same cell, by the one comparison (compareRuns): `throughputVsBaseline` (ratio of
// medians, its 95% interval, p, verdict) and `throughputChangePct`, that ratio as a change in percent;
// `p99VsBaseline` likewise for the p99 latency (lower is better).
// Entries of type 'run' come from summarize() in the results model.
export function summarizeHttp (runs) {
  const summary = []
  const runsOf = new Map()
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
      serverCpus: first.serverCpus ?? null,
      loadCpus: first.loadCpus ?? null,
      runs: cellRuns.length,
      okRuns: ok.length,
      status: cellStatus(cellRuns),
      errors: [...new Set(cellRuns.filter((r) => !r.ok).map((r) => r.error))]
    }
    for (const [key, value] of Object.entries(SUMMARIZED)) entry[key] = describe(ok.map(value))
    runsOf.set(entry, ok)
    summary.push(entry)
  }
  const valuesOf = (entry, measure) => runsOf.get(entry).map(SUMMARIZED[measure])
  for (const entry of summary) {
    const baseline = entry.lib === BASELINE ? null : summary.find((s) => s.lib === BASELINE && httpCellOf(s) === httpCellOf(entry))
    const against = (measure, better) => (baseline ? compareRuns(valuesOf(baseline, measure), valuesOf(entry, measure), { better }) : null)
    const compared = against('reqPerSec', 'higher')
    entry.throughputVsBaseline = compared?.ratio != null ? pick(compared, COMPARISON_FIELDS) : null
    entry.throughputChangePct = compared?.ratio != null ? (compared.ratio - 1) * 100 : null
    const p99 = against('latencyP99Ms', 'lower')
    entry.p99VsBaseline = p99?.ratio != null ? pick(p99, COMPARISON_FIELDS) : null
  }
  return summary
}

const COMPARISON_FIELDS = ['ratio', 'ciLow', 'ciHigh', 'coverage', 'p', 'verdict', 'n', 'nBaseline']

function pick (object, fields) {
  return Object.fromEntries(fields.map((f) => [f, object[f]]))
}
