import { code, em, entries, textColumns } from '../../draw/table.js'
import { cellKey, dimensionValue, measureNamed, ofType, runsByCell } from '../../results/model.js'
import { roundsOf } from '../../results/rounds.js'
import { notDecidedBimodal, notRanked } from '../../results/judge/verdict-rules.js'
import { basisWords, formatMs, formatPct, formatRatio, libraryName, mediansRatioNote, orderWords, transportTitle, unique, workersLabel } from '../../draw/labels.js'
import { transportIs } from '../../engine/transports.js'
import { coresLabel, coresOf, fewestCoresFirst } from '../../engine/cores.js'
import { rank } from '../../results/judge/rank.js'
import { BASELINE_LIBS } from '../../engine/library-names.js'

// "At a glance", at the top of a page with run results: per transport and worker count the
// fastest library to unblock and to done (baselines aside), every cell that lost events and where,
// and every cell that failed, was unsupported or was skipped, with the reason. All from the data.

const count = (n) => n.toLocaleString('en-US')
const workloadOf = (r) => dimensionValue(r, 'workload')
const measureOf = (r) => dimensionValue(r, 'measure')
const MILLISECONDS = (v) => `${formatMs(v)} ms`
const INSTRUCTIONS = (v) => `${count(Math.round(v))}`
// A row's answer where its runs did not measure what the column asks: no "fastest" under a count.
const NO_TIMES = '— (a counted run takes no times)'
const NO_COUNT = '— (a timed run counts no instructions)'

export const glanceSection = {
  name: 'glance',
  types: ['run'],
  placement: 'top',
  render (dataset) {
    const runs = ofType(dataset.runs, 'run')
    const summary = ofType(dataset.summary, 'run')
    const workloads = unique(runs.map(workloadOf))
    const byWorkload = workloads.length > 1
    // Counted cells (--measure instructions) have no times: their row names the fewest instructions
    // per event instead, in a column of its own, with the same rule for first places the runs do not settle.
    const measures = unique(runs.map(measureOf))
    const counted = measures.includes('instructions')
    const rows = []
    const roundOf = roundsOf(dataset)
    const runsOfCell = new Map(runsByCell(runs, 'run').map((cellRuns) => [cellKey(cellRuns[0]), cellRuns]))
    // run --cores: a worker count on 1 core is another row than on every core, named so on a page that has both.
    const limited = unique(runs.map(coresOf)).length > 1
    for (const transport of unique(runs.map((r) => r.transport))) {
      const ofTransport = runs.filter((r) => r.transport === transport)
      const placementOf = (r) => `${r.cpus}|${coresOf(r)}`
      const placements = unique(ofTransport.map(placementOf))
        .map((key) => ofTransport.find((r) => placementOf(r) === key))
        .map((r) => ({ cpus: r.cpus, cores: coresOf(r) }))
        .sort((a, b) => a.cpus - b.cpus || fewestCoresFirst(b.cores, a.cores))
      for (const { cpus, cores } of placements) {
        for (const [workload, measure] of workloads.flatMap((w) => measures.map((m) => [w, m]))) {
          const cells = summary.filter((s) => s.transport === transport && s.cpus === cpus && coresOf(s) === cores &&
            workloadOf(s) === workload && measureOf(s) === measure)
          if (!cells.length) continue
          // Each cell's runs and losses, found once: fastest and losses both use them.
          const cellRuns = new Map(cells.map((s) => [s, runsOfCell.get(cellKey(s)) ?? []]))
          const loss = new Map(cells.map((s) => [s, lossOf(cellRuns.get(s))]))
          const lostShare = (s) => loss.get(s)?.share ?? 0
          const sized = unique(cells.map((s) => s.size)).length > 1
          const onRuntimes = unique(cells.map((s) => s.runtime ?? null)).length > 1
          const name = (s) => `${libraryName(s)}${sized ? ` (${s.size} B)` : ''}${onRuntimes ? ` (${s.runtime})` : ''}`
          rows.push([
            transportTitle(transport),
            limited ? `${workersLabel(cpus)} ${coresLabel(cores)}` : workersLabel(cpus),
            ...(byWorkload ? [workload] : []),
            ...(measure === 'instructions'
              ? [em(NO_TIMES), em(NO_TIMES), entries(fastest(cells, 'instructionsPerEvent', name, lostShare, cellRuns, roundOf, INSTRUCTIONS))]
              : [entries(fastest(cells, 'unblockedMs', name, lostShare, cellRuns, roundOf)), entries(fastest(cells, 'doneMs', name, lostShare, cellRuns, roundOf)), ...(counted ? [em(NO_COUNT)] : [])]),
            entries(cells.map((s) => losses(name(s), loss.get(s), failedLoss(cellRuns.get(s)))).filter(Boolean)),
            entries(cells.map((s) => troubles(name(s), cellRuns.get(s))).filter(Boolean))
          ])
        }
      }
    }
    const blocks = [
      { heading: 'At a glance' },
      {
        text: ['Medians over the runs that finished, baselines (', code('noop'), ', ', code('raw'), ') aside for "fastest". ', em('Fastest'), ' is among the cells that delivered every event, and named alone only where ', code('log-bench compare'), '\'s verdict separates it from every other; otherwise the libraries not separated from it are named after it, with the runs that rests on, their multiple of its time (the estimate the verdict was judged on) and, where every round put them behind, that too (', 'docs/comparisons.md', '). A faster cell that lost events is named after it, with its loss. ',
          em('Lost'), ' counts events that never arrived intact, over all finished runs of the cell; "at the receiver\'s socket" is what the kernel dropped at the receiving UDP socket (', code('receiverSocketDrops'), '; a TCP stream is not dropped there), "before it" the rest (in the library, or a send that failed).',
          ...(workloads.includes('disabled') ? [' For the ', em('disabled'), ' workload nothing may arrive, so nothing is lost there.'] : [])]
      },
      { columns: textColumns(['Transport', 'Workers', ...(byWorkload ? ['Workload'] : []), 'Fastest to unblock', 'Fastest to done', ...(counted ? ['Fewest instructions per event'] : []), 'Lost events', 'Failed, unsupported or skipped']), rows, keys: byWorkload ? 3 : 2 }
    ]
    return { blocks, charts: [] }
  }
}

// The fastest cell among those that delivered every event (or where nothing can be counted), as
// rank() names it; the cells whose runs the verdict (judge) does not separate from it are named after
// it as not separated from it, with the runs that rests on. A cell that lost events and that the
// verdict puts ahead of it is named after them, with its loss: finishing first by dropping events
// is not being fast. Runs of one round are compared paired (src/results/rounds.js).
function fastest (cells, measure, name, lostShare, cellRuns, roundOf, format = MILLISECONDS) {
  const ranking = rank(cells.filter((s) => !BASELINE_LIBS.has(s.lib)), {
    measure: measureNamed('run', measure),
    runsOf: (s) => cellRuns.get(s) ?? [],
    lostOf: lostShare,
    roundOf
  })
  const { best, firsts: tied } = ranking
  // The one rule (verdict-rules.js): no fastest where a kill ended the runs or the first places'
  // runs fall in two groups.
  const named = (list) => list.map((s) => ({ name: name(s), runs: cellRuns.get(s) ?? [] }))
  const withheld = notRanked(named(ranking.ranked)) ??
    (tied.length ? notDecidedBimodal(named(tied), (r) => r[measure]) : null)
  if (withheld) return [withheld]
  const close = tied.filter((s) => s !== best)
  const notSeparated = (s) => {
    const c = ranking.versus(s)
    const order = orderWords(c)
    const medians = mediansRatioNote(c)
    return `${name(s)} ${format(s[measure].median)} (${formatRatio(c.ratio)}${medians ? `, ${medians}` : ''}, ${basisWords(c)}${order ? `; ${order}` : ''})`
  }
  const winners = best ? [`${name(best)} ${format(best[measure].median)}`] : []
  if (close.length) winners.push(`not separated from ${name(best)}: ${close.map(notSeparated).join(', ')}`)
  const lossy = ranking.fasterButLossy
  if (lossy.length) winners.push(`${best === null ? 'every cell lost events; fastest' : 'faster, but losing events'}: ${lossy.map((s) => `${name(s)} ${format(s[measure].median)} (${formatPct(lostShare(s))} lost)`).join(', ')}`)
  return winners
}

// Events lost over a cell's finished runs: { lost, expected, share, atSocket }, null where none
// could be counted. expected: what should arrive (the events sent; 0 for a disabled level).
export function lossOf (runs) {
  const expected = (r) => r.expected ?? r.sent
  const counted = runs.filter((r) => r.ok && r.received != null && expected(r) != null)
  if (!counted.length) return null
  const lost = counted.reduce((total, r) => total + Math.max(0, expected(r) - r.received), 0)
  const total = counted.reduce((sum, r) => sum + expected(r), 0)
  // A TCP stream is not dropped at the receiving socket: what is lost there was lost before it.
  const socketDrops = (r) => r.receiverSocketDrops ?? (transportIs(r.transport, 'socketDrops', 'none') ? 0 : null)
  const located = counted.every((r) => socketDrops(r) != null)
  const atSocket = located ? Math.min(lost, counted.reduce((sum, r) => sum + socketDrops(r), 0)) : null
  return { lost, expected: total, share: total ? lost / total : 0, atSocket }
}

// What failed runs of a cell lost, where their arrivals were counted: said apart from the finished
// runs' loss, so that a cell whose every run failed with nothing arrived does not read as losing nothing.
function failedLoss (runs) {
  const counted = runs.filter((r) => !r.ok && r.status === 'failed' && r.received != null && (r.expected ?? r.sent) > 0)
  const expected = counted.reduce((sum, r) => sum + (r.expected ?? r.sent), 0)
  const lost = counted.reduce((total, r) => total + Math.max(0, (r.expected ?? r.sent) - r.received), 0)
  return lost > 0 ? { lost, expected, share: lost / expected } : null
}

function losses (name, loss, failed) {
  const inFailed = failed ? `${count(failed.lost)} of ${count(failed.expected)} in failed runs (${formatPct(failed.share)})` : null
  if (!loss || loss.lost === 0) return inFailed && `${name}: ${inFailed}`
  const where = loss.atSocket === null ? 'where: not known' : `${count(loss.atSocket)} at the receiver's socket, ${count(loss.lost - loss.atSocket)} before it`
  return `${name}: ${count(loss.lost)} of ${count(loss.expected)} (${formatPct(loss.share)}; ${where})${inFailed ? `; ${inFailed}` : ''}`
}

function troubles (name, runs) {
  const bad = runs.filter((r) => !r.ok)
  if (!bad.length) return null
  const reasons = unique(bad.map((r) => r.error ?? r.status))
  const which = (reason) => {
    const numbers = bad.filter((r) => (r.error ?? r.status) === reason).map((r) => r.run)
    const status = bad.find((r) => (r.error ?? r.status) === reason).status
    return status === 'unsupported' ? `unsupported: ${reason}` : `${status} (run ${numbers.join(', ')}): ${reason}`
  }
  return `${name}: ${reasons.map(which).join('; ')}`
}
