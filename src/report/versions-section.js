import { HTTP_BASELINE } from '../engine/library-names.js'
import { cellKey, dimensionValue, measureNamed } from '../results/model.js'
import semver from 'semver'
import { PAIRED_MIN_ROUNDS, median } from '../stats.js'
import { roundsOf } from '../results/rounds.js'
import { judge } from '../results/judge/verdict.js'
import { code, em, figureColumns, strong } from '../draw/table.js'
import { workersLabel, estimateNote, formatCount, formatMs, ratioInterval, transportTitle, unique, verdictWord } from '../draw/labels.js'
import { notDecidedControl, timeRatioWords } from '../results/judge/verdict-rules.js'
import { controlsByTable, tableOf } from './http/glance.js'
import { summarizeHttp } from '../results/http-summary.js'

// "At a glance" for results that hold several versions of a library (--lib pino@5,pino@10) or
// several runtimes (--runtime node@22,bun): what changed, by how much, and whether the runs let us
// call it a change, by the one verdict (judge, src/results/judge/verdict.js: ratio of medians and the
// two-sided Mann–Whitney U test, paired by round from 6 rounds, at the measure's noise threshold).
// Only cells that differ in that one dimension are set side by side, so every row compares runs made
// on one machine under the same conditions. Shown only when versions or runtimes vary; other pages
// are unchanged.

const isRun = (r) => dimensionValue(r, 'type') === 'run'
const isHttp = (r) => dimensionValue(r, 'type') === 'http'

export const versionsSection = {
  name: 'versions',
  types: ['run', 'http'],
  placement: 'top',
  render (dataset) {
    const out = []
    const roundOf = roundsOf(dataset)
    // Rows paired by round (compareRuns pairs from PAIRED_MIN_ROUNDS rounds) are said to be.
    const inRounds = dataset.runs.some((r) => roundOf(r) != null && r.run >= PAIRED_MIN_ROUNDS)
    const libraries = librariesTable(dataset.runs.filter(isRun), roundOf)
    const runtimes = runtimesTable(dataset.runs.filter(isRun), dataset.env, roundOf)
    const http = httpTable(dataset.runs.filter(isHttp), roundOf)
    if (!libraries && !runtimes && !http) return { blocks: [], charts: [] }
    out.push({ heading: 'At a glance: versions and runtimes' })
    // A text block, not page-only markdown: the terminal shows it too, so that a ratio beside two
    // medians says there which estimate it is.
    out.push({
      text: ['Each row compares cells that differ in one thing only, measured on this machine in one session: ',
        ...(inRounds
          ? [em('ratio'), ` is the median of the newer (or other) side over the median of the baseline, or where both ran ${PAIRED_MIN_ROUNDS} rounds or more, the estimate of their ratio within a round (marked `, em('per round'), ' where it reads otherwise than the ratio of the medians beside it); p is that of ', code('log-bench compare'), '\'s test (the Wilcoxon signed-rank test on those ratios, else two-sided Mann–Whitney U on the runs), ']
          : [em('ratio'), ' is the median of the newer (or other) side over the median of the baseline; p is that of ', code('log-bench compare'), '\'s test (two-sided Mann–Whitney U on the runs), ']),
        'with its interval, and the verdict is faster or slower only where p < 0.05 and the whole interval of the ratio lies beyond the measure\'s noise threshold (±2% for times, ±5% for requests/s), ', code('same'), ' only where it lies within it, and ', code('not decided'), ' otherwise (the runs do not tell; docs/comparisons.md). ',
        'Times are ', em('done'), ' (until every event had landed), in milliseconds; below 1 is faster.']
    })
    if (libraries) out.push({ heading: 'The libraries: then and now', level: 3 }, libraries)
    if (runtimes) out.push({ heading: 'The runtime: the same library under each runtime', level: 3 }, runtimes)
    if (http) out.push({ heading: 'Under HTTP load: requests per second against the same app without logging', level: 3 }, http)
    return { blocks: out, charts: [] }
  }
}

// The verdict of two sets of runs on one of the schema's measures (judge, paired by round where
// they ran in rounds): the estimate it was judged on, its interval, p, and the verdict; none
// without a test or a ratio.
function judged (baselineRuns, runs, type, field, roundOf) {
  const c = judge(baselineRuns, runs, measureNamed(type, field), { roundOf })
  return { ...c, verdict: c.p == null || c.ratio == null ? null : c.verdict }
}

// "20× [18, 23] **faster** (p 0.008)" for times (a ratio under 1 is faster, worded as how many times,
// its interval likewise), "0.97× the time [0.91, 1.04] (p 0.690) **not decided**" where the runs do
// not decide; for requests/s "0.79× the requests/s"; or why there is no verdict.
function verdictCell (result, { rate = false } = {}) {
  if (result.verdict == null) return 'not enough runs'
  const p = `(p ${result.p < 0.001 ? '< 0.001' : result.p.toFixed(3)})`
  const word = verdictWord(result.verdict)
  // The medians stand beside the ratio: a paired estimate that reads otherwise says which it is
  // (the legend above the table says what the per-round estimate is).
  const which = (turn) => (estimateNote(result, turn) ? ' (per round)' : '')
  if (rate) return [`${result.ratio.toFixed(2)}× the requests/s${ratioInterval(result)} ${p} `, strong(word), which()]
  if (result.verdict === 'faster' || result.verdict === 'slower') {
    const words = timeRatioWords(result.ratio)
    const flipped = result.ratio < 1 && result.ciLow != null
      ? { ...result, ciLow: 1 / result.ciHigh, ciHigh: 1 / result.ciLow }
      : result
    return [`${words.replace(/ (faster|slower)$/, '')}${ratioInterval(flipped)} `, strong(words.replace(/^.* /, '')), ` ${p}`, which((v) => (result.ratio < 1 ? 1 / v : v))]
  }
  return [`${result.ratio.toFixed(2)}× the time${ratioInterval(result)} ${p} `, strong(word), which()]
}

// Done times compared, or why they cannot be: a side with no run that delivered every event (its
// failures or its losses named), too few runs.
function comparedCell (baseline, other, [baseName, otherName], roundOf) {
  for (const [runs, name] of [[baseline, baseName], [other, otherName]]) {
    if (delivered(runs).length > 0) continue
    const failed = runs.find((r) => !r.ok)
    const lost = runs.filter((r) => r.ok && r.dropRate > 0)
    if (failed && lost.length === 0) return `${name} failed: ${failed.error}`
    const share = lost.reduce((total, r) => total + r.dropRate, 0) / (lost.length || 1)
    return `${name} lost events in every run (${(share * 100).toFixed(1)}% on average): not compared`
  }
  return [verdictCell(judged(delivered(baseline), delivered(other), 'run', 'doneMs', roundOf)), lossNote([...baseline, ...other])]
}

// Runs that delivered: the ones a time may be compared on.
const delivered = (runs) => runs.filter((r) => r.ok && (r.dropRate == null || r.dropRate === 0))
const lossNote = (runs) => {
  const lossy = runs.filter((r) => r.ok && r.dropRate > 0)
  return lossy.length ? ` (${lossy.length} run${lossy.length > 1 ? 's' : ''} lost events, left out)` : ''
}

// Per library name: its oldest version is the baseline, every newer one is compared with it, in
// each cell that differs only in the version.
function librariesTable (runs, roundOf) {
  const versioned = runs.filter((r) => r.libRange != null)
  const rows = []
  for (const lib of unique(versioned.map((r) => r.lib))) {
    const ofLib = versioned.filter((r) => r.lib === lib)
    const versions = unique(ofLib.map((r) => r.libVersion)).sort(semver.compare)
    if (versions.length < 2) continue
    for (const group of unique(ofLib.map((r) => cellKey(r, { except: ['libVersion'] })))) {
      const inGroup = ofLib.filter((r) => cellKey(r, { except: ['libVersion'] }) === group)
      const first = inGroup[0]
      const baseline = inGroup.filter((r) => r.libVersion === versions[0])
      if (baseline.length === 0) continue
      for (const version of versions.slice(1)) {
        const other = inGroup.filter((r) => r.libVersion === version)
        if (other.length === 0) continue
        rows.push([lib, versions[0], version, transportTitle(first.transport), workersLabel(first.cpus),
          `${doneMedian(baseline)} → ${doneMedian(other)}`, comparedCell(baseline, other, [`${lib} ${versions[0]}`, `${lib} ${version}`], roundOf)])
      }
    }
  }
  if (rows.length === 0) return null
  return { columns: figureColumns(['Library', 'Then', 'Now', 'Transport', 'Workers', 'Done ms (medians)', 'Now against then']), rows }
}

// Per library (and version): the runtime of the Node that ran log-bench is the baseline where it is
// among them, else the first; every other runtime is compared with it.
function runtimesTable (runs, env, roundOf) {
  const labels = unique(runs.map((r) => r.runtime).filter(Boolean))
  if (labels.length < 2) return null
  const own = `node ${String(env?.node ?? '').replace(/^v/, '')}`
  const base = labels.includes(own) ? own : labels[0]
  const others = labels.filter((l) => l !== base)
  const rows = []
  for (const group of unique(runs.filter((r) => r.runtime).map((r) => cellKey(r, { except: ['runtime'] })))) {
    const inGroup = runs.filter((r) => r.runtime && cellKey(r, { except: ['runtime'] }) === group)
    if (unique(inGroup.map((r) => r.runtime)).length < 2) continue
    const first = inGroup[0]
    const baseline = inGroup.filter((r) => r.runtime === base)
    if (baseline.length === 0) continue
    const name = first.libRange != null ? `${first.lib}@${first.libVersion}` : first.lib
    const cells = others.map((label) => {
      const other = inGroup.filter((r) => r.runtime === label)
      if (other.length === 0) return '—'
      if (other.every((r) => r.status === 'unsupported')) return 'unsupported'
      return [`${doneMedian(other)} ms, `, comparedCell(baseline, other, [base, label], roundOf)]
    })
    rows.push([name, transportTitle(first.transport), workersLabel(first.cpus), `${doneMedian(baseline)} ms`, ...cells])
  }
  if (rows.length === 0) return null
  return { columns: figureColumns(['Library', 'Transport', 'Workers', `${base} (baseline)`, ...others]), rows }
}

// Each library's requests per second against `none` in the same http cell.
function httpTable (runs, roundOf) {
  if (!runs.some((r) => r.libRange != null || (r.runtime && unique(runs.map((x) => x.runtime)).length > 1))) return null
  const rows = []
  // The one rule (verdict-rules.js): where the table's control (0 logs per request) does not read
  // same, or none was measured, its differences are not decided.
  const controls = controlsByTable(summarizeHttp(runs, { roundOf }))
  const cellOf = (r) => cellKey(r, { except: ['lib', 'variant', 'middleware'] })
  for (const group of unique(runs.map(cellOf))) {
    const inGroup = runs.filter((r) => cellOf(r) === group)
    const none = inGroup.filter((r) => r.lib === HTTP_BASELINE && r.ok)
    if (none.length === 0) continue
    const noneRate = none.map((r) => r.reqPerSec?.mean).filter((v) => v != null)
    const first = inGroup[0]
    for (const name of unique(inGroup.filter((r) => r.lib !== 'none').map((r) => (r.libRange != null ? `${r.lib}@${r.libVersion}` : r.lib)))) {
      const libRuns = inGroup.filter((r) => (r.libRange != null ? `${r.lib}@${r.libVersion}` : r.lib) === name)
      const ok = libRuns.filter((r) => r.ok)
      const rates = ok.map((r) => r.reqPerSec?.mean).filter((v) => v != null)
      const result = judged(none, ok, 'http', 'reqPerSec', roundOf)
      const withheld = notDecidedControl(controls.get(tableOf(first)) ?? { passed: false, measured: false })
      const lost = ok.filter((r) => r.dropRate > 0).length
      rows.push([name, `${transportTitle(first.transport)}, ${first.logsPerRequest} × ${first.size} B per request, ${workersLabel(first.cpus)}`,
        formatCount(median(noneRate)), ok.length ? formatCount(median(rates)) : `failed: ${libRuns.find((r) => !r.ok)?.error ?? '?'}`,
        ok.length ? (withheld ?? verdictCell(result, { rate: true })) : '—', lost ? `${lost} of ${ok.length} runs lost events` : 'every event'])
    }
  }
  if (rows.length === 0) return null
  return { columns: figureColumns(['Library', 'Load', 'none req/s', 'req/s', 'Ratio to none', 'Delivered']), rows }
}

// The median done time of the runs that delivered every event, formatted.
function doneMedian (runs) {
  const value = median(delivered(runs).map((r) => r.doneMs))
  return value == null || Number.isNaN(value) ? '—' : formatMs(value)
}
