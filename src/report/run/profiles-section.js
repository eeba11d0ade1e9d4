import { figureColumns, left, right } from '../../draw/table.js'
import { runName, workersLabel } from '../../draw/labels.js'
import { comparisonGroupKey, ofType, runsByCell } from '../../results/model.js'
import { safeSegment } from '../../draw/charts.js'
import { groupsOf } from './section.js'
import { mergeSummaries, profileDiff } from '../../results/profile-summary.js'
import { median } from '../../stats.js'

// "Where the time went": per comparison group of profiled cells (run --profile, docs/costs.md "CPU
// profiles"; on a page with detail pages, each group on a page of its own), per cell its runs' self
// time by package and its top functions, merged over the runs, its largest differences against a
// reference cell, then its first run's call tree as a flame graph. The flame graph is drawn on the
// HTML page only (html.js draws a block's `flame`); markdown and the terminal show its text instead.

const PACKAGES = 8
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
      'Self time (a function\'s own, not what it called) by package and by function, summed over the cell\'s runs: its share of all sampled time ((idle) is a thread waiting) and µs per event logged. ' +
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
    out.push({
      columns: figureColumns(['Package', 'Share', 'µs per event']),
      rows: merged.packages.slice(0, PACKAGES).map((p) => [p.name, percent(p.share), micros(p.usPerEvent)]),
      notes: [`${runs.length} run${runs.length > 1 ? 's' : ''}, ${(merged.sampledMs / 1000).toFixed(2)} s sampled in all.`]
    })
    out.push({
      columns: [left('Function'), left('File:line'), left('Package'), right('Share'), right('µs per event')],
      rows: merged.functions.slice(0, FUNCTIONS).map((f) => [f.name, `${f.file.split('/').slice(-2).join('/')}${f.line == null ? '' : `:${f.line}`}`, f.package, percent(f.share), micros(f.usPerEvent)])
    })
    const reference = referenceOf(cells, runs)
    if (reference) {
      const diff = profileDiff(mergeSummaries(reference), merged)
      const name = runName(reference[0])
      out.push({
        columns: figureColumns(['Package', runName(first), name, 'Difference µs per event']),
        rows: diff.packages.slice(0, DIFFERENCES)
          .map((p) => [p.name, shareAndMicros(p.other), shareAndMicros(p.base), signed(p.differenceUs)]),
        notes: [`Against ${name}, ${reference[0].lib === 'raw' ? 'the plainest code for the transport' : 'the profiled cell of this comparison with the shortest median done time'}: the largest differences in µs per event first (compare --profile-diff gives every package and function).`]
      })
    }
    if (first.profileTree) {
      // Beside it, where the reference cell has a tree: the same tree coloured by the difference
      // from the reference's first run, per event (src/draw/flame.js).
      const base = reference?.[0]
      const against = base?.profileTree
        ? { tree: base.profileTree, events: first.sent, referenceEvents: base.sent, name: runName(base), title: `${title}: run ${first.run}'s call tree against ${runName(base)}'s run ${base.run}, red where it spends more per event, blue where less` }
        : null
      out.push({
        text: `Flame graph of the first run${against ? ` (and a differential one against ${against.name})` : ''}: on the HTML page (report --format html), or load the run's .cpuprofile files (cpuProfiles in the results) in Chrome DevTools or speedscope.`,
        flame: { tree: first.profileTree, title: `${title}: run ${first.run}'s call tree, each function as wide as its time`, against }
      })
    }
  }
  return out
}
