import { cellKey, dimensionValue } from '../results/model.js'
import { environmentDifference } from '../results/read.js'
import { mannWhitneyU, median, stddev, mean, smallestMannWhitneyP, welchTTest } from '../stats.js'
import { formatTable } from './table.js'
import { cpuLabel, failureReason, formatBytes, formatCount, formatMs, runName, unique } from './labels.js'

// Before/after comparison of two results documents, cell by cell, in the manner of benchstat:
// the centre of each side, the change, and "~" where the runs' spread does not let us call it a
// change. The figure shown is the one the test is about: medians with the Mann–Whitney U test (the
// default, as benchstat), means with Welch's t-test.

export const DEFAULT_ALPHA = 0.05

export const TESTS = {
  'mann-whitney': {
    centre: median,
    centreName: 'medians',
    describe: 'Mann–Whitney U test on the runs (exact for small samples without ties), two-sided',
    run: (xs, ys) => mannWhitneyU(xs, ys),
    // With few runs even a complete separation of the two sides cannot reach a small p.
    smallestP: smallestMannWhitneyP
  },
  welch: {
    centre: mean,
    centreName: 'means',
    describe: 'Welch\'s two-sample t-test on the runs, two-sided',
    run: (xs, ys) => welchTTest(xs, ys),
    smallestP: () => 0
  }
}
export const DEFAULT_TEST = 'mann-whitney'

const METRICS = [
  { key: 'unblockedMs', title: 'unblocked (ms)', format: formatMs },
  { key: 'doneMs', title: 'done (ms)', format: formatMs },
  { key: 'eventsPerSec', title: 'events/s', format: formatCount },
  { key: 'maxRssBytes', title: 'peak RSS per worker', format: formatBytes },
  { key: 'dropRate', title: 'drop rate', format: (v) => `${(v * 100).toFixed(2)}%`, points: true },
  // What a call costs besides time (docs/costs.md): compared only where both files recorded it.
  { key: 'callP50Ns', title: 'ns per call p50', value: (r) => r.callLatencyNs?.p50, format: formatCount },
  { key: 'callP99Ns', title: 'ns per call p99', value: (r) => r.callLatencyNs?.p99, format: formatCount },
  { key: 'callP999Ns', title: 'ns per call p99.9', value: (r) => r.callLatencyNs?.p999, format: formatCount },
  { key: 'allocBytesPerEvent', title: 'bytes allocated per event', format: formatBytes },
  // GC only from runs that read V8's records (they also have allocBytesPerEvent): older runs' counts
  // came from an observer that lost collections.
  { key: 'gcPer10kEvents', title: 'GCs per 10,000 events', value: (r) => (r.allocBytesPerEvent == null || !r.sent ? null : (r.gcCount / r.sent) * 10_000), format: (v) => v.toFixed(1) },
  { key: 'gcPauseMs', title: 'GC pause (ms)', value: (r) => (r.allocBytesPerEvent == null ? null : r.gcPauseMs), format: formatMs },
  { key: 'cpuMainNsPerEvent', title: 'CPU ns per event, calling thread', value: (r) => r.nsCpuPerEvent?.mainThread, format: formatCount },
  { key: 'cpuOtherNsPerEvent', title: 'CPU ns per event, other threads', value: (r) => r.nsCpuPerEvent?.otherThreads, format: formatCount },
  { key: 'eventLoopDelayP99Ns', title: 'event-loop delay p99 (ms, paced runs)', value: (r) => r.eventLoopDelayNs?.p99, format: (v) => formatMs(v / 1e6) }
]
const valueOf = (metric, run) => (metric.value ? metric.value(run) : run[metric.key])

function cellsOf (dataset) {
  const cells = new Map()
  for (const run of dataset.runs) {
    if (dimensionValue(run, 'type') !== 'run') continue
    const key = cellKey(run)
    if (!cells.has(key)) cells.set(key, { key, lib: runName(run), transport: run.transport, sink: run.sink ?? null, cpus: run.cpus, size: run.size, events: run.events, runs: [] })
    cells.get(key).runs.push(run)
  }
  return cells
}

export function compareDatasets (base, next, { alpha = DEFAULT_ALPHA, test = DEFAULT_TEST } = {}) {
  const baseCells = cellsOf(base)
  const newCells = cellsOf(next)
  const sizes = unique([...baseCells.values(), ...newCells.values()].map((c) => c.size))
  const events = unique([...baseCells.values(), ...newCells.values()].map((c) => c.events))
  const sinks = unique([...baseCells.values(), ...newCells.values()].map((c) => c.sink))
  const name = (c) => [c.transport, sinks.length > 1 && c.sink ? `(${c.sink})` : null, c.lib, cpuLabel(c.cpus), sizes.length > 1 ? `${c.size} B` : null, events.length > 1 ? `${c.events} events` : null].filter(Boolean).join(' ')
  const result = {
    alpha,
    test,
    metrics: METRICS.map((m) => ({ ...m, rows: [] })),
    onlyBase: [...baseCells.values()].filter((c) => !newCells.has(c.key)).map(name),
    onlyNew: [...newCells.values()].filter((c) => !baseCells.has(c.key)).map(name),
    notComparable: []
  }
  for (const [key, b] of baseCells) {
    const n = newCells.get(key)
    if (!n) continue
    const okB = b.runs.filter((r) => r.ok)
    const okN = n.runs.filter((r) => r.ok)
    if (okB.length === 0 || okN.length === 0) {
      const why = (runs, ok) => (ok.length ? 'ok' : failureReason(runs.find((r) => !r.ok) ?? {}))
      result.notComparable.push(`${name(b)} (base: ${why(b.runs, okB)}; new: ${why(n.runs, okN)})`)
      continue
    }
    for (const metric of result.metrics) {
      const xs = okB.map((r) => valueOf(metric, r)).filter((v) => v != null)
      const ys = okN.map((r) => valueOf(metric, r)).filter((v) => v != null)
      if (xs.length === 0 || ys.length === 0) continue
      metric.rows.push({ cell: name(b), ...compareValues(xs, ys, { alpha, test }) })
    }
  }
  return result
}

export function compareValues (xs, ys, { alpha = DEFAULT_ALPHA, test = DEFAULT_TEST } = {}) {
  const { centre, run, smallestP } = TESTS[test]
  const outcome = xs.length >= 2 && ys.length >= 2 ? run(xs, ys) : null
  const baseCentre = centre(xs)
  const newCentre = centre(ys)
  return {
    base: { centre: baseCentre, cv: spread(xs), n: xs.length },
    next: { centre: newCentre, cv: spread(ys), n: ys.length },
    change: baseCentre === 0 ? null : (newCentre - baseCentre) / Math.abs(baseCentre),
    difference: newCentre - baseCentre,
    p: outcome?.p ?? null,
    significant: outcome != null && outcome.p < alpha,
    // The test cannot reach alpha with these run counts, whatever the runs say.
    powerless: outcome != null && smallestP(xs.length, ys.length) >= alpha
  }
}

function spread (values) {
  const m = mean(values)
  return m ? stddev(values) / Math.abs(m) : 0
}

export function renderComparison (result, { baseLabel, newLabel, environmentNote }) {
  const out = [
    `base: ${baseLabel}`,
    `new:  ${newLabel}`
  ]
  if (environmentNote) out.push(`note: ${environmentNote}`)
  const test = TESTS[result.test]
  out.push(`Values are ${test.centreName} ± coefficient of variation over the runs that finished. Change: ${test.describe}, significant when p < ${result.alpha}; "~" where it is not.`)
  for (const metric of result.metrics) {
    if (metric.rows.length === 0) continue
    const value = (side) => `${metric.format(side.centre)} ± ${Math.round(side.cv * 100)}%`
    const rows = metric.rows.map((row) => [row.cell, value(row.base), value(row.next), changeText(row, metric)])
    out.push('', metric.title, formatTable(['cell', 'base', 'new', 'change'], rows))
  }
  const rows = result.metrics.flatMap((m) => m.rows)
  if (rows.length === 0) out.push('', 'no cell has finished runs in both files: nothing to compare')
  const powerless = rows.filter((r) => r.powerless)
  if (powerless.length) {
    const counts = unique(powerless.map((r) => `${r.base.n}+${r.next.n}`))
    const smallest = Math.min(...powerless.map((r) => test.smallestP(r.base.n, r.next.n)))
    out.push('', `warning: with ${counts.join(' / ')} runs the smallest p this test can give is ${smallest.toFixed(3)}, not below --alpha ${result.alpha}: ${powerless.length === rows.length ? 'no' : `${powerless.length} of the`} comparison${powerless.length === rows.length ? '' : 's'} can be called significant however large the change. Measure with --runs 4 or more per side (4+4: smallest p 0.029; 5+5: 0.008), or use --test welch (a t-test of the means, which assumes roughly normal runs).`)
  }
  if (rows.length) {
    const flagged = rows.filter((r) => r.significant).length
    out.push('', `${flagged} of ${rows.length} comparisons significant; by chance alone about ${(rows.length * result.alpha).toFixed(1)} would be (each test has a ${result.alpha * 100}% false-positive rate): trust changes that are large or repeat.`)
  }
  if (result.onlyBase.length) out.push('', `only in base (not compared): ${result.onlyBase.join(', ')}`)
  if (result.onlyNew.length) out.push('', `only in new (not compared): ${result.onlyNew.join(', ')}`)
  if (result.notComparable.length) out.push('', `no finished runs on one side (not compared): ${result.notComparable.join(', ')}`)
  return out.join('\n') + '\n'
}

function changeText (row, metric) {
  const n = `n=${row.base.n}+${row.next.n}`
  if (row.p == null) return `? (${n}: need 2+ runs per side)`
  const p = `p=${row.p < 0.001 ? '0.000' : row.p.toFixed(3)}`
  if (!row.significant) return `~ (${p} ${n})`
  const delta = metric.points || row.change == null
    ? `${row.difference >= 0 ? '+' : ''}${(row.difference * (metric.points ? 100 : 1)).toFixed(2)}${metric.points ? ' pp' : ''}`
    : `${row.change >= 0 ? '+' : ''}${(row.change * 100).toFixed(2)}%`
  return `${delta} (${p} ${n})`
}

export function describeSource (file, dataset) {
  const env = dataset.env
  return `${file} (${env.firstTime.slice(0, 16).replace('T', ' ')}, ${env.cpuModel}, ${env.cpuCount} cores, Node ${env.node})`
}

export function environmentNoteFor (base, next) {
  const difference = environmentDifference(base.env, next.env)
  return difference ? `the two files come from different environments (${difference}): the change includes that difference` : null
}
