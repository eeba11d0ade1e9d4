import { UsageError } from '../errors.js'
import { LIBRARY_DIMENSIONS, summarizeHttp } from '../results/http-summary.js'
import { cellKey } from '../results/model.js'
import { chartFile } from './charts.js'
import { latencyChart, requestsChart } from './http-charts.js'
import { cellTitle, comparisonTable, httpCells, latencyTable, requestsTable } from './http-tables.js'
import { cpuLabel, transportTitle, unique } from './labels.js'

// The report section for `http` results: per (mode, transport, workers) a chart of requests per
// second per library, then per (logs per request × size) the seed's Latency and Req/Sec tables, the
// comparison with `none` and a chart of latency percentiles.

const REQUIRED = ['lib', 'mode', 'transport', 'cpus', 'size', 'run', 'ok', 'status']

// The results reader leaves other run types to their sections: these are the fields this one reads.
function validateHttpRun (run, index) {
  for (const field of REQUIRED) {
    if (!(field in run)) throw new UsageError(`http run ${index + 1} (${run.lib ?? '?'}) is missing field "${field}"`)
  }
  if (run.ok && (typeof run.reqPerSec?.mean !== 'number' || typeof run.latencyMs?.p50 !== 'number')) {
    throw new UsageError(`http run ${index + 1} (${run.lib}) is marked ok but has no reqPerSec/latencyMs figures`)
  }
}

const shortLabel = (cell) => (cell.mode === 'middleware' ? `${cell.size} chars` : `${cell.logsPerRequest} × ${cell.size} chars`)

// A section shows the cells that differ only in what is requested per request (logs and their size).
const groupOf = (record) => cellKey(record, { except: [...LIBRARY_DIMENSIONS, 'logsPerRequest', 'size'] })

function groupsOf (cells, runs) {
  const groups = new Map()
  for (const cell of cells) {
    const key = groupOf(cell.runs[0])
    if (!groups.has(key)) {
      const ofGroup = runs.filter((r) => groupOf(r) === key)
      const values = (field) => unique(ofGroup.map((r) => r[field])).join(' / ')
      groups.set(key, {
        mode: cell.mode,
        transport: cell.transport,
        cpus: cell.cpus,
        title: `HTTP ${cell.mode === 'middleware' ? 'request loggers' : 'route logging'}, ${transportTitle(cell.transport)}, ${cpuLabel(cell.cpus)}`,
        loadLabel: `${values('durationSeconds')} s after ${values('warmupSeconds')} s warm-up, ${values('connections')} connections, pipelining ${values('pipelining')}`,
        libs: unique(ofGroup.map((r) => r.lib)),
        cells: []
      })
    }
    groups.get(key).cells.push({ ...cell, shortLabel: shortLabel(cell) })
  }
  return [...groups.values()]
}

export const httpSection = {
  name: 'http',
  types: ['http'],
  render (dataset, ctx) {
    const runs = dataset.runs.filter((r) => r.type === 'http')
    runs.forEach(validateHttpRun)
    const cells = httpCells({ runs, summary: summarizeHttp(runs) })
    const markdown = []
    const charts = []
    const dirs = new Map()
    for (const group of groupsOf(cells, runs)) {
      // Groups that differ only in receiving end or load share transport and workers: number the later ones.
      const base = `http/${group.transport}/${group.cpus}cpu/${group.mode}`
      dirs.set(base, (dirs.get(base) ?? 0) + 1)
      const dir = ['http', group.transport, `${group.cpus}cpu`, ...(dirs.get(base) === 1 ? [] : [String(dirs.get(base))])]
      markdown.push(`## ${group.title}`)
      markdown.push(`An express server ${group.mode === 'middleware' ? 'logging every request through the library\'s own request logger' : 'whose route logs N events of S characters per request'}, ` +
        `under autocannon load (${group.loadLabel}). _vs none_ is the change in requests per second against the same app without logging; ` +
        '_Drop_ is the share of logged events that never arrived intact at the receiving end.')
      const requests = { file: chartFile(...dir, `${group.mode}-requests`), ...requestsChart(group, ctx.conditions) }
      charts.push(requests)
      markdown.push(ctx.image(requests.file, `${group.title}: requests per second per library`))
      for (const cell of group.cells) {
        markdown.push(`### ${cellTitle(cell)}`)
        if (cell.runs.some((r) => r.ok)) markdown.push(latencyTable(cell.runs), requestsTable(cell.runs))
        markdown.push(comparisonTable(cell.summary))
        if (cell.summary.some((s) => s.okRuns > 0)) {
          const tag = cell.mode === 'middleware' ? `${cell.size}c` : `${cell.logsPerRequest}x${cell.size}c`
          const latency = { file: chartFile(...dir, `${cell.mode}-latency-${tag}`), ...latencyChart(group, cell, ctx.conditions) }
          charts.push(latency)
          markdown.push(ctx.image(latency.file, `${cellTitle(cell)}: latency percentiles per library`))
        }
      }
    }
    return { markdown: markdown.join('\n\n'), charts }
  }
}
