import fs from 'node:fs'
import { visibleControls } from '../../escape.js'
import semver from 'semver'
import { cellKey, cellWords, comparisonGroupKey, dimensionValue, measureNamed, ofType } from '../model.js'
import { maxOf, median, minOf } from '../../stats.js'
import { mergeSummaries, ownerWords } from '../profile-summary.js'
import { packageRelative } from '../profile-paths.js'
import { DEFAULT_ENDING } from '../../engine/endings.js'
import { runnableHere } from '../../paths.js'
import { basisWords, formatBytes, formatCount, formatMs, formatNumber, formatPct, formatRatio, mediansRatioNote, ratioInterval, unique } from '../../format.js'
import { libraryName, transportTitle } from '../record.js'
import { BASELINE_LIBS, HTTP_BASELINE } from '../../engine/library-names.js'
import { judge } from './verdict.js'
import { roundsOf } from '../rounds.js'
import { repositoryFileUrl } from '../env.js'

// Patterns in the runs that a reader would otherwise take for noise or for a fast library, found by
// rules over the data (never a figure written down here), each explained where an explanation is
// known: KNOWN (known-causes.json, data: pattern, cause, the command that reproduces it, the
// upstream issue), keyed by library, version range, transport and pattern.

// A pattern's explanation where one is known: the entries of known-causes.json (what each field
// means is in its $comment), each with its text as the page prints it, the command that shows the
// cause without log-bench set into its words.
export const KNOWN = JSON.parse(fs.readFileSync(new URL('./known-causes.json', import.meta.url), 'utf8')).causes
  .map(({ cause, reproduce = null, ...known }) => ({ ...known, reproduce, text: reproduce ? cause.replace('{reproduce}', reproduce) : cause }))

// Two groups of runs this far apart (the slower group's fastest over the faster group's slowest) are
// two behaviours, not spread.
export const BIMODAL_GAP = 2
// A runtime this many times slower than Node on the same cell is a finding of its own.
export const RUNTIME_FACTOR = 3

// Every pattern found: { pattern, cell (a record of it), where (words), text, explanation }.
export function findAnomalies (dataset) {
  const runs = ofType(dataset.runs, 'run')
  const cells = new Map()
  for (const run of runs) {
    const key = cellKey(run)
    if (!cells.has(key)) cells.set(key, [])
    cells.get(key).push(run)
  }
  const found = []
  for (const cellRuns of cells.values()) {
    const ok = cellRuns.filter((r) => r.ok)
    const first = cellRuns[0]
    // Under an ending that ends the process (exit, a signal) a loss is the durability matrix's
    // finding, not an anomaly.
    const ended = (dimensionValue(first, 'ending') ?? DEFAULT_ENDING) !== DEFAULT_ENDING
    const constant = ended ? null : constantLoss(ok)
    if (constant) found.push(explain({ pattern: 'constant-loss', cell: first, text: constant }))
    else {
      // Runs whose losses differ widely are listed with each run's loss; a loss that varies less is
      // in the At a glance table already, and listed here only where its cause is known.
      const varying = varyingLoss(ok)
      const ranged = varying ? null : lossRange(ok)
      const anomaly = ranged && explain({ pattern: 'loss', cell: first, text: ranged })
      if (varying) found.push(explain({ pattern: 'loss', cell: first, text: varying }))
      else if (anomaly?.explanation) found.push(anomaly)
    }
    // A cell whose runs all failed is in the At a glance table with its reason already; listed here
    // only where the cause is known.
    const failed = !ok.length && cellRuns.find((r) => r.status === 'failed')
    const failure = failed && explain({ pattern: 'failed', cell: first, text: `did not finish: ${failed.error}${cellRuns.some((r) => r.status === 'skipped') ? ' (its later runs skipped)' : ''}` })
    if (failure?.explanation) found.push(failure)
    const modes = bimodal(ok.map((r) => r.doneMs))
    // The slowest single call sampled, where the runs timed calls: a stall shows there too.
    const slowest = maxOf(ok.map((r) => r.callLatencyNs?.max ?? 0), 0)
    if (modes) found.push(explain({ pattern: 'bimodal', cell: first, text: `${modes}${slowest > 0 ? `; the slowest single call sampled took ${formatMs(slowest / 1e6)} ms` : ''}` }))
  }
  const pair = judgePairs(dataset)
  found.push(...slowOnOneTransport(cells, pair))
  found.push(...doneLongAfterUnblocked(cells, pair))
  found.push(...roundDrift(ofType(dataset.runs, 'http')))
  found.push(...slowRuntimes(cells, pair))
  found.push(...costlyDisabled(cells, pair))
  found.push(...slowerReleases(cells, pair))
  const profiled = [...runs.filter((r) => r.profile === true), ...(dataset.profiles ?? [])]
    .filter((r) => r.ok && r.profileSummary)
  found.push(...knownOwners(cells, profiled))
  return citeProfiles(found, profiled)
}

// One number per pair: a multiple an anomaly states is judge()'s estimate (paired by round where the
// runs were interleaved), the figure the tables and summaries print for the same pair. pair(baseRuns,
// runs, field) returns the comparison; pairWords(c) its estimate with the interval and the runs it rests
// on, and the medians' ratio beside it where it differs visibly, labelled as such.
function judgePairs (dataset) {
  const roundOf = roundsOf(dataset)
  return (baseRuns, runs, field) => judge(baseRuns, runs, measureNamed('run', field), { roundOf })
}

function pairWords (c) {
  const medians = mediansRatioNote(c)
  return `${formatRatio(c.ratio)}${ratioInterval(c)} (${basisWords(c)}${medians ? `; ${medians}` : ''})`
}

// A profile shows a cause where a package the cause names is among the profile's largest this many
// (by self time; a thread waiting and V8's (program) left out).
export const PROFILE_TOP = 3
const NOT_WORK = new Set(['(idle)', '(program)'])
// The same cell, profiled: every dimension but the profile and the events (profiled runs are short;
// shares and µs per event do not depend on their length the way times do).
const profiledCellKey = (r) => cellKey(r, { except: ['profile', 'events'] })

// Each explained anomaly whose cause names packages, where a profiled run of its cell exists (the
// page's own profiled cells, or its pages.json `profiles` files): `profile`, what the profile shows,
// merged over those runs (mergeSummaries).
function citeProfiles (found, profiled) {
  if (!profiled.length) return found
  return found.map((a) => {
    const causes = a.explanation?.profile
    // An owner finding is the profile's own figures already.
    if (!causes?.length || a.cell.profile === true || a.pattern === 'owner') return a
    const runs = profiled.filter((r) => profiledCellKey(r) === profiledCellKey(a.cell))
    return runs.length ? { ...a, profile: profileEvidence(mergeSummaries(runs), causes, runs) } : a
  })
}

// What a profile says about a cause: { runs, events, top, topFunction, causes, shown, text }, top and
// causes as { name, rank, share, usPerEvent } (rank from 1 among the packages that did work).
export function profileEvidence (summary, causes, runs) {
  const packages = summary.packages.filter((p) => !NOT_WORK.has(p.name))
  const ranked = (p) => ({ name: p.name, rank: packages.indexOf(p) + 1, share: p.share, usPerEvent: p.usPerEvent })
  const found = causes.map((name) => packages.find((p) => p.name === name)).filter(Boolean).map(ranked)
    .sort((a, b) => a.rank - b.rank)
  const shown = found.some((c) => c.rank <= PROFILE_TOP)
  const top = packages.length ? ranked(packages[0]) : null
  const fn = summary.functions.find((f) => !NOT_WORK.has(f.name)) ?? null
  const topFunction = fn && {
    name: fn.name,
    file: fn.file,
    line: fn.line,
    package: fn.package,
    callee: fn.callee ?? null,
    inlinedInto: fn.inlinedInto ?? null,
    share: fn.share,
    usPerEvent: fn.usPerEvent
  }
  const events = unique(runs.map((r) => r.sent))
  const figures = (x) => `${(x.share * 100).toFixed(1)}%, ${formatNumber(x.usPerEvent, 2)} µs/event`
  // Where a function is: its file relative to its package and line, the package of a native frame,
  // nothing for V8's own entries ((garbage collector)), which are their own package.
  const where = (f) => (f.file === '(native)' ? ` (native, in ${f.package})` : f.file ? ` (${packageRelative(f.file)}${f.line == null ? '' : `:${f.line}`})` : '')
  const source = unique(runs.map((r) => r.file).filter(Boolean))
  const of = `${runs.length === 1 ? 'one profiled run' : `${runs.length} profiled runs`} of this cell at ${events.map(formatCount).join(', ')} events${source.length ? `, in ${source.join(', ')}` : ''}`
  const hottest = topFunction && topFunction.name !== top.name ? `, hottest function ${ownerWords(topFunction)}${where(topFunction)} with ${figures(topFunction)}` : ''
  const most = top ? `most sampled time in ${top.name} (${figures(top)})${hottest}` : 'no sampled work'
  const ordinal = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`
  const causeList = found.map((c) => `${c.name} ${c.rank === 1 ? 'first' : ordinal(c.rank)} (${figures(c)})`).join(', ')
  const verdict = shown
    ? `it shows the cause: ${causeList}`
    : found.length
      ? `it does not show the cause: ${causeList}, not among the ${PROFILE_TOP} largest packages`
      : `it does not show the cause: no sampled time in ${causes.join(', ')}`
  return { runs: runs.length, events, top, topFunction, causes: found, shown, text: `profile (${of}): ${most}; ${verdict}` }
}

// The function a cell's profile charges the most time to, where a known cause names it as its owner
// (known-causes.json, pattern 'owner'): the cause's code, found first in the cell's own profiled runs
// (the page's profiles, or its own run --profile), not only by hand. Figures are the profile's, merged
// over those runs; the garbage collector, a thread waiting and V8's (program) are nobody's.
function knownOwners (cells, profiled) {
  if (!profiled.length) return []
  const found = []
  for (const cellRuns of cells.values()) {
    const first = cellRuns[0]
    if (first.profile === true) continue
    const runs = profiled.filter((r) => profiledCellKey(r) === profiledCellKey(first))
    const summary = runs.length ? mergeSummaries(runs) : null
    const owner = summary?.functions.find((f) => !NOT_WORK.has(f.name) && f.package !== GC)
    if (!owner) continue
    const events = unique(runs.map((r) => r.sent))
    const source = unique(runs.map((r) => r.file).filter(Boolean))
    const of = `${runs.length === 1 ? 'one profiled run' : `${runs.length} profiled runs`}, ${events.map(formatCount).join(', ')} events${source.length ? `, ${source.join(', ')}` : ''}`
    const anomaly = explain({ pattern: 'owner', cell: first, owner, text: `has its profile's largest owner in ${owner.package}'s ${ownerWords(owner)}: ${(owner.share * 100).toFixed(1)}% of the samples (${formatNumber(owner.usPerEvent, 2)} µs/event; ${of})` })
    if (anomaly.explanation) found.push(anomaly)
  }
  return found
}

// Whether a profile's function is the code a known cause names (its package and function, and the
// native callee where the cause names one).
const ownsCause = (named, fn) => fn != null && fn.package === named.package && fn.name === named.function &&
  (named.callee == null || fn.callee?.name === named.callee)
const GC = '(garbage collector)'

// A cell whose times may be compared with another's: not a baseline, not ended by a signal, no run
// kept alive, and no run that lost events (summary.js's rule too).
function timedCell (runs) {
  const first = runs[0]
  return !BASELINE_LIBS.has(first.lib) && !['sigterm', 'sigkill'].includes(dimensionValue(first, 'ending')) &&
    !runs.some((r) => r.keptAlive || (r.ok && r.received != null && r.received < expectedOf(r)))
}

// A later release of a library slower to done than an earlier one measured beside it in the same
// comparison (the verdict compare gives, paired by round where the runs were): what a release changed
// cost its users time.
function slowerReleases (cells, pair) {
  const groups = new Map()
  for (const runs of cells.values()) {
    const first = runs[0]
    if (!timedCell(runs) || first.libSource || !semver.valid(first.libVersion)) continue
    const whole = runs.filter((r) => r.ok && r.doneMs > 0)
    if (!whole.length || bimodal(whole.map((r) => r.doneMs))) continue
    const key = `${first.lib}\u0000${dimensionValue(first, 'variant')}\u0000${comparisonGroupKey(first)}`
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key).push({ first, runs: whole, done: median(whole.map((r) => r.doneMs)) })
  }
  const found = []
  for (const entries of groups.values()) {
    const byVersion = entries.sort((a, b) => semver.compare(a.first.libVersion, b.first.libVersion))
    byVersion.forEach((later, i) => {
      for (const earlier of byVersion.slice(0, i)) {
        if (!semver.gt(later.first.libVersion, earlier.first.libVersion)) continue
        const c = pair(earlier.runs, later.runs, 'doneMs')
        if (c.verdict !== 'slower') continue
        found.push(explain({ pattern: 'slower-release', cell: later.first, text: `takes ${pairWords(c)} as long to done as ${libraryName(earlier.first)}, an earlier release measured beside it: slower (medians ${formatMs(later.done)} ms against ${formatMs(earlier.done)} ms)` }))
      }
    })
  }
  return found
}

// Calls at a disabled level (the disabled workload: nothing may arrive) that hold the event loop
// SLOW_FACTOR× or more as long as the cheapest library's in the same comparison, by the medians of
// unblocked: a level check that is not cheap.
function costlyDisabled (cells, pair) {
  const groups = new Map()
  for (const runs of cells.values()) {
    const first = runs[0]
    if (BASELINE_LIBS.has(first.lib) || dimensionValue(first, 'workload') !== 'disabled') continue
    const unblocked = medianOf(runs, 'unblockedMs')
    if (!(unblocked > 0)) continue
    const key = String(comparisonGroupKey(first))
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key).push({ first, unblocked, runs: runs.filter((r) => r.ok) })
  }
  const found = []
  for (const entries of groups.values()) {
    if (entries.length < 2) continue
    const cheapest = entries.reduce((a, b) => (b.unblocked < a.unblocked ? b : a))
    for (const e of entries.filter((x) => x !== cheapest)) {
      const c = pair(cheapest.runs, e.runs, 'unblockedMs')
      if (!(c.ratio >= SLOW_FACTOR)) continue
      const calls = e.first.events
      const perCall = calls > 0 ? `, ${formatNumber((e.unblocked * 1e6) / calls, 0)} ns a call against ${formatNumber((cheapest.unblocked * 1e6) / calls, 0)}` : ''
      found.push(explain({ pattern: 'costly-disabled', cell: e.first, text: `takes ${pairWords(c)} as long as ${libraryName(cheapest.first)} over calls at a disabled level, which log nothing (unblocked ${formatMs(e.unblocked)} ms against ${formatMs(cheapest.unblocked)} ms, medians, for ${formatCount(calls)} calls${perCall})` }))
    }
  }
  return found
}

// Every finished run lost exactly the same number of events (at least two runs): a count that does
// not vary is not the machine's noise but something the library or its transport does every time.
function constantLoss (ok) {
  const { counted, lost } = lossesOf(ok)
  if (counted.length < 2 || counted.length < ok.length) return null
  if (!(lost[0] > 0) || lost.some((n) => n !== lost[0])) return null
  const workers = counted[0].cpus
  const perWorker = workers > 1 && lost[0] % workers === 0 ? ` (${formatCount(lost[0] / workers)} per worker)` : ''
  return `receives exactly ${formatCount(counted[0].received)} of ${formatCount(expectedOf(counted[0]))} events in every one of its ${counted.length} runs: ${formatCount(lost[0])} lost each time${perWorker}, a deterministic loss rather than noise`
}

// What should have arrived in a run: the events sent (0 for a disabled level, as `expected` says).
const expectedOf = (r) => r.expected ?? r.sent

// The finished runs whose arrivals were counted, and the events each lost.
function lossesOf (ok) {
  const counted = ok.filter((r) => r.received != null && expectedOf(r) != null)
  return { counted, lost: counted.map((r) => expectedOf(r) - r.received) }
}

// Events lost in some finished run, by an amount that varies: the range over the runs.
function lossRange (ok) {
  const { counted, lost } = lossesOf(ok)
  if (!lost.some((n) => n > 0)) return null
  const [low, high] = [minOf(lost), maxOf(lost)]
  const whole = lost.filter((n) => n <= 0).length
  const of = `of ${formatCount(expectedOf(counted[0]))} events a run`
  if (whole) return `loses up to ${formatCount(high)} ${of}, and none in ${whole} of its ${counted.length} runs`
  return `loses ${formatCount(low)}${high > low ? `–${formatCount(high)}` : ''} ${of} over its ${counted.length === 1 ? 'one run' : `${counted.length} runs`}`
}

// Runs of one cell whose losses differ widely (the most lost at least twice the least, and apart by
// a hundredth of the events or more): each run's loss, so that a pooled share does not hide them.
export const LOSS_SPREAD = 2
function varyingLoss (ok) {
  const { counted, lost } = lossesOf(ok)
  if (counted.length < 2 || !lost.some((n) => n > 0)) return null
  const [low, high] = [minOf(lost), maxOf(lost)]
  const expected = expectedOf(counted[0])
  if (high < low * LOSS_SPREAD || (high - low) < expected / 100) return null
  const perRun = counted.map((r, i) => `${formatCount(lost[i])} (${formatPct(lost[i] / expectedOf(r))})`)
  return `loses ${perRun.slice(0, -1).join(', ')} and ${perRun[perRun.length - 1]} of ${formatCount(expected)} events in its ${counted.length} runs, in run order: losses this far apart are not one behaviour, so the pooled share describes no run`
}

// The runs fall in two groups with a gap of BIMODAL_GAP× between them: their median would describe
// neither. null below 3 runs.
export function bimodal (values) {
  const xs = values.filter((v) => typeof v === 'number' && v > 0).sort((a, b) => a - b)
  if (xs.length < 3) return null
  let at = -1
  let widest = 1
  for (let i = 1; i < xs.length; i++) {
    const gap = xs[i] / xs[i - 1]
    if (gap > widest) [widest, at] = [gap, i]
  }
  if (widest < BIMODAL_GAP) return null
  const group = (list) => (list.length === 1 ? `1 run at ${formatMs(list[0])} ms` : `${list.length} runs at ${formatMs(list[0])}–${formatMs(list[list.length - 1])} ms`)
  return `its done times fall in two groups, ${group(xs.slice(0, at))} and ${group(xs.slice(at))} (${widest.toFixed(1)}× apart): two behaviours, not spread, so its median and interval describe neither`
}

// The same library, transport, workers and workload under another runtime, RUNTIME_FACTOR× or more
// slower than under Node: by the medians of done.
function slowRuntimes (cells, pair) {
  const found = []
  const entries = [...cells.values()].map((runs) => ({
    first: runs[0],
    runs: runs.filter((r) => r.ok && r.doneMs > 0)
  })).filter((e) => e.runs.length)
  const runtimeOf = (r) => String(dimensionValue(r, 'runtime') ?? '')
  const sameCell = (a, b) => cellKey(a, { except: ['runtime'] }) === cellKey(b, { except: ['runtime'] })
  for (const other of entries.filter((e) => runtimeOf(e.first) && !runtimeOf(e.first).startsWith('node'))) {
    const nodes = entries.filter((e) => e !== other && runtimeOf(e.first).startsWith('node') && sameCell(e.first, other.first))
    if (!nodes.length) continue
    const judged = nodes.map((n) => ({ node: n, c: pair(n.runs, other.runs, 'doneMs') }))
    if (!judged.every(({ c }) => c.ratio >= RUNTIME_FACTOR)) continue
    const each = judged.map(({ node, c }) => `${pairWords(c)} as long to done as under ${runtimeOf(node.first)}`).join(', ')
    found.push(explain({ pattern: 'slow-runtime', cell: other.first, text: `under ${runtimeOf(other.first)} takes ${each}: the runtime, not the library, sets this time` }))
  }
  return found
}

// A library this many times as long as the fastest library of its comparison on one transport,
// and less than that on every other transport it was measured on with the same workers and load.
export const SLOW_FACTOR = 3

// CPU per event in ns: the run's own figure (main thread and other threads), else the workers' CPU
// time over the events sent.
function cpuPerEvent (r) {
  const own = r.nsCpuPerEvent
  if (own != null && typeof own === 'object') return (own.mainThread ?? 0) + (own.otherThreads ?? 0)
  if (typeof own === 'number') return own
  return r.cpuUserMs != null && r.sent > 0 ? ((r.cpuUserMs + (r.cpuSystemMs ?? 0)) * 1e6) / r.sent : null
}

function slowOnOneTransport (cells, pair) {
  const groups = new Map()
  for (const runs of cells.values()) {
    const first = runs[0]
    // Only times that rank (verdict-rules.js): no kill, no kill timer, not two groups of runs.
    if (BASELINE_LIBS.has(first.lib) || ['sigterm', 'sigkill'].includes(dimensionValue(first, 'ending')) || runs.some((r) => r.keptAlive)) continue
    const whole = runs.filter((r) => r.ok && (r.received == null || r.received >= expectedOf(r)) && r.doneMs > 0)
    const done = whole.map((r) => r.doneMs)
    if (!done.length || bimodal(done)) continue
    // CPU per event: the runs' own figure, else the workers' CPU time over the events sent.
    const cpu = runs.filter((r) => r.ok).map(cpuPerEvent).filter((v) => v > 0)
    const key = String(comparisonGroupKey(first))
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key).push({ first, runs: whole, done: median(done), cpu: cpu.length ? median(cpu) : null, writes: medianOf(runs, 'syscallsWritePerEvent') })
  }
  // Each library's multiple of its comparison's fastest, per transport.
  const byLibrary = new Map()
  for (const entries of groups.values()) {
    if (entries.length < 2) continue
    const fastest = entries.reduce((a, b) => (b.done < a.done ? b : a))
    for (const e of entries) {
      const key = `${libraryName(e.first)}\u0000${cellKey(e.first, { except: ['lib', 'variant', 'transport', 'sink'] })}`
      if (!byLibrary.has(key)) byLibrary.set(key, [])
      const c = e === fastest ? null : pair(fastest.runs, e.runs, 'doneMs')
      byLibrary.get(key).push({ ...e, factor: c ? c.ratio : 1, comparison: c, fastest })
    }
  }
  const found = []
  for (const list of byLibrary.values()) {
    if (list.length < 2) continue
    const slow = list.filter((e) => e.factor >= SLOW_FACTOR)
    if (slow.length !== 1) continue
    const [e] = slow
    const elsewhere = list.filter((x) => x !== e)
    const most = maxOf(elsewhere.map((x) => x.factor))
    const cpu = (e.cpu != null && e.fastest.cpu != null ? `; CPU per event, all threads (the median of each run's total), ${formatNumber(e.cpu / 1000, 1)} µs against ${formatNumber(e.fastest.cpu / 1000, 1)} µs` : '') +
      (e.writes != null && e.fastest.writes != null ? `; write syscalls per event ${formatNumber(e.writes, 3)} against ${formatNumber(e.fastest.writes, 3)}` : '')
    found.push(explain({ pattern: 'slow-transport', cell: e.first, text: `takes ${pairWords(e.comparison)} as long to done as ${libraryName(e.fastest.first)}, the fastest there (medians ${formatMs(e.done)} ms against ${formatMs(e.fastest.done)} ms${cpu}), but at most ${formatRatio(most)} on ${unique(elsewhere.map((x) => transportTitle(x.first.transport))).join(', ')}` }))
  }
  return found
}

// A library whose calls return first in its comparison but whose events arrive this many times later
// than the fastest to done: the work it saves its caller is done after the calls return.
export const LATE_FACTOR = 1.5

function doneLongAfterUnblocked (cells, pair) {
  const groups = new Map()
  for (const runs of cells.values()) {
    const first = runs[0]
    if (!timedCell(runs)) continue
    const whole = runs.filter((r) => r.ok)
    const done = whole.map((r) => r.doneMs).filter((v) => v > 0)
    const unblocked = whole.map((r) => r.unblockedMs).filter((v) => v > 0)
    if (!done.length || !unblocked.length || bimodal(done)) continue
    const key = String(comparisonGroupKey(first))
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key).push({ first, done: median(done), unblocked: median(unblocked), runs: whole })
  }
  const found = []
  for (const entries of groups.values()) {
    if (entries.length < 2) continue
    const firstOut = entries.reduce((a, b) => (b.unblocked < a.unblocked ? b : a))
    const firstDone = entries.reduce((a, b) => (b.done < a.done ? b : a))
    if (firstOut === firstDone) continue
    const c = pair(firstDone.runs, firstOut.runs, 'doneMs')
    if (!(c.ratio >= LATE_FACTOR)) continue
    found.push(explain({ pattern: 'done-late', cell: firstOut.first, text: `returns from its calls first (unblocked ${formatMs(firstOut.unblocked)} ms, medians) but is done ${pairWords(c)} after ${libraryName(firstDone.first)}, the first done (medians ${formatMs(firstOut.done)} ms against ${formatMs(firstDone.done)} ms): its work goes on after its calls return${whereTheWorkWent(firstOut, firstDone)}` }))
  }
  return found
}

// The median of a measure over a cell's finished runs, null where no run has it.
function medianOf (runs, field) {
  const values = runs.filter((r) => r.ok).map((r) => r[field]).filter((v) => typeof v === 'number' && Number.isFinite(v))
  return values.length ? median(values) : null
}

// Where a late library's work went, from the runs' own figures (medians): CPU on the calling thread
// and on other threads, and the heap's peak, beside the first done's.
function whereTheWorkWent (late, first) {
  const figures = [['cpuMainThreadMs', 'CPU on the calling thread', formatMs, ' ms'], ['cpuOtherThreadsMs', 'CPU on other threads', formatMs, ' ms'], ['maxHeapBytes', 'heap peak', formatBytes, '']]
    .map(([field, words, format, unit]) =>
      [words, medianOf(late.runs, field), medianOf(first.runs, field), format, unit])
    .filter(([, a, b]) => a != null && b != null)
  return figures.length ? ` (${figures.map(([words, a, b, format, unit]) => `${words} ${format(a)}${unit} against ${format(b)}${unit}`).join('; ')})` : ''
}

// HTTP rounds in which every cell of a table, the app without logging included, served this much
// fewer (or more) requests per second than its own median: something common to the round (the
// machine), not a library, moved them.
export const ROUND_SHIFT = 0.1

function roundDrift (runs) {
  const timed = runs.filter((r) => r.ok && r.rate == null && r.measure !== 'instructions' && typeof r.reqPerSec?.mean === 'number' && r.run != null)
  const tables = new Map()
  for (const run of timed) {
    const key = cellKey(run, { except: ['lib', 'variant', 'middleware', 'mode', 'logsPerRequest', 'size', 'libVersion'] })
    if (!tables.has(key)) tables.set(key, [])
    tables.get(key).push(run)
  }
  const found = []
  for (const tableRuns of tables.values()) {
    const byCell = new Map()
    for (const run of tableRuns) {
      const key = cellKey(run)
      if (!byCell.has(key)) byCell.set(key, [])
      byCell.get(key).push(run)
    }
    if (byCell.size < 3 || !tableRuns.some((r) => r.lib === HTTP_BASELINE)) continue
    const medians = new Map([...byCell].map(([key, list]) => [key, median(list.map((r) => r.reqPerSec.mean))]))
    const shifted = []
    const partly = []
    for (const round of unique(tableRuns.map((r) => r.run)).sort((a, b) => a - b)) {
      const ratios = [...byCell].map(([key, list]) =>
        list.find((r) => r.run === round)?.reqPerSec.mean / medians.get(key)).filter((v) => Number.isFinite(v))
      if (ratios.length < byCell.size) continue
      if (ratios.every((v) => v < 1 - ROUND_SHIFT) || ratios.every((v) => v > 1 + ROUND_SHIFT)) {
        shifted.push({ round, low: minOf(ratios), high: maxOf(ratios) })
      } else {
        // Some cells of the round slowed as one, the others not: a slowdown shorter than the round.
        const slowed = ratios.filter((v) => v < 1 - ROUND_SHIFT).length
        if (slowed >= Math.max(3, byCell.size / 4)) partly.push({ round, slowed, of: ratios.length })
      }
    }
    const first = tableRuns[0]
    const where = cellWords(first, ['type', 'transport', 'cpus'])
    if (partly.length) {
      found.push({
        pattern: 'round-drift-partial',
        cell: first,
        where,
        text: `served at least ${Math.round(ROUND_SHIFT * 100)}% fewer requests per second than their own medians in ${partly.map((p) => `${p.slowed} of its ${p.of} cells in round ${p.round}`).join(' and ')} (of ${unique(tableRuns.map((r) => r.run)).length} rounds), and the round's other cells did not: the machine slowed for part of the round, so a library's run and the app without logging's run of the same round can fall on either side of it, which pairing by round does not cancel; this is what widens the control's intervals`,
        explanation: null
      })
    }
    if (!shifted.length) continue
    const fewer = shifted[0].high < 1
    const pct = (v) => `${Math.round(Math.abs(1 - v) * 100)}%`
    const [low, high] = fewer
      ? [maxOf(shifted.map((s) => s.high)), minOf(shifted.map((s) => s.low))]
      : [minOf(shifted.map((s) => s.low)), maxOf(shifted.map((s) => s.high))]
    found.push({
      pattern: 'round-drift',
      cell: first,
      where,
      text: `in round${shifted.length > 1 ? 's' : ''} ${shifted.map((s) => s.round).join(', ')} of ${unique(tableRuns.map((r) => r.run)).length} every one of its ${byCell.size} cells, the app without logging (\`none\`) included, served ${pct(low)}–${pct(high)} ${fewer ? 'fewer' : 'more'} requests per second than its own median: a change common to every library in ${shifted.length > 1 ? 'those rounds' : 'that round'}, not one library's, which comparisons paired by round cancel`,
      explanation: null
    })
  }
  return found
}

// An anomaly names its cell in full, each item of the list standing alone: the library and its
// version, transport, workers and runtime, and whatever else differs from a run's defaults.
const CELL_NAMED = ['lib', 'variant', 'libVersion', 'transport', 'cpus', 'workload', 'runtime', 'rate', 'ending', 'receiverRate', 'receiverStallMs', 'measure']

function explain (anomaly) {
  const { lib, libVersion, transport } = anomaly.cell
  // A 'loss' explanation covers a constant loss too.
  const known = KNOWN.find((k) => [k.lib].flat().includes(lib) && [k.pattern].flat().some((p) => p === anomaly.pattern || (p === 'loss' && anomaly.pattern === 'constant-loss')) &&
    (!k.transport || [k.transport].flat().includes(transport)) &&
    (!k.variant || [k.variant].flat().includes(anomaly.cell.variant ?? 'default')) &&
    (!k.runtime || String(dimensionValue(anomaly.cell, 'runtime') ?? '').startsWith(k.runtime)) &&
    (anomaly.pattern !== 'owner' || (k.owner && ownsCause(k.owner, anomaly.owner))) &&
    libVersion && semver.valid(libVersion) && semver.satisfies(libVersion, k.range))
  const { owner, ...found } = anomaly
  return {
    ...found,
    where: cellWords(anomaly.cell, CELL_NAMED, { defaultsUnsaid: true }),
    // Its commands as they run here: an installed package's scripts are under node_modules.
    explanation: known
      ? {
          text: runnableHere(known.text),
          upstream: known.upstream,
          profile: known.profile ?? null,
          measured: known.measured
            ? { ...known.measured, commands: known.measured.commands.map((c) => runnableHere(c)) }
            : null
        }
      : null
  }
}

// A heading's anchor as GitHub makes it: lower case, code marks and punctuation other than - and _
// dropped, spaces as -.
export const headingAnchor = (heading) => heading.replace(/`/g, '').trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')

// Where a change's measured effect is written down: a link to that file and heading of log-bench's
// repository (a page may be read away from the clone), its figures left there.
function measuredWords ({ commands, doc, heading }) {
  const url = repositoryFileUrl(`${doc}#${headingAnchor(heading)}`)
  return ` The change measured: ${commands.map((c) => `\`${c}\``).join(', then ')}; its effect: ${url ? `[${escapeMarkdown(doc)}](${url})` : `${escapeMarkdown(doc)}, "${escapeMarkdown(heading)}"`}.`
}

// One markdown list item per pattern, with its explanation or "not known".
// An explanation given once: a later pattern with the same cause points back to the first.
export function anomalyList (anomalies) {
  const given = new Map()
  return anomalies.map((a) => {
    const first = a.explanation && given.get(a.explanation.text)
    if (a.explanation && !first) given.set(a.explanation.text, a.where)
    const why = first
      ? ` Why: as for ${escapeMarkdown(first)} above.`
      : a.explanation
        ? ` Why: ${a.explanation.text}${a.explanation.upstream.length ? ` (${a.explanation.upstream.map((url) => `[${url.replace('https://github.com/', '').replace('/issues/', '#').replace('/pull/', ' PR #')}](${url})`).join(', ')})` : ''}.`
        : ' Why: not known yet.'
    // A profile of this very cell, beside the cause (the cause may be given above, for another cell).
    const profile = a.profile ? ` The ${escapeMarkdown(a.profile.text)}.` : ''
    const measured = a.explanation?.measured && !first ? measuredWords(a.explanation.measured) : ''
    return `- **${escapeMarkdown(a.where)}** ${escapeMarkdown(a.text)}.${why}${measured}${profile}`
  }).join('\n')
}

// The Anomalies section of a page.
export function anomalyBlocks (anomalies) {
  const intro = `Patterns in the runs that the tables alone would hide, found by rules over the runs: a loss identical in every run (under \`close()\`: a loss under another ending is the durability matrix's finding), runs whose losses differ widely (each run's loss shown), runs in two groups ${BIMODAL_GAP}× or more apart, a library ${SLOW_FACTOR}× or more as long as the fastest on one transport only, a library first to unblock but ${LATE_FACTOR}× or more later to done than the first done, a runtime ${RUNTIME_FACTOR}× or more slower than Node, calls at a disabled level ${SLOW_FACTOR}× or more as long as the cheapest library's, a release slower than an earlier one, a profile's largest owner that a known cause names, a cell whose every run failed (where its cause is known; the At a glance table lists every failure), HTTP rounds in which every cell, the app without logging included, moved ${ROUND_SHIFT * 100}% or more from its median, or a quarter of the cells or more slowed so and the rest did not. Each is listed with its figures and its cause where one is known (measured, or tracked upstream), "not known yet" otherwise.`
  return [{ heading: 'Anomalies' }, intro, anomalies.length ? anomalyList(anomalies) : '_None found in these runs._']
}

// Text from results files inside markdown written by hand: every mark that could start a link, an
// emphasis, code, HTML or a table cell is escaped.
export function escapeMarkdown (text) {
  // < and > as entities, as markdownEscape (table.js) writes them: a backslash before < would leave
  // the tag's text on the page for any renderer that does not honour it.
  return visibleControls(String(text)).replace(/[\\`*_[\]<>|#]/g, (ch) => (ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : `\\${ch}`))
}
