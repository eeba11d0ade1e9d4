import { ofType } from '../results/model.js'
import { runTypeName } from '../results/record.js'
import { summarizeHttp, BASELINE } from '../results/http-summary.js'
import { roundsOf } from '../results/rounds.js'
import { median } from '../stats.js'
import { findings } from './summary.js'
import { keptAcross } from '../run/durability-section.js'
import { kneeAcross, overloadAcross, overloadRuns, pacedEntries } from '../run/latency-section.js'
import { KNEE_BOUND_NS } from '../run/knee.js'
import { controlOf } from '../http/glance.js'
import { basisOf } from '../results/http-summary.js'
import { notDecidedControl, shortReason } from '../draw/verdict-rules.js'
import { formatBytes, formatChange, formatCount, formatNumber, formatPct, formatRatio, libraryName, transportTitle, unique, verdictWord } from '../draw/labels.js'
import { figureColumns, textColumns } from '../draw/table.js'

// The scorecard on the results index (the first page of report --pages): one row per library with
// its figures from every page, each cell linking to the page (and section) it comes from, each
// verdict as that page gives it (the same findings, the same rule: verdict-rules.js), "—" where a
// page has no figure. pages: [{ dataset, href (from the index page to that page's .md) }], the index
// first. Nothing here measures or judges anew.

const BASELINES = new Set(['noop', 'raw', 'none'])
const NONE = '—'
const link = (value, href) => (href && value !== NONE ? { value, href } : value)
const linkOr = (text, href) => (text ? link(text, href) : NONE)

// A page's detail page for one comparison (src/run/section.js names it by transport, and
// -instructions for counted cells), else the page's own section.
const detailOr = (page, slug, anchor, fallback) => (page.details ? `${page.details}/${slug}.md${anchor}` : `${page.href}${fallback}`)

export function scorecardBlocks (pages) {
  if (pages.length < 2) return []
  const [index, ...others] = pages
  const seed = index.dataset.runs.some((r) => runTypeName(r) === 'run') ? seedFigures(index) : null
  const durability = pages.find((p) => ofType(p.dataset.runs, 'run').some((r) => r.ending != null && r.ending !== 'close'))
  const http = others.find((p) => p.dataset.runs.some((r) => runTypeName(r) === 'http' && r.measure === 'instructions'))
  const counted = pages.find((p) => p.dataset.runs.some((r) => typeof r.instructionsPerEvent === 'number'))
  const paced = pages.find((p) => pacedEntries(p.dataset.summary).length > 0)
  // Under a stall: the latency page's runs where it has them (a durability page may have some too).
  const hasStall = (p) => overloadRuns(p.dataset.runs).some((r) => r.receiverStallMs != null)
  const stalled = (paced && hasStall(paced) ? paced : null) ?? pages.find(hasStall)
  const libs = unique([
    ...(seed?.libs ?? []),
    ...(durability ? ofType(durability.dataset.runs, 'run').map(libraryName) : []),
    ...(http ? http.dataset.runs.filter((r) => r.measure === 'instructions').map((r) => r.lib) : []),
    ...(paced ? pacedEntries(paced.dataset.summary).map(libraryName) : []),
    ...(stalled ? overloadRuns(stalled.dataset.runs).map(libraryName) : [])
  ]).filter((lib) => !BASELINES.has(lib))
  if (!libs.length) return []
  const httpCosts = http ? httpFigures(http) : null
  const rows = libs.map((lib) => [
    lib,
    seed ? link(seed.file(lib), `${index.href}#summary`) : NONE,
    seed ? link(seed.lost(lib, 'udp'), `${index.href}#at-a-glance`) : NONE,
    seed ? link(seed.lost(lib, 'tcp'), `${index.href}#at-a-glance`) : NONE,
    ...['exit', 'uncaught', 'sigterm'].map((ending) => {
      const text = durability ? keptAcross(ofType(durability.dataset.runs, 'run'), lib, ending) : null
      return text ? link(text, `${durability.href}#do-the-logs-survive`) : NONE
    }),
    counted ? link(instructionsPerEvent(counted, lib), detailOr(counted, 'file-instructions', '', '#at-a-glance')) : NONE,
    httpCosts?.get(lib) ? link(httpCosts.get(lib), `${http.href}#at-a-glance`) : NONE,
    seed ? link(seed.memory(lib), detailOr(index, 'file', `#${transportTitle('file').toLowerCase()}-details`, '#summary')) : NONE,
    // Only where a page has them, so that an index without a latency page is unchanged.
    ...(paced ? [linkOr(kneeAcross(paced.dataset.summary, lib), `${paced.href}#the-knee-the-highest-rate-each-logger-sustains`)] : []),
    ...(stalled ? [linkOr(overloadAcross(stalled.dataset.runs, lib), `${stalled.href}#when-the-destination-cannot-keep-up`)] : [])
  ])
  const events = seed?.fileEvents ? `${formatCount(seed.fileEvents)} events` : 'the seed\'s events'
  return [
    { heading: 'Scorecard' },
    'Each library\'s figures from every page, each linking to where it comes from, each verdict as that page gives it: a page that cannot decide says so here too. "—": the page has no figure for it.',
    {
      columns: figureColumns(['Library', `${events} to a file, 1 worker (done)`, 'Lost, 8 workers, syslog UDP', 'Lost, 8 workers, syslog TCP', 'Kept on process.exit()', 'Kept on an uncaught exception', 'Kept on SIGTERM', 'Instructions per event', 'Server instructions per HTTP request, 5 logs', 'Peak RSS, file, 1 worker', ...(paced ? [`Knee (response p99 ≤ ${formatNumber(KNEE_BOUND_NS / 1e6, 0)} ms)`] : []), ...(stalled ? ['Under a stalled reader'] : [])]),
      rows
    },
    ...provenanceBlocks(pages)
  ]
}

// Where each page's figures come from: pages measured in different sessions may differ in machine,
// Node and commit, and their figures compare only within a page.
function provenanceBlocks (pages) {
  const rows = pages.map(({ dataset, href, label }) => {
    const envs = dataset.envs ?? []
    const of = (pick) => unique(envs.map((e) => pick(e.env)).filter(Boolean)).join(', ') || 'unknown'
    return [
      { value: label ?? href, href },
      of((env) => env.time?.slice(0, 10)),
      of((env) => (env.cpuModel ? `${env.cpuModel} × ${env.cpuCount}` : null)),
      of((env) => env.node),
      of((env) => env.gitCommit?.slice(0, 7))
    ]
  })
  const machines = unique(rows.map((r) => `${r[2]} ${r[3]}`)).length
  const commits = unique(rows.map((r) => r[4])).length
  return [
    `Where each page's figures come from${machines > 1 || commits > 1 ? ` (${commits > 1 ? `${commits} commits` : 'one commit'}, ${machines > 1 ? `${machines} machines or Node versions` : 'one machine and Node version'}: figures compare within a page; across pages, only where the rows below match)` : ''}:`,
    { columns: textColumns(['Page', 'Measured', 'Machine', 'Node', 'Commit']), rows }
  ]
}

// The index page's figures: its findings (summary.js), the same verdicts its Summary gives.
function seedFigures ({ dataset }) {
  const found = findings(dataset)
  if (found.type !== 'run') return null
  const groupOf = (transport, cpus) =>
    found.groups.find((g) => g.first.transport === transport && g.first.cpus === cpus)
  const file = groupOf('file', 1)
  const cellOf = (group, lib) => group?.cells.find((c) => c.name === lib)
  const unsupported = (group, lib) => group?.unsupported?.includes(lib)
  return {
    libs: unique(found.groups.flatMap((g) => g.cells.map((c) => c.name))),
    fileEvents: file?.first.events ?? null,
    file (lib) {
      const cell = cellOf(file, lib)
      if (!cell) return unsupported(file, lib) ? 'unsupported' : NONE
      const time = `${formatCount(Math.round(cell.median))} ms`
      if (cell.lost > 0) return `${time}, lost ${formatPct(cell.lost)}`
      if (file.undecided) return `${time} (${shortReason(file.undecided)})`
      if (file.firsts.length > 1 && file.firsts.includes(cell) && cell !== file.best) return `${time} (not separated from the fastest, ${file.best.name})`
      if (file.firsts.length > 1 && cell === file.best) return `${time} (first by median, not separated from ${file.firsts.length - 1} other${file.firsts.length > 2 ? 's' : ''})`
      if (cell === file.best) return `${time} (fastest)`
      return `${time} (${formatRatio(cell.relative)} the fastest, ${cell.verdict ? verdictWord(cell.verdict) : 'no verdict'})`
    },
    lost (lib, transport) {
      const group = groupOf(transport, 8)
      const cell = cellOf(group, lib)
      if (!cell) return unsupported(group, lib) ? 'unsupported' : NONE
      // A cell whose every run failed lost nothing that was counted: it did not finish.
      if (!cell.runs.some((r) => r.ok)) return 'did not finish'
      return cell.lost > 0 ? formatPct(cell.lost) : 'none'
    },
    memory (lib) {
      const cell = cellOf(file, lib)
      const peaks = cell ? cell.runs.filter((r) => r.ok).map((r) => r.maxRssBytes).filter((v) => v > 0) : []
      return peaks.length ? formatBytes(median(peaks)) : NONE
    }
  }
}

// Instructions per event to a file, where a page counted them: the median of the runs.
function instructionsPerEvent ({ dataset }, lib) {
  const counts = ofType(dataset.runs, 'run').filter((r) => libraryName(r) === lib && r.transport === 'file' && r.ok && typeof r.instructionsPerEvent === 'number').map((r) => r.instructionsPerEvent)
  return counts.length ? formatCount(Math.round(median(counts))) : NONE
}

// The server's instructions per request at 5 logs against none, as the HTTP page gives it: its
// counted table's control first (no verdict where it does not read same).
function httpFigures ({ dataset }) {
  const counted = dataset.runs.filter((r) => runTypeName(r) === 'http' && r.measure === 'instructions')
  const entries = summarizeHttp(counted, { roundOf: roundsOf(dataset) })
  const withheld = notDecidedControl(controlOf(entries))
  const out = new Map()
  for (const entry of entries.filter((s) => s.mode === 'route' && s.logsPerRequest === 5 && s.lib !== BASELINE && s.okRuns > 0)) {
    const figure = entry.instructionsPerRequest?.median
    const comparison = basisOf(entry).comparison
    const change = comparison?.ratio == null ? '' : withheld ? ` (${shortReason(withheld)})` : ` (${formatChange(comparison)} against no logging)`
    out.set(entry.lib, `${figure == null ? NONE : formatCount(Math.round(figure))}${change}`)
  }
  return out
}
