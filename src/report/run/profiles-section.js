import { figureColumns, left, right } from '../../draw/table.js'
import { runName, workersLabel } from '../../draw/labels.js'
import { comparisonGroupKey, ofType, runsByCell } from '../../results/model.js'
import { safeSegment } from '../../draw/charts.js'
import { groupsOf } from './section.js'
import { mergeSummaries, ownerWords, profileDiff } from '../../results/profile-summary.js'
import { median } from '../../stats.js'

// "Where the time went": per comparison group of profiled cells (run --profile, docs/costs.md "CPU
// profiles"; on a page with detail pages, each group on a page of its own), per cell its first run's
// call tree as a flame graph, then its runs' time by owning package and its top functions by owner
// (a native callee's time is its JavaScript caller's), merged over the runs, the same by self time,
// what its main thread's CPU time and its samples say apart, and its largest differences against a
// reference cell, the profiler's own frames ((idle), (program), the collector) apart. The flame graph
// is drawn on the HTML page only (html.js draws a block's `flame`); markdown and the terminal show its
// text instead.

const PACKAGES = 8
const SELF_PACKAGES = 5
const FUNCTIONS = 10
const DIFFERENCES = 6

// What a profiled cell is set beside on the page: raw's profiled cell of its comparison group, else
// the group's profiled cell with the shortest median done time; none for that cell itself.
function referenceOf (cells, runs) {
  const group = cells.filter((other) => comparisonGroupKey(other[0]) === comparisonGroupKey(runs[0]))
  const raw = group.find((other) => other[0].lib === 'raw')
  const done = (cell) => median(cell.map((r) => r.doneMs).filter((v) => v != null)) ?? Infinity
  const reference = raw ?? [...group].sort((a, b) => done(a) - done(b))[0]
  return reference && reference !== runs ? reference : null
}

const shareAndMicros = (side) => (side ? `${percent(side.share)} (${micros(side.usPerEvent)})` : '—')
const signed = (us) => `${us > 0 ? '+' : us < 0 ? '−' : '±'}${micros(Math.abs(us))}`
const percent = (share) => (share == null ? '—' : `${(share * 100).toFixed(1)}%`)
const micros = (us) => (us == null ? '—' : us >= 10 ? us.toFixed(1) : us.toFixed(2))

export const profilesSection = {
  name: 'profiles',
  types: ['run'],
  render (dataset, ctx = {}) {
    const profiled = ofType(dataset.runs, 'run').filter((r) => r.ok && r.profileSummary)
    if (!profiled.length) return { blocks: [], charts: [] }
    const out = [{ heading: 'Where the time went (profiled runs)' },
      'Cells run with `--profile`: V8\'s CPU profiler sampled every worker\'s threads from the first call until close() (a logger\'s worker thread until close() was called). ' +
      'Time by owner, summed over the cell\'s runs: a sample\'s time goes to the function on top of the stack, and where that is native code or Node\'s own (Buffer.byteLength, JSON.stringify, an fs binding) to the nearest JavaScript above it outside Node, its owner, with what it called beside it (write → byteLength (node:buffer, native)); a small function V8 inlined into its caller is named from the lines its samples fell on. ' +
      'Each figure is a share of all sampled time, (idle) included (a thread waiting), and µs per event logged; the self-time view (the frame on top as it is, natives in Node\'s packages) follows each cell\'s tables. ' +
      'These runs\' times are taken under the profiler and are not compared with unprofiled ones. `log-bench compare FILE --baseline LIB --profile-diff` sets two libraries side by side. Method: docs/costs.md in the log-bench repository.']
    const details = []
    for (const group of groupsOf(profiled, [])) {
      const title = `${group.title}: where the time went`
      const blocks = [{ heading: title, level: 3 }, ...groupBlocks(runsByCell(group.runs, 'run'))]
      // On a page with detail pages, each group's profiles are a page of their own (see Details).
      if (ctx.details) details.push({ slug: safeSegment(`profiles-${group.transport}${group.fileTag}`), title, blocks })
      else out.push(...blocks)
    }
    if (details.length) out.push(`Per comparison, on the detail pages listed under Details: ${details.map((d) => d.title).join('; ')}.`)
    return { blocks: out, charts: [], details }
  }
}

function groupBlocks (cells) {
  const out = []
  for (const runs of cells) {
    const first = runs[0]
    const merged = mergeSummaries(runs)
    const title = `${runName(first)}: ${first.transport}, ${workersLabel(first.cpus)}, ${first.events.toLocaleString('en-US')} events`
    out.push({ heading: title, level: 4 })
    const reference = referenceOf(cells, runs)
    out.push(...flameBlocks(first, reference, title))
    out.push({
      columns: figureColumns(['Package (owner)', 'Share', 'µs per event']),
      rows: merged.packages.slice(0, PACKAGES).map((p) => [p.name, percent(p.share), micros(p.usPerEvent)]),
      notes: [`${runs.length} run${runs.length > 1 ? 's' : ''}, ${(merged.sampledMs / 1000).toFixed(2)} s sampled in all.`]
    })
    out.push({
      columns: [left('Function (owner → what it called)'), left('File:line'), left('Package'), right('Share'), right('µs per event')],
      rows: merged.functions.slice(0, FUNCTIONS)
        .map((f) => [ownerWords(f), place(f), f.package, percent(f.share), micros(f.usPerEvent)])
    })
    if (merged.self.packages.length) {
      out.push({
        columns: figureColumns(['Package (self time)', 'Share', 'µs per event']),
        rows: merged.self.packages.slice(0, SELF_PACKAGES).map((p) => [p.name, percent(p.share), micros(p.usPerEvent)]),
        notes: ['By self time: the frame on top as it is, a native frame in the package of its nearest caller with a script (so Buffer.byteLength\'s time is node:other\'s).']
      })
    }
    const cpu = cpuAgainstSamples(merged)
    if (cpu) out.push(cpu)
    if (reference) {
      const diff = profileDiff(mergeSummaries(reference), merged)
      const name = runName(reference[0])
      const apart = diff.apart.filter((p) => p.differenceUs !== 0)
      out.push({
        columns: figureColumns(['Package (owner)', runName(first), name, 'Difference µs per event']),
        rows: diff.packages.slice(0, DIFFERENCES)
          .map((p) => [p.name, shareAndMicros(p.other), shareAndMicros(p.base), signed(p.differenceUs)]),
        notes: [`Against ${name}, ${reference[0].lib === 'raw' ? 'the plainest code for the transport' : 'the profiled cell of this comparison with the shortest median done time'}: the largest differences in µs per event first (compare --profile-diff gives every package and function).` +
          (apart.length ? ` Not a package's work, so not in the table: ${apart.map((p) => `${p.name} ${signed(p.differenceUs)}`).join(', ')} µs per event.` : '')]
      })
    }
  }
  return out
}

const place = (f) => `${f.file}${f.line == null ? '' : `:${f.line}`}`

// Where the main thread's CPU time per event (the record's, from the kernel) and its non-idle samples
// disagree by more than a tenth, what lies between: a note, or null.
function cpuAgainstSamples (merged) {
  const { cpuMainThreadMs: cpuMs, mainBusyMs: busyMs, events } = merged
  if (!(cpuMs > 0) || !(busyMs > 0) || Math.abs(cpuMs - busyMs) <= cpuMs * 0.1) return null
  const [cpu, busy] = [(cpuMs * 1000) / events, (busyMs * 1000) / events]
  const words = cpu > busy
    ? `its ${micros(cpu - busy)} µs more are CPU time the sampler did not see as work: the thread's waits and wake-ups in the event loop (epoll, the kernel's side of a wake-up), which V8 samples as (idle), and the profiler's own interruptions of the thread`
    : `the samples cover ${micros(busy - cpu)} µs more than the thread ran: time it was runnable but waiting for a CPU (a busy machine), which a sample counts and CPU time does not`
  return `Main thread: ${micros(cpu)} µs of CPU per event (the kernel's count), ${micros(busy)} µs in samples other than (idle); ${words}.`
}

// The cell's first run's call tree, as a flame graph on the HTML page, first in the cell's part.
function flameBlocks (first, reference, title) {
  if (!first.profileTree) return []
  // Beside it, where the reference cell has a tree: the same tree coloured by the difference
  // from the reference's first run, per event (src/draw/flame.js).
  const base = reference?.[0]
  const against = base?.profileTree
    ? { tree: base.profileTree, events: first.sent, referenceEvents: base.sent, name: runName(base), title: `${title}: run ${first.run}'s call tree against ${runName(base)}'s run ${base.run}, red where it spends more per event, blue where less` }
    : null
  return [{
    text: `Flame graph of the first run${against ? ` (and a differential one against ${against.name})` : ''}: on the HTML page (report --format html), or load the run's .cpuprofile files (cpuProfiles in the results) in Chrome DevTools or speedscope.`,
    flame: { tree: first.profileTree, title: `${title}: run ${first.run}'s call tree, each function as wide as its time`, against }
  }]
}
