import { UsageError } from '../../errors.js'
import { LIBRARY_DIMENSIONS, summarizeHttp } from '../../results/http-summary.js'
import { roundsOf } from '../../results/rounds.js'
import { cellKey, cellWords } from '../../results/model.js'
import { runTypeName } from '../../results/record.js'
import { chartFile } from '../../draw/charts.js'
import { costChart, costOf, latencyChart } from './charts.js'
import { controlsByTable, designTitle, tableOf } from './glance.js'
import { cellTitle, comparisonTable, httpCells, latencyTable, medianRuns, requestsTable } from './tables.js'
import { libraryName, unique } from '../../draw/labels.js'

// The report section for `http` results: per (mode, transport, workers) a chart of requests per
// second per library, then per (logs per request × size) the seed's Latency and Req/Sec tables, the
// comparison with `none` and a chart of latency percentiles.

const REQUIRED = ['lib', 'mode', 'transport', 'cpus', 'size', 'run', 'ok', 'status']

// The results reader leaves other run types to their sections: these are the fields this one reads.
function validateHttpRun (run, index) {
  for (const field of REQUIRED) {
    if (!(field in run)) throw new UsageError(`http run ${index + 1} (${run.lib ?? '?'}) is missing field "${field}"`)
  }
  if (run.ok && run.measure !== 'instructions' && (typeof run.reqPerSec?.mean !== 'number' || typeof run.latencyMs?.p50 !== 'number')) {
    throw new UsageError(`http run ${index + 1} (${run.lib}) is marked ok but has no reqPerSec/latencyMs figures`)
  }
}

export const loadTitle = (cell) => `${cell.rate ? ` at ${cell.rate.toLocaleString('en-US')} requests/s` : ''}${designTitle(cell)}`

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
        rate: cell.rate,
        measure: cell.measure,
        // A fixed rate (--rate) or a counted load is another table of the same transport and workers:
        // said in its title.
        title: `HTTP ${cellWords(cell.runs[0], ['mode'])}${loadTitle(cell)}, ${cellWords(cell.runs[0], ['transport', 'cpus'])}`,
        loadLabel: `${values('durationSeconds')} s after ${values('warmupSeconds')} s warm-up, ${values('connections')} connection${values('connections') === '1' ? '' : 's'}, pipelining ${values('pipelining')}`,
        libs: unique(ofGroup.map(libraryName)),
        cells: []
      })
    }
    groups.get(key).cells.push({ ...cell, shortLabel: shortLabel(cell) })
  }
  return [...groups.values()]
}

// Why a table's differences are not findings (see At a glance).
function controlNote (control, counted) {
  if (counted && control.failing.length) return 'The control (0 logs per request) did not read `same` for every library: a count does not follow the machine\'s speed, so the differences below include what a library costs per request when it logs nothing (or its runs\' spread), and are not findings.'
  if (!control.measured) return 'No control (0 logs per request) was measured with this table: its differences were not checked against the machine\'s noise and are not findings.'
  if (control.failing.length) return 'The control (0 logs per request) did not read `same` for every library: the differences below are within the machine\'s noise in this session, not findings.'
  if (control.unclear?.length) return 'The control (0 logs per request) read `not decided` for some library: its intervals were too wide to rule out differences as large as those below, which are therefore not findings.'
  return 'The control (0 logs per request) had too few runs to tell libraries apart: the differences below were not checked against the machine\'s noise and are not findings.'
}

// What the section's _vs none_ columns are, and which of them its verdicts and chart rest on.
function versusNoneText (group) {
  if (group.measure === 'instructions') return '_vs none_ is the change in the server\'s instructions per request against the same app without logging, counted under the simulator (no times were taken)'
  if (group.rate != null) return '_vs none_ is the change in requests per second against the same app without logging, which a fixed rate holds about equal; _CPU vs none_, the change in the server\'s CPU µs per request, is what the chart and the verdicts under At a glance rest on'
  return '_vs none_ is the change in requests per second against the same app without logging'
}

export const httpSection = {
  name: 'http',
  types: ['http'],
  howToRead: [
    '- _Req/s_: the requests autocannon completed per second of a run\'s measured load (the mean of its one-second samples). A cell\'s figure is the median over its runs with the 95% interval of that median in brackets (distribution-free, from the runs\' order statistics; with fewer than 6 runs no such interval reaches 95%, and the bracket says what it covers, e.g. `; 93%`); _Runs_ is how many finished.',
    '- _Latency_ (2.5% … 99%, p50, p99): percentiles of the response time of every request of a run, as autocannon measures it (from sending the request to the end of the answer); a cell\'s p50 and p99 are medians over its runs.',
    '- _vs none_: a library against `none`, the same app without a logger, under the same load in the same session: the change of the median in percent, its interval (with its coverage where the runs cannot reach 95%), and the verdict. `faster` or `slower` only when the runs differ (two-sided Mann–Whitney test, p < 0.05) and the whole interval lies beyond the measure\'s noise threshold (±5% for requests per second, ±2% for p99 latency); `same` only when the whole interval lies within it; `not decided` otherwise (the runs cannot tell; docs/comparisons.md). For requests per second `slower` means fewer; for p99 latency, higher. The statistics are those of `log-bench compare`.',
    '- _Control_: at 0 logs per request the route logs nothing, so every library must read `same` against `none`. Where one does not, the machine\'s noise was as large as what the table would show: the page says so instead of publishing its differences.',
    '- _CPU µs/request_: the server\'s CPU time (every worker, user and system) over the requests it served. Under a fixed rate (a table titled with its requests/s) every library serves the same requests per second, so that table\'s chart, control and verdicts rest on it.',
    '- _Instructions/request_ (a table titled "instructions counted"): the server\'s user-space instructions per request under a CPU simulator (valgrind), from a run of N requests and one of 2N sent one at a time, the same on any machine, with what V8\'s compilers executed in that difference left out and shown beside it (_V8 compilers/request_: a young server is still compiling, and how much falls into the window follows V8\'s tiering, not the request); its verdicts against `none` read `same` only within ±3% (set when a counted server\'s count still moved in steps of about 1.3% from run to run; it now repeats to under 1%). No times were taken in those runs. Method and limits: docs/costs.md in the log-bench repository.',
    '- _Loop delay p99_: how late the server\'s event loop ran under load, the p99 of the server worker with the highest (Node\'s `monitorEventLoopDelay`), median over the runs.',
    '- _Drop_: the share of logged events that never arrived intact at the receiving end (every event carries its worker and sequence number and is checked there).',
    '- The seed\'s Latency and Req/Sec tables show, for each library, its run with the median requests per second.'
  ],
  render (dataset, ctx) {
    const runs = dataset.runs.filter((r) => runTypeName(r) === 'http')
    runs.forEach(validateHttpRun)
    const summary = summarizeHttp(runs, { roundOf: roundsOf(dataset) })
    const cells = httpCells({ runs, summary })
    const controls = controlsByTable(summary)
    const blocks = []
    const charts = []
    const dirs = new Map()
    for (const group of groupsOf(cells, runs)) {
      // Groups that differ only in receiving end or load share transport and workers: number the later ones.
      const base = `http/${group.transport}/${group.cpus}cpu/${group.mode}`
      dirs.set(base, (dirs.get(base) ?? 0) + 1)
      const dir = ['http', group.transport, `${group.cpus}cpu`, ...(dirs.get(base) === 1 ? [] : [String(dirs.get(base))])]
      blocks.push({ heading: group.title })
      const control = controls.get(tableOf(group.cells[0].runs[0]))
      if (!control.passed) blocks.push(`> ${controlNote(control, group.measure === 'instructions')}`)
      const cost = costOf(group)
      blocks.push(`An express server ${group.mode === 'middleware' ? 'logging every request through the library\'s own request logger' : 'whose route logs N events of S characters per request'}, ` +
        `under autocannon load (${group.loadLabel}${group.rate != null ? `, at most ${group.rate.toLocaleString('en-US')} requests/s in all` : ''}). ${versusNoneText(group)}; ` +
        '_Drop_ is the share of logged events that never arrived intact at the receiving end.')
      const chart = { file: chartFile(...dir, `${group.mode}-${cost.name}`), ...costChart(group, ctx.conditions) }
      charts.push(chart)
      blocks.push(ctx.image(chart.file, `${group.title}: ${cost.title} per library`))
      for (const cell of group.cells) {
        blocks.push({ heading: cellTitle(cell), level: 3 })
        // Counted runs (--measure instructions) took no times: no latency or requests/s tables.
        if (cell.runs.some((r) => r.ok && r.reqPerSec)) {
          blocks.push(latencyTable(medianRuns(cell.runs)), requestsTable(medianRuns(cell.runs)))
        }
        // The one rule (verdict-rules.js): no verdict where the control failed (the control's own
        // cells, at 0 logs per request, keep theirs: they are the control).
        blocks.push(comparisonTable(cell.summary, { decided: control.passed || cell.logsPerRequest === 0 }))
        // Latency is a time: a counted cell has none to draw.
        if (cell.measure !== 'instructions' && cell.summary.some((s) => s.okRuns > 0)) {
          const tag = cell.mode === 'middleware' ? `${cell.size}c` : `${cell.logsPerRequest}x${cell.size}c`
          const latency = { file: chartFile(...dir, `${cell.mode}-latency-${tag}`), ...latencyChart(group, cell, ctx.conditions) }
          charts.push(latency)
          blocks.push(ctx.image(latency.file, `${cellTitle(cell)}: latency percentiles per library`))
        }
      }
    }
    return { blocks, charts }
  }
}
