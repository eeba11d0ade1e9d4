import { comparisonGroupKey, cellKey, runsByCell, workersLabel } from '../results/model.js'
import { mergeSummaries, ownerWords, profileDiff } from '../results/profile-summary.js'
import { runName } from '../draw/labels.js'
import { figureColumns, terminalTable } from '../draw/table.js'
import { visibleControls } from '../escape.js'
import { baselineMatcher } from './compare.js'

// compare --profile-diff: where two profiled cells spend their time differently (run --profile,
// docs/costs.md "CPU profiles"). Not a verdict: shares of sampled time and µs per event, each cell's
// runs merged (mergeSummaries), per package and per function by owner (a native callee's time is its
// JavaScript caller's), the largest difference first; the profiler's own frames ((idle), (program),
// the collector) apart, never a package's extra work; the packages by self time after them.
// With --baseline, each profiled cell of one file against the baseline library's cell of its
// comparison group; with two files, each profiled cell against the same cell of the other file.

const profiledCells = (dataset) => runsByCell(dataset.runs, 'run').filter((runs) => runs[0].profile === true)

// { mode, baseline?, pairs: [{ group, baseName, otherName, baseRuns, otherRuns, packages, functions }], notCompared }
export function profileDiffWithBaseline (dataset, baseline) {
  const isBaseline = baselineMatcher(baseline)
  const cells = profiledCells(dataset)
  const baselines = new Map(cells.filter((runs) => isBaseline(runs[0]))
    .map((runs) => [comparisonGroupKey(runs[0]), runs]))
  const pairs = []
  const notCompared = []
  for (const runs of cells) {
    if (isBaseline(runs[0])) continue
    const base = baselines.get(comparisonGroupKey(runs[0]))
    if (!base) {
      notCompared.push(`${runName(runs[0])} (${groupWords(runs[0])}): no profiled ${baseline} cell beside it`)
      continue
    }
    pairOf(base, runs, pairs, notCompared)
  }
  return { mode: 'baseline', baseline, pairs, notCompared }
}

export function profileDiffDatasets (base, next) {
  const before = new Map(profiledCells(base).map((runs) => [cellKey(runs[0]), runs]))
  const pairs = []
  const notCompared = []
  for (const runs of profiledCells(next)) {
    const earlier = before.get(cellKey(runs[0]))
    if (earlier) pairOf(earlier, runs, pairs, notCompared)
    else notCompared.push(`${runName(runs[0])} (${groupWords(runs[0])}): not profiled in the base file`)
  }
  return { mode: 'files', pairs, notCompared }
}

// Why a profiled cell's runs give no summary (mergeSummaries takes the runs that hold one and logged
// events), in words: "2 failed runs, 1 ok run that recorded none".
function whyNoSummary (runs) {
  const count = (n, what) => `${n} ${what.replace('{s}', n === 1 ? '' : 's')}`
  const failed = runs.filter((r) => !r.ok).length
  const without = runs.filter((r) => r.ok && !r.profileSummary).length
  const silent = runs.filter((r) => r.ok && r.profileSummary && !(r.sent > 0)).length
  return [
    failed ? count(failed, 'failed run{s}') : '',
    without ? count(without, 'ok run{s} that recorded none') : '',
    silent ? count(silent, 'ok run{s} that logged no events') : ''
  ].filter(Boolean).join(', ')
}

function pairOf (baseRuns, otherRuns, pairs, notCompared) {
  const [base, other] = [mergeSummaries(baseRuns), mergeSummaries(otherRuns)]
  const words = `${runName(otherRuns[0])} (${groupWords(otherRuns[0])})`
  if (!base || !other) return notCompared.push(`${words}: ${base ? 'its' : 'the base\'s'} runs hold no profile summary (${whyNoSummary(base ? otherRuns : baseRuns)})`)
  pairs.push({
    group: groupWords(otherRuns[0]),
    baseName: runName(baseRuns[0]),
    otherName: runName(otherRuns[0]),
    baseRuns: base.runs,
    otherRuns: other.runs,
    ...profileDiff(base, other),
    self: profileDiff(base, other, { view: 'self' }).packages
  })
}

function groupWords (record) {
  return [record.transport, workersLabel(record.cpus), `${record.events.toLocaleString('en-US')} events`, `${record.size} B`, record.workload && record.workload !== 'string' ? record.workload : null]
    .filter(Boolean).join(', ')
}

const figure = (side) => (side ? `${(side.share * 100).toFixed(1)}% (${formatUs(side.usPerEvent)} µs/event)` : '—')
const formatUs = (us) => (Math.abs(us) >= 10 ? us.toFixed(1) : us.toFixed(2))
const signed = (us) => `${us > 0 ? '+' : us < 0 ? '−' : '±'}${formatUs(Math.abs(us))}`

// The terminal's text: per pair a line in words for the largest package difference ("winston:
// logform 38.0% (2.1 µs/event), pino: —"), then the packages and the functions, `rows` of each.
export function renderProfileDiff (result, { rows = 10 } = {}) {
  const out = []
  for (const pair of result.pairs) {
    const other = visibleControls(pair.otherName)
    const base = visibleControls(pair.baseName)
    out.push(`${visibleControls(pair.group)}: ${other} against ${base} (profiled; ${pair.otherRuns} and ${pair.baseRuns} runs merged)`)
    const top = pair.packages[0]
    if (top) out.push(`  ${other}: ${visibleControls(top.name)} ${figure(top.other)}, ${base}: ${top.base ? figure(top.base) : '—'}`)
    out.push('')
    out.push(terminalTable({
      columns: figureColumns(['package', other, base, 'difference µs/event']),
      rows: pair.packages.slice(0, rows).map((p) => [p.name, figure(p.other), figure(p.base), signed(p.differenceUs)])
    }))
    out.push('')
    out.push(terminalTable({
      columns: figureColumns(['function', 'file:line', other, base, 'difference µs/event']),
      rows: pair.functions.slice(0, rows).map((f) => [`${f.package} ${ownerWords(f)}`, `${f.file}${f.line == null ? '' : `:${f.line}`}`, figure(f.other), figure(f.base), signed(f.differenceUs)])
    }))
    out.push('')
    const apart = pair.apart.filter((p) => p.differenceUs !== 0)
    if (apart.length) out.push(`  not a package's work: ${apart.map((p) => `${visibleControls(p.name)} ${signed(p.differenceUs)}`).join(', ')} µs/event`, '')
    if (pair.self.length) {
      out.push(terminalTable({
        columns: figureColumns(['package (self time)', other, base, 'difference µs/event']),
        rows: pair.self.slice(0, rows).map((p) => [p.name, figure(p.other), figure(p.base), signed(p.differenceUs)])
      }))
      out.push('')
    }
  }
  for (const note of result.notCompared) out.push(`not compared: ${visibleControls(note)}`)
  out.push('Shares are of the sampled time of all threads, (idle) included; µs per event is time over the events logged. By owner: the time of native code and of Node\'s own modules goes to the nearest JavaScript above it outside Node (owner → what it called); by self time: the frame on top as it is. (idle), (program) and the garbage collector are apart, not a package\'s work. A difference here is where the time went, not a verdict: the times of profiled runs are taken under the profiler.')
  return out.join('\n') + '\n'
}
