import { ofType } from '../results/model.js'
import { runTypeName } from '../results/record.js'
import { summarizeHttp, BASELINE } from '../results/http-summary.js'
import { roundsOf } from '../results/rounds.js'
import { median } from '../stats.js'
import { findings, lossPerRun, pace, whereLost } from './summary.js'
import { keptAcross } from './run/durability-section.js'
import { kneeAcross, overloadAcross, overloadRuns, pacedEntries, pacesStalls } from './run/latency-section.js'
import { KNEE_BOUND_NS } from '../results/judge/knee.js'
import { controlOf } from './http/glance.js'
import { basisOf } from '../results/http-summary.js'
import { notDecidedControl, shortReason } from '../results/judge/verdict-rules.js'
import { formatBytes, formatChange, formatCount, formatNumber, formatPct, formatRatio, libraryName, transportTitle, unique, verdictWord } from '../draw/labels.js'
import { figureColumns, textColumns } from '../draw/table.js'
import { BASELINE_LIBS } from '../engine/library-names.js'

// The scorecard on the results index (the first page of report --pages): a few tables by theme, one
// row per library with its figures from every page, each table linking to the pages (and sections)
// its figures come from, each verdict as that page gives it (the same findings, the same rule:
// verdict-rules.js), "—" where a page has no figure. pages: [{ dataset, href (from the index page
// to that page's .md) }], the index first. Nothing here measures or judges anew.

const NONE = '—'

// A page's detail page for one comparison (src/report/run/section.js names it by transport, and
// -instructions for counted cells), else the page's own section.
const detailOr = (page, slug, anchor, fallback) => (page.details ? `${page.details}/${slug}.md${anchor}` : `${page.href}${fallback}`)

// The scorecard's columns, a few tables by theme so that each fits a page's width: { theme, title,
// href(sources): the page and section its figures come from, value(sources, lib) → a cell or NONE }.
// sources are the pages the figures come from (scorecardBlocks finds them); a column whose page is
// missing shows NONE. A new column is one more entry here.
const COLUMNS = [
  { theme: 'Speed and cost', title: (s) => `${s.seed?.fileEvents ? `${formatCount(s.seed.fileEvents)} events` : 'The seed\'s events'} to a file, 1 worker (done)`, href: (s) => s.seed && `${s.index.href}#summary`, value: (s, lib) => s.seed?.file(lib) ?? NONE },
  { theme: 'Speed and cost', title: () => 'Instructions per event, file', href: (s) => s.counted && detailOr(s.counted, 'file-instructions', '', '#at-a-glance'), value: (s, lib) => s.counted ? instructionsPerEvent(s.counted, lib) : NONE },
  { theme: 'Speed and cost', title: () => 'Server instructions per HTTP request, 5 logs', href: (s) => s.http && `${s.http.href}#at-a-glance`, value: (s, lib) => s.httpCosts?.get(lib) ?? NONE },
  { theme: 'Speed and cost', title: () => 'Peak RSS, file, 1 worker', href: (s) => s.seed && detailOr(s.index, 'file', `#${transportTitle('file').toLowerCase()}-details`, '#summary'), value: (s, lib) => s.seed?.memory(lib) ?? NONE },
  { theme: 'Events lost under close(), 8 workers', title: () => 'Syslog UDP', href: (s) => s.seed && `${s.index.href}#at-a-glance`, value: (s, lib) => s.seed?.lost(lib, 'udp') ?? NONE },
  { theme: 'Events lost under close(), 8 workers', title: () => 'Syslog TCP', href: (s) => s.seed && `${s.index.href}#at-a-glance`, value: (s, lib) => s.seed?.lost(lib, 'tcp') ?? NONE },
  ...[['exit', 'process.exit()'], ['uncaught', 'An uncaught exception'], ['sigterm', 'SIGTERM']].map(([ending, title]) => ({
    theme: 'Events kept when the process ends',
    title: () => title,
    href: (s) => s.durability && `${s.durability.href}#do-the-logs-survive`,
    value: (s, lib) => kept(s.durability, lib, ending)
  })),
  { theme: 'Latency', title: () => `Knee (response p99 ≤ ${formatNumber(KNEE_BOUND_NS / 1e6, 0)} ms)`, href: (s) => s.paced && `${s.paced.href}#the-knee-the-highest-rate-each-logger-sustains`, value: (s, lib) => perTransport(s.paced && kneeAcross(s.paced.dataset.summary, lib, { brief: true })) },
  { theme: 'Latency', title: () => 'Under a stalled reader', href: (s) => s.stalled && `${s.stalled.href}#when-the-destination-cannot-keep-up`, value: (s, lib) => perTransport(s.stalled && overloadAcross(s.stalled.dataset.runs, lib)) }
]

// What each theme's table says above it.
const THEMES = {
  'Speed and cost': 'Time, instructions and memory: lower is better.',
  'Events lost under close(), 8 workers': 'Pooled over the runs, with the runs\' range and where the loss happened (at the receiving socket, on the machine that sent, or before the receiver); where none was lost, the pace it was sent at (events per second until done): where a receiver drops, what arrives depends on how fast each sender feeds it.',
  'Events kept when the process ends': 'Per transport where a library lost events; "every event" where it kept them all.',
  Latency: 'Paced at a fixed rate, 1 worker: the highest rate each sustains with its response time\'s p99 (from each call\'s intended time) at most the bound, and what it did when its reader stalled (blocks, drops, grows, or coped).'
}

export function scorecardBlocks (pages) {
  if (pages.length < 2) return []
  const [index, ...others] = pages
  const seed = index.dataset.runs.some((r) => runTypeName(r) === 'run') ? seedFigures(index) : null
  const durability = pages.find((p) => ofType(p.dataset.runs, 'run').some((r) => r.ending != null && r.ending !== 'close'))
  const http = others.find((p) => p.dataset.runs.some((r) => runTypeName(r) === 'http' && r.measure === 'instructions'))
  const counted = pages.find((p) => p.dataset.runs.some((r) => typeof r.instructionsPerEvent === 'number'))
  const paced = pages.find((p) => pacedEntries(p.dataset.summary).length > 0)
  // Under a stall: the page of paced stalls where one is listed (scenarios/overload.json, whose
  // verdicts are decided where a tight loop's are not), else the latency page's runs where it has
  // them (a durability page may have some too).
  const hasStall = (p) => overloadRuns(p.dataset.runs).some((r) => r.receiverStallMs != null)
  const stalled = pages.find((p) => pacesStalls(p.dataset)) ??
    (paced && hasStall(paced) ? paced : null) ??
    pages.find(hasStall)
  const libs = unique([
    ...(seed?.libs ?? []),
    ...(durability ? ofType(durability.dataset.runs, 'run').map(libraryName) : []),
    ...(http ? http.dataset.runs.filter((r) => r.measure === 'instructions').map((r) => r.lib) : []),
    ...(paced ? pacedEntries(paced.dataset.summary).map(libraryName) : []),
    ...(stalled ? overloadRuns(stalled.dataset.runs).map(libraryName) : [])
  ]).filter((lib) => !BASELINE_LIBS.has(lib))
  if (!libs.length) return []
  const sources = { index, seed, durability, http, counted, paced, stalled, httpCosts: http ? httpFigures(http) : null }
  const blocks = [
    { heading: 'Scorecard' },
    'Each library\'s figures from every page, each table linking to where its figures come from, each verdict as that page gives it: a page that cannot decide says so here too. "—": the page has no figure for it.'
  ]
  for (const theme of unique(COLUMNS.map((c) => c.theme))) {
    // A column no library has a figure in (its page is not among these) is left out.
    const columns = COLUMNS.filter((c) => c.theme === theme && libs.some((lib) => c.value(sources, lib) !== NONE))
    const rows = libs.map((lib) => [lib, ...columns.map((c) => c.value(sources, lib))])
      .filter((row) => row.slice(1).some((cell) => cell !== NONE))
    if (!rows.length) continue
    const from = unique(columns.map((c) => c.href(sources)).filter(Boolean))
      .map((href) => `[${columns.filter((c) => c.href(sources) === href).map((c) => c.title(sources)).join(', ')}](${href})`)
    blocks.push(`**${theme}.** ${THEMES[theme]}${from.length ? ` From: ${from.join(' · ')}.` : ''}`, { columns: figureColumns(['Library', ...columns.map((c) => c.title(sources))]), rows })
  }
  return [...blocks, ...provenanceBlocks(pages)]
}

// A figure given per transport ("Console: …; Filesystem: …"), one line per transport, so that the
// table keeps to a page's width.
const perTransport = (text) => (text ? { lines: text.split('; ') } : NONE)

// What a library kept under one ending, one line per transport.
function kept (durability, lib, ending) {
  const text = durability ? keptAcross(ofType(durability.dataset.runs, 'run'), lib, ending) : null
  if (!text) return NONE
  return { lines: text.split('; ') }
}

// Where each page's figures come from: pages measured in different sessions may differ in machine,
// kernel, Node and commit, and their figures compare only within a page. What differs across the
// pages is named, with the pages on each side; "one machine" only where nothing that was recorded
// differs (a machine's model, cores and memory, its kernel, Node).
const PROVENANCE = [
  { name: 'machine', title: 'Machine', of: (env) => (env.cpuModel ? `${env.cpuModel} × ${env.cpuCount}${env.memoryBytes ? `, ${formatBytes(env.memoryBytes)}` : ''}` : null) },
  { name: 'kernel', title: 'Kernel', of: (env) => kernelOf(env.os) },
  { name: 'Node', title: 'Node', of: (env) => env.node },
  { name: 'commit', title: 'Commit', of: (env) => env.gitCommit?.slice(0, 7) }
]

export function provenanceBlocks (pages) {
  const valueOf = (dataset, p) => unique((dataset.envs ?? []).map((e) => p.of(e.env ?? {})).filter(Boolean)).join(', ') || 'unknown'
  const values = pages.map(({ dataset }) => PROVENANCE.map((p) => valueOf(dataset, p)))
  const rows = pages.map(({ dataset, href, label }, i) => [
    { value: label ?? href, href },
    unique((dataset.envs ?? []).map((e) => e.env?.time?.slice(0, 10)).filter(Boolean)).join(', ') || 'unknown',
    ...values[i]
  ])
  const pagesWith = (j, value) => pages.filter((_, i) => values[i][j] === value).map((page) => page.label ?? page.href)
  const differ = PROVENANCE.map((p, j) => ({
    ...p,
    groups: unique(values.map((v) => v[j])).map((value) => ({ value, pages: pagesWith(j, value) }))
  }))
    .filter((p) => p.groups.length > 1)
  const setup = differ.filter((p) => p.name !== 'commit')
  const commits = differ.find((p) => p.name === 'commit')
  const side = ({ value, pages: names }, all) => `${value} (${names.length === all ? 'every page' : names.join(', ')})`
  const words = setup.length
    ? `The pages were not all measured on one setup: ${setup.map((p) => `${p.name} ${p.groups.sort((a, b) => a.pages.length - b.pages.length).map((g) => side(g, pages.length)).join(' against ')}`).join('; ')}${commits ? `; and ${commits.groups.length} commits` : ''}. Figures compare within a page; across pages, only where the rows below match.`
    : `One machine, kernel and Node version${commits ? ` (${commits.groups.length} commits)` : ''}: figures compare within a page; across pages, only where the rows below match.`
  return [
    `Where each page's figures come from. ${words}`,
    { columns: textColumns(['Page', 'Measured', ...PROVENANCE.map((p) => p.title)]), rows }
  ]
}

// "Linux 6.18.44-fc-v782" from an os line such as "Debian GNU/Linux 12 (bookworm) (Linux 6.18.44-fc-v782
// x64)" (results/env.js writes the kernel last, in parentheses); null where it is not there.
export function kernelOf (os) {
  if (typeof os !== 'string') return null
  // Without /etc/os-release the line is the kernel alone: "Linux 6.1.0 x64".
  const match = os.match(/\((\w+) ([^\s()]+)(?: [^()]*)?\)$/) ?? os.match(/^(\w+) (\S+) \S+$/)
  return match ? `${match[1]} ${match[2]}` : null
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
      if (!(cell.lost > 0)) return pace(cell) == null ? 'none' : `none (sent ${formatCount(pace(cell))}/s)`
      const where = whereLost(cell)
      return { lines: [lossPerRun(cell.runs, cell.lost, where.startsWith('at the')), ...(where ? [where] : [])] }
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
