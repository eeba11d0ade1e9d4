import { BASELINE, basisOf, httpCellOf, LIBRARY_DIMENSIONS, summarizeHttp } from '../../results/http-summary.js'
import { cellKey, measureNamed } from '../../results/model.js'
import { runTypeName, workersLabel } from '../../results/record.js'
import { DEFAULT_ALPHA, maxOf, smallestP } from '../../stats.js'
import { roundsOf } from '../../results/rounds.js'
import { judge } from '../../results/judge/verdict.js'
import { formatChange, formatChangePct, formatNoiseBand, formatNumber, formatPct, formatRunsToDecide, libraryName, transportTitle, unique, verdictWord } from '../../draw/labels.js'
import { code, figureColumns, strong, textColumns } from '../../draw/table.js'

// "At a glance" for a page of `http` results. Per table (transport, server workers, placement and
// load), first the control: at 0 logs per request the route logs nothing, so every library must read
// `same` against `none`. Where it does, the seed's grid (logs per request × size, each library's
// change in requests per second against `none` with its verdict), the cheapest and the most expensive
// library per number of logs, and the request loggers. Where it does not, the page says the machine
// was too noisy for that table instead of publishing its differences.

// The cells of one table differ only in library, mode (route or request logger), logs and size.
export const tableOf = (record) => cellKey(record, { except: [...LIBRARY_DIMENSIONS, 'mode', 'logsPerRequest', 'size'] })

const versusNone = (entry) => basisOf(entry).comparison

// What a grid cell says for one library: its change and verdict, or why there is none; a loss is
// named beside the change (fewer requests can come from dropping events too).
function changeCell (entry, options) {
  if (!entry) return '—'
  if (entry.status === 'unsupported') return 'unsupported'
  if (!entry.okRuns) return entry.status
  const comparison = versusNone(entry)
  if (comparison?.ratio == null) return 'no baseline'
  const notes = basisOf(entry).unit ? [basisOf(entry).unit] : []
  if (entry.okRuns < entry.runs) notes.push(`${entry.runs - entry.okRuns} of ${entry.runs} runs failed`)
  if (entry.dropRate?.mean > 0) notes.push(`${formatPct(entry.dropRate.mean)} lost`)
  return `${formatChange(comparison, options)}${notes.length ? ` (${notes.join(', ')})` : ''}`
}

// The control of a table: its 0-logs cells, each library's verdict against none. passed: every
// library that ran reads `same` (a failed control cell cannot vouch for anything), with runs enough
// on both sides that the test could have told them apart: with fewer than 4 + 4 runs Mann–Whitney
// cannot reach p < 0.05, so the control could not fail (a comparison paired by round always can: it
// pairs from 6 rounds). failing: a control cell that reads a difference (or has none to read);
// unclear: one whose interval is too wide to say `same`.
export function controlOf (entries) {
  const cells = entries.filter((s) => s.mode === 'route' && s.logsPerRequest === 0 && s.lib !== BASELINE && s.status !== 'unsupported')
  const tooFewRuns = cells.filter((s) => versusNone(s)?.p != null && !canTell(versusNone(s)))
  const unclear = cells.filter((s) => !tooFewRuns.includes(s) && versusNone(s)?.verdict === 'unclear' && versusNone(s).p != null)
  const failing = cells.filter((s) => !tooFewRuns.includes(s) && !unclear.includes(s) && versusNone(s)?.verdict !== 'same')
  return {
    measured: cells.length > 0,
    cells,
    failing,
    unclear,
    tooFewRuns,
    passed: cells.length > 0 && failing.length === 0 && unclear.length === 0 && tooFewRuns.length === 0
  }
}

const canTell = (comparison) => smallestP(comparison) < DEFAULT_ALPHA

// How far apart `same` can be here: the widest 95% interval of the control cells. A difference in the
// table smaller than that is one the machine's noise could also have made.
function resolution (control) {
  const widest = maxOf(control.cells.map(versusNone).map((c) => Math.max(1 - c.ciLow, c.ciHigh - 1)))
  // Under 10%, one decimal: a counted control's ±0.4% is not ±0%.
  const percent = widest * 100
  return `their intervals reach ±${percent < 10 ? percent.toFixed(1) : percent.toFixed(0)}%, the resolution of this table: a change smaller than that is one the machine's noise could make too.`
}

// Whether the server was what limited requests per second: the CPU its workers used under load in
// the `none` cells (100% = one CPU busy per worker). A server idle much of the time was waiting for
// the load generator or the machine, so the table measures them too.
const SATURATED = 0.8
function serverBusy (route) {
  // Under a fixed rate the server is meant to idle between requests: its CPU per request is the measure.
  if (route.some((s) => s.rate != null)) return ''
  const none = route.filter((s) => s.lib === BASELINE && s.serverCpuPct?.median != null)
  if (!none.length) return ''
  const share = maxOf(none.map((s) => s.serverCpuPct.median / 100 / s.cpus))
  if (share >= SATURATED) return ''
  return [strong('The server was not the bottleneck.'), ' Without logging (', code('none'), `) its workers used at most ${(share * 100).toFixed(0)}% of their CPU under load: requests per second were limited by the load generator or the machine, so a change against `, code('none'), ' measures how logging changes the server\'s waiting as much as what logging costs (a library can even read faster than no logging at all). The differences of this table are therefore not published as findings; the measured figures are in the tables below.']
}

// Per number of logs: the libraries ranked by their mean change over the sizes, among those measured
// without loss or failure at every size of that row.
export function cheapestAndDearest (entries, libs) {
  const rows = []
  for (const logs of unique(entries.filter((s) => s.mode === 'route' && s.logsPerRequest > 0).map((s) => s.logsPerRequest)).sort((a, b) => a - b)) {
    const ofLogs = entries.filter((s) => s.mode === 'route' && s.logsPerRequest === logs)
    const sizes = unique(ofLogs.map((s) => s.size)).sort((a, b) => a - b)
    const ranked = []
    for (const lib of libs) {
      const cells = sizes.map((size) => ofLogs.find((s) => libraryName(s) === lib && s.size === size))
      if (cells.some((s) => !s || s.okRuns < s.runs || versusNone(s)?.ratio == null || s.dropRate?.mean > 0)) continue
      const ratios = cells.map((s) => versusNone(s).ratio)
      ranked.push({ lib, cells, mean: ratios.reduce((a, b) => a + b, 0) / ratios.length })
    }
    if (ranked.length < 2) continue
    // Cheapest first: the most requests per second, or the least CPU or instructions per request.
    ranked.sort((a, b) => (basisOf(ofLogs[0]).better === 'higher' ? b.mean - a.mean : a.mean - b.mean))
    rows.push({ logs, sizes, cheapest: ranked[0], dearest: ranked[ranked.length - 1], ranked })
  }
  return rows
}

// Whether `a` costs less than `b` at every size (more requests per second, or less CPU or fewer
// instructions per request), by the verdict (judge) on their runs at the measure's own noise: a
// winner is named only where the runs separate it from the next.
function separated (a, b, runsOf, roundOf) {
  return a.cells.every((cell, i) => {
    const measure = measureNamed('http', basisOf(cell).field)
    return judge(runsOf(b.cells[i]), runsOf(cell), measure, { roundOf }).verdict === 'faster'
  })
}

// "pino: …" where the runs separate it from every other; otherwise it, then each library the runs
// do not separate from it (compared with it, not with the last of them, so that a chain of near
// neighbours does not join the cheapest with the dearest).
function placeCell (ranked, index, sizes, runsOf, roundOf) {
  const place = ranked[index]
  const apart = (other) => separated(...(index === 0 ? [place, other] : [other, place]), runsOf, roundOf)
  const tied = [place, ...ranked.filter((other) => other !== place && !apart(other))]
  if (tied.length === 1) return describeRanked(place, sizes)
  const [first, ...close] = tied
  return `${describeRanked(first, sizes)}; not separated from ${first.lib}: ${close.map((entry) => describeRanked(entry, sizes)).join('; ')}`
}

function describeRanked ({ lib, cells }, sizes) {
  const verdicts = unique(cells.map((s) => versusNone(s).verdict))
  const changes = cells.map((s, i) => `${formatChangePct(versusNone(s).ratio)} at ${sizes[i]}`).join(', ')
  return `${lib}: ${changes} chars${verdicts.length === 1 ? ` (${verdictWord(verdicts[0])} at every size)` : ''}`
}

function placementLine (runs) {
  const placements = unique(runs.filter((r) => r.placement).map((r) =>
    JSON.stringify(r.placement.pinned ? [r.placement.serverCpus, r.placement.loadCpus] : r.placement.reason)))
  if (!placements.length) return 'Where the server and the load ran was not recorded (results from before log-bench pinned them): they shared the machine\'s CPUs.'
  const pinned = runs.filter((r) => r.placement?.pinned)
  const where = unique(pinned.map((r) => `the server's workers on CPU ${r.placement.serverCpus}; autocannon, log-bench's primary and the receiving end on CPU ${r.placement.loadCpus}`))
  const not = unique(runs.filter((r) => r.placement && !r.placement.pinned).map((r) => r.placement.reason))
  const parts = []
  const elsewhere = pinned.filter(({ placement: p }) => p.observed?.primary !== p.loadCpus ||
    p.observed?.load !== p.loadCpus ||
    !p.observed?.server?.every((cpus) => cpus === p.serverCpus))
  if (where.length) parts.push(`Placed with taskset: ${where.join('; or ')}${elsewhere.length ? ` (but for ${elsewhere.length} of ${pinned.length} runs the kernel reported other CPUs for a process)` : ' (as the kernel reported for every process of every run)'}.`)
  if (not.length) parts.push(`${pinned.length ? 'Some runs were' : 'The runs were'} not pinned: ${not.join('; ')}.`)
  return parts.join(' ')
}

function runsLine (entries) {
  const counts = unique(entries.filter((s) => s.status !== 'unsupported').map((s) => s.okRuns)).sort((a, b) => a - b)
  const most = counts[counts.length - 1] ?? 0
  return `${counts.length > 1 ? `${counts[0]} to ${most}` : most} finished run${most === 1 ? '' : 's'} per cell`
}

// How the runs of a table were ordered, from when each started (startedAt; runs recorded without it
// in the order the results list them): interleaved when, among the libraries compared with each
// other, every run k came after every run k − 1.
function orderLine (runs) {
  if (maxOf(runs.map((r) => r.run), 0) < 2) return ''
  const ran = runs.filter((x) => x.status !== 'unsupported')
  if (ran.every((r) => r.startedAt != null)) ran.sort((a, b) => a.startedAt - b.startedAt)
  const groups = new Map()
  for (const r of ran) groups.set(httpCellOf(r), [...(groups.get(httpCellOf(r)) ?? []), r.run])
  const interleaved = [...groups.values()].every((numbers) => numbers.every((n, i) => i === 0 || n >= numbers[i - 1]))
  return interleaved ? ' in interleaved rounds (run 1 of every library, then run 2 of every library, …)' : ' one library after another (not interleaved)'
}

// --alternate: what each run was, and what each library is compared with.
function alternateLine ({ alternate = null, durationSeconds }) {
  if (alternate == null) return ''
  return ` Each run served the app without logging beside the library's, on the same CPUs, and turned the load from one to the other every ${alternate} s (${durationSeconds} s each in all): each library is compared with the baseline of its own runs, run by run.`
}

// How a table's runs were measured, where other than timed one server at a time: a title's end.
export const designTitle = ({ measure = null, alternate = null }) =>
  `${measure === 'instructions' ? ', instructions counted' : ''}${alternate != null ? ', alternating with none' : ''}`

function tableTitle (entry) {
  return `${transportTitle(entry.transport)}, ${workersLabel(entry.cpus, 'server')}${entry.rate ? `, ${entry.rate.toLocaleString('en-US')} requests/s` : ''}${designTitle(entry)}`
}

// The blocks of one table (see table.js): values that the page and the terminal both draw.
function glanceBlocks (entries, runs, roundOf) {
  const out = [{ heading: tableTitle(entries[0]), level: 3 }]
  const route = entries.filter((s) => s.mode === 'route')
  const libs = unique(route.filter((s) => s.lib !== BASELINE).map(libraryName))
  const sizes = unique(route.map((s) => s.size)).sort((a, b) => a - b)
  const control = controlOf(entries)
  const load = entries[0]
  const busy = serverBusy(route)
  out.push({ text: `${runsLine(entries)}${orderLine(runs)}, each ${load.durationSeconds} s of load after ${load.warmupSeconds} s warm-up, ${load.connections} connection${load.connections === 1 ? '' : 's'}.${alternateLine(load)} ${placementLine(runs)}` })

  if (busy) out.push({ text: busy })
  if (control.measured) {
    const controlSizes = unique(control.cells.map((s) => s.size)).sort((a, b) => a - b)
    const controlLibs = unique(control.cells.map(libraryName))
    const rows = controlSizes.map((size) => [`${size} chars`, ...controlLibs.map((lib) => changeCell(route.find((s) => s.logsPerRequest === 0 && s.size === size && libraryName(s) === lib), { interval: true }))])
    const verdict = control.failing.length ? `${control.failing.length} of ${control.cells.length} do not.` : control.passed ? `Every control cell does; ${resolution(control)}` : control.unclear.length ? `${control.unclear.length} of ${control.cells.length} read not decided: their intervals are too wide to say same.` : 'The control cells have too few runs for that verdict to mean anything.'
    const basis = basisOf(control.cells[0])
    out.push({ text: [strong('Control: 0 logs per request.'), ' The route logs nothing, so every library must read ', code('same'), ' against ', code('none'), ` (its whole interval within ${formatNoiseBand(basis.noise)}, the noise threshold for ${basis.unit ?? 'requests/s'}). ${verdict}`] })
    out.push({ columns: figureColumns(['Size', ...controlLibs]), rows })
  }
  if (busy) return out
  if (!control.passed) {
    out.push({ text: whyNotPublished(control, entries) })
    return out
  }

  const levels = unique(route.filter((s) => s.logsPerRequest > 0).map((s) => s.logsPerRequest)).sort((a, b) => a - b)
  if (levels.length) {
    const rows = []
    for (const logs of levels) {
      for (const size of sizes) {
        const cell = route.filter((s) => s.logsPerRequest === logs && s.size === size)
        const none = cell.find((s) => s.lib === BASELINE)
        rows.push([`${logs} × ${size}`, noneFigure(none), ...libs.map((lib) => changeCell(cell.find((s) => libraryName(s) === lib)))])
      }
    }
    const measured = basisOf(load).unit ? `${basisOf(load).unit[0].toUpperCase()}${basisOf(load).unit.slice(1)}` : 'Requests per second'
    out.push({ text: [strong([`${measured} against `, code('none')]), ', per logs per request × characters per log: the median change and its verdict.'] })
    out.push({ columns: figureColumns(['Logs × size', 'none', ...libs]), rows })
  }

  const ranking = cheapestAndDearest(route, libs)
  if (ranking.length) {
    const runsOfEntry = (entry) => runs.filter((r) => cellKey(r) === cellKey(entry))
    out.push({ columns: textColumns(['Logs per request', 'Cheapest', 'Most expensive']), rows: ranking.map((row) => [String(row.logs), placeCell(row.ranked, 0, row.sizes, runsOfEntry, roundOf), placeCell(row.ranked, row.ranked.length - 1, row.sizes, runsOfEntry, roundOf)]) })
  }

  const middleware = entries.filter((s) => s.mode === 'middleware')
  if (middleware.length) {
    const rows = middleware.filter((s) => s.lib !== BASELINE).map((s) => [
      s.middleware ? `${libraryName(s)} (${s.middleware})` : libraryName(s),
      changeCell(s, { interval: true }),
      s.p99VsBaseline ? formatChange(s.p99VsBaseline) : ''
    ])
    out.push({ text: [strong('Request loggers'), ` (each library's own express middleware, one event per request, ${unique(middleware.map((s) => s.size)).join(' / ')}-character payload):`] })
    out.push({ columns: figureColumns(['Library', 'Req/s vs none', 'p99 latency vs none']), rows })
  }
  return out
}

// none's own figure in a table's row: requests/s, or the server's CPU µs or instructions per request.
function noneFigure (none) {
  if (!none) return '—'
  if (none.measure === 'instructions') return none.instructionsPerRequest?.median != null ? `${formatNumber(none.instructionsPerRequest.median)} instructions` : '—'
  if (none.rate != null) return none.serverCpuUsPerRequest?.median != null ? `${formatNumber(none.serverCpuUsPerRequest.median, 1)} µs` : '—'
  return none.reqPerSec ? `${formatNumber(none.reqPerSec.median)} req/s` : '—'
}

// Why a table's differences are not published: no control, too few runs for it, or a control cell
// that does not read `same`.
function whyNotPublished (control, entries) {
  const tail = ' The measured figures are in the tables below.'
  if (!control.measured) return [strong('No control.'), ' No 0-logs-per-request cells were measured with this table, so its differences could not be checked against the machine\'s noise and are not published as findings.' + tail]
  if (!control.failing.length && control.unclear.length) {
    return [strong('The control could not confirm this table.'), ` ${control.unclear.map((s) => `${libraryName(s)} at ${s.size} chars (${changeCell(s, { interval: true })}${versusNone(s).runsToDecide ? `; ${formatRunsToDecide(versusNone(s).runsToDecide)} runs a side would decide` : ''})`).join(', ')}: with intervals this wide the machine's noise could hide differences as large as the table would show, so its differences are not published as findings.` + tail]
  }
  if (!control.failing.length) {
    return [strong('Too few runs for the control.'), ` With ${runsLine(entries)}, no difference could reach p < ${DEFAULT_ALPHA} (that takes at least 4 runs of each library and of `, code('none'), '), so ', code('same'), ' in the control says nothing about the machine\'s noise and the differences of this table are not published as findings.' + tail]
  }
  const differ = ` ${control.failing.map((s) => `${libraryName(s)} at ${s.size} chars (${changeCell(s, { interval: true })})`).join(', ')} ${control.failing.length > 1 ? 'differ' : 'differs'} from `
  if (entries[0]?.measure === 'instructions') {
    return [strong('The control reads a difference.'), differ, code('none'), ' although nothing is logged. A count does not follow the machine\'s speed: either having the library in the server changes what every request costs (its code and objects beside express\'s), or its count varies from run to run (see the spread of its runs below). Either way this table cannot tell the cost of logging apart from it, so its differences are not published as findings.' + tail]
  }
  return [strong('Too noisy for this table.'), differ, code('none'), ' although nothing is logged: on this machine, in this session, the noise was as large as the differences the table would show, so its differences are not published as findings.' + tail]
}

// The summary entries of each table, in the order the tables first appear.
function entriesByTable (summary) {
  const tables = new Map()
  for (const entry of summary) {
    const key = tableOf(entry)
    if (!tables.has(key)) tables.set(key, [])
    tables.get(key).push(entry)
  }
  return tables
}

export function controlsByTable (summary) {
  return new Map([...entriesByTable(summary)].map(([key, entries]) => [key, controlOf(entries)]))
}

// The Summary's sentence for each counted table (--measure instructions): its control, and where
// that reads `same`, what each library's logging costs per request against none at each number of
// logs and size, with the verdict. The rest of the Summary reads the closed-loop tables.
export function countedSentences (dataset) {
  const counted = dataset.runs.filter((r) => runTypeName(r) === 'http' && r.measure === 'instructions')
  const out = []
  for (const entries of entriesByTable(summarizeHttp(counted, { roundOf: roundsOf(dataset) })).values()) {
    const control = controlOf(entries)
    const where = `The server's instructions per request against no logging (${tableTitle(entries[0])})`
    if (!control.measured) {
      out.push(`${where}: no 0-logs control was measured, so its differences are not findings.`)
      continue
    }
    const controls = control.cells.map((s) => `${libraryName(s)} ${formatChange(versusNone(s), { interval: true })}`).join(', ')
    if (!control.passed) {
      const why = control.failing.length || control.unclear.length ? 'did not read same for every library' : 'had too few runs to tell libraries apart'
      out.push(`${where}: the control (0 logs per request) ${why} (${controls}), so its differences are not findings.`)
      continue
    }
    const costs = entries.filter((s) => s.mode === 'route' && s.logsPerRequest > 0 && s.lib !== BASELINE && s.okRuns > 0 && versusNone(s)?.ratio != null)
      .map((s) => `${libraryName(s)} at ${s.logsPerRequest} × ${s.size} characters ${formatChange(versusNone(s), { interval: true })}`)
    out.push(`${where}: the control (0 logs per request) reads same (${controls})${costs.length ? `; logging costs ${costs.join(', ')}` : ''}.`)
  }
  return out
}

export const httpGlanceSection = {
  name: 'http-glance',
  types: ['http'],
  placement: 'top',
  render (dataset) {
    const runs = dataset.runs.filter((r) => runTypeName(r) === 'http')
    // Beside run results (the versions page) the run's At a glance comes first: this one is HTTP's.
    const blocks = [{ heading: dataset.runs.some((r) => runTypeName(r) !== 'http') ? 'At a glance: HTTP' : 'At a glance' }]
    const roundOf = roundsOf(dataset)
    for (const [key, entries] of entriesByTable(summarizeHttp(runs, { roundOf }))) {
      blocks.push(...glanceBlocks(entries, runs.filter((r) => tableOf(r) === key), roundOf))
    }
    return { blocks, charts: [] }
  }
}
