import { describe } from '../stats.js'

export const SCHEMA_VERSION = 1

// What makes runs repetitions of one cell. An http cell is also told apart by its load shape.
// A record without workload or variant is the seed's call on the library's default ('string', 'default').
export function cellKey ({ type = 'run', lib, variant = 'default', workload = 'string', transport, cpus, size, mode, logsPerRequest }) {
  const base = `${type}|${lib}|${variant}|${workload}|${transport}|${cpus}|${size ?? 'seed'}`
  return type === 'http' ? `${base}|${mode}|${logsPerRequest}` : base
}

export function createDocument (env) {
  return { schema: SCHEMA_VERSION, tool: 'log-bench', kind: 'results', complete: false, interrupted: false, env, runs: [], summary: [] }
}

const SUMMARIZED = ['unblockedMs', 'nsPerEvent', 'doneMs', 'eventsPerSec', 'mbPerSec', 'dropRate', 'cpuUserMs', 'cpuSystemMs', 'maxRssBytes', 'maxHeapBytes', 'gcPauseMs', 'overheadMs']

// One entry per cell: the seed's "Average" (mean) plus median, stddev, min, max of every measure
// over the runs that succeeded, and doneMs as a multiple of the raw baseline of the same cell.
export function summarize (runs) {
  const cells = new Map()
  for (const run of runs) {
    if (run.type !== undefined && run.type !== 'run') continue
    const key = cellKey(run)
    if (!cells.has(key)) cells.set(key, [])
    cells.get(key).push(run)
  }
  const summary = []
  for (const cellRuns of cells.values()) {
    const first = cellRuns[0]
    const ok = cellRuns.filter((r) => r.ok)
    const entry = {
      type: 'run',
      lib: first.lib,
      variant: first.variant ?? 'default',
      workload: first.workload ?? 'string',
      libVersion: first.libVersion,
      transport: first.transport,
      cpus: first.cpus,
      size: first.size,
      events: first.events,
      sink: first.sink ?? null,
      runs: cellRuns.length,
      okRuns: ok.length,
      // Not run because an earlier run of the cell hit the time limit (see runCells).
      skippedRuns: cellRuns.filter((r) => r.status === 'skipped').length,
      status: cellStatus(cellRuns),
      errors: [...new Set(cellRuns.filter((r) => !r.ok).map((r) => r.error))]
    }
    for (const key of SUMMARIZED) entry[key] = describe(ok.map((r) => r[key]))
    summary.push(entry)
  }
  for (const entry of summary) {
    const raw = summary.find((s) => s.lib === 'raw' && s.workload === entry.workload && s.transport === entry.transport && s.cpus === entry.cpus && s.size === entry.size && s.events === entry.events)
    entry.doneVsRaw = raw?.doneMs?.mean && entry.doneMs?.mean != null ? entry.doneMs.mean / raw.doneMs.mean : null
  }
  return summary
}

export function cellStatus (runs) {
  if (runs.every((r) => r.status === 'unsupported')) return 'unsupported'
  if (runs.every((r) => r.ok)) return 'ok'
  if (runs.some((r) => r.ok)) return 'partial'
  return 'failed'
}
