import { cellTitle, comparisonTable, httpCells, latencyTable, medianRuns, requestsTable } from './http-tables.js'

// The terminal output of `log-bench http`: per cell the seed's Latency and Req/Sec tables (each
// library's median run), then the comparison with the same app without logging.
export function renderHttpTerminal (doc) {
  const load = doc.env?.options ?? {}
  const out = [`\nHTTP load: ${load.durationSeconds} s per run after ${load.warmupSeconds} s warm-up, ${load.connections} connections, pipelining ${load.pipelining}`]
  for (const cell of httpCells(doc)) {
    out.push(`\n## ${cellTitle(cell)}\n`)
    if (cell.runs.some((r) => r.ok)) {
      out.push(latencyTable(medianRuns(cell.runs)), '', requestsTable(medianRuns(cell.runs)), '')
    }
    out.push(comparisonTable(cell.summary))
  }
  return out.join('\n') + '\n'
}
