import { barChart, barSeries, chartFile, lineSeries, lineChart, rssOverTime, timeAxis, zeroAxis } from '../../draw/charts.js'
import { libraryColour, palette } from '../../draw/colours.js'
import { codeSpan, escapeCell, figureColumns, strong, wrap } from '../../draw/table.js'
import { formatBytes, formatCount, formatMs, libraryName, transportTitle, unique } from '../../draw/labels.js'
import { dimensionValue, ofType } from '../../results/model.js'
import { DEFAULT_ENDING, ENDINGS, endingTitle } from '../../engine/endings.js'
import { transportDescriptor, transportIs } from '../../engine/transports.js'
import { runnableHere } from '../../paths.js'
import { maxOf, minOf } from '../../stats.js'

// The report section of durability (docs/durability.md): do the logs survive how processes really
// end (--ending), and what does a logger do when its receiving end reads slowly or stalls
// (--receiver-rate, --receiver-stall)? Per transport a matrix "kept N of M" per library and ending,
// a summary in words per library, and under a stall a table against the same run at full speed and
// the memory over time. Shown only when the results hold an ending other than close or a slowed
// receiver; every other page is unchanged.

const endingOf = (r) => dimensionValue(r, 'ending')
// A run whose receiving end was slowed or stalled (--receiver-rate, --receiver-stall).
export const slowed = (r) => r.receiverRate != null || r.receiverStallMs != null
// The endings the summary speaks of, as the issue's question puts them, and the recipe that fixes SIGTERM.
const ASKED = [['exit', 'on process.exit()'], ['uncaught', 'on an uncaught exception'], ['sigterm', 'on SIGTERM']]

const HOW_TO_READ = [
  '- _kept N of M_: events that arrived intact at the receiving end, counted one by one, of those logged; a range where the runs of a cell kept different counts (a race: a pipe full or not when the process went). _never ended_: under _return_ the process had not ended by itself 5 s after its last call (the logger keeps the event loop alive); log-bench ended it with SIGKILL.',
  `- Endings: ${ENDINGS.map((e) => `_${e.title}_ (${e.name}): ${e.describe}`).join('; ')}.`
]

export const durabilitySection = {
  name: 'durability',
  types: ['run'],
  placement: 'top',
  render (dataset, ctx) {
    const runs = ofType(dataset.runs, 'run')
    if (!runs.some((r) => endingOf(r) !== DEFAULT_ENDING || slowed(r))) return { blocks: [], charts: [] }
    const ended = runs.filter((r) => !slowed(r))
    // Said here, not under "How to read the numbers": that part is shown on every page with runs.
    const out = [{ heading: 'Do the logs survive?' }]
    const charts = []
    if (ended.some((r) => endingOf(r) !== DEFAULT_ENDING)) out.push(...endingsBlocks(ended))
    out.push(HOW_TO_READ.join('\n'))
    const stalled = runs.filter((r) => r.receiverStallMs != null)
    if (stalled.length) {
      const part = stallBlocks(stalled, ended, ctx)
      out.push(...part.blocks)
      charts.push(...part.charts)
    }
    const rated = runs.filter((r) => r.receiverRate != null && r.receiverStallMs == null)
    if (rated.length) out.push(...rateBlocks(rated))
    return { blocks: out, charts }
  },
  // A page of endings is led by what was kept: the Summary's sentences, then the share kept as its
  // headline chart; the Summary's speed chart and findings table come after the kept matrices.
  lead (dataset, ctx, summary) {
    const runs = ofType(dataset.runs, 'run')
    if (!keptSentences(runs).length) return null
    const kept = keptChart(runs, ctx.conditions)
    return {
      blocks: [...summary.blocks.slice(0, 2), ctx.image(kept.file, 'Headline: events kept per library, transport and ending')],
      charts: [kept, ...summary.charts],
      after: summary.blocks.length > 2
        ? [{ heading: 'Speed, after what was kept' }, 'Time until done per ending, where the process ended by itself: no ranking where a signal or log-bench\'s kill timer ended the runs, and none named fastest where runs fall in two groups.', ...summary.blocks.slice(2)]
        : []
    }
  }
}

// What the runs of one cell kept: { kept: [min, max], sent, failed, unsupported, reason }.
function keptOf (cellRuns) {
  const ok = cellRuns.filter((r) => r.ok && r.received != null)
  if (!ok.length) {
    const first = cellRuns[0]
    return { kept: null, sent: first?.sent ?? null, unsupported: first?.status === 'unsupported', reason: first?.error ?? first?.status ?? null }
  }
  const counts = ok.map((r) => r.received)
  return {
    kept: [minOf(counts), maxOf(counts)],
    sent: ok[0].sent,
    runs: ok.length,
    keptAlive: ok.some((r) => r.keptAlive)
  }
}

function keptText ({ kept, sent, unsupported, reason, keptAlive }) {
  if (kept === null) return unsupported ? 'unsupported' : `failed: ${reason ?? 'no run finished'}`
  const [low, high] = kept
  return `${low === high ? formatCount(low) : `${formatCount(low)}–${formatCount(high)}`} of ${formatCount(sent)}${keptAlive ? ', never ended' : ''}`
}

// The Summary's first sentences on a page of endings: per ending asked, who kept every event on
// every transport measured, and what each other library kept where (brief: only where it lost
// events, the figures being in the kept table). [] without endings.
export function keptSentences (runs, { brief = false } = {}) {
  const ended = runs.filter((r) => !slowed(r))
  if (!ended.some((r) => endingOf(r) !== DEFAULT_ENDING)) return []
  const libs = unique(ended.map(libraryName)).filter((l) => l !== 'raw' && l !== 'noop')
  const transports = unique(ended.map((r) => r.transport))
  const cell = (lib, transport, ending) =>
    keptOf(ended.filter((r) => libraryName(r) === lib && r.transport === transport && endingOf(r) === ending))
  const out = []
  for (const [ending, words] of ASKED) {
    if (!ended.some((r) => endingOf(r) === ending)) continue
    const whole = []
    const losing = []
    for (const lib of libs) {
      const measured = transports.map((t) => ({ t, k: cell(lib, t, ending) })).filter(({ k }) => k.kept !== null)
      if (!measured.length) continue
      const lost = measured.filter(({ k }) => !keptAll(k))
      if (!lost.length) whole.push(lib)
      else losing.push(brief ? `${lib} (${lost.map(({ t }) => transportTitle(t)).join(', ')})` : `${lib} ${lost.map(({ t, k }) => `${keptText(k)} on ${transportTitle(t)}`).join(', ')}`)
    }
    const parts = [whole.length ? `every event kept by ${whole.join(', ').replace(/, ([^,]+)$/, ' and $1')}${brief ? '' : ' on every transport measured'}` : 'no library kept every event everywhere', ...(losing.length ? [brief ? `events lost by ${losing.join(', ')}` : `kept: ${losing.join('; ')}`] : [])]
    out.push(`${words[0].toUpperCase()}${words.slice(1)}: ${parts.join('; ')}.`)
  }
  return out
}

// One library under one ending over every transport measured, for the scorecard: "every event
// (Console, Filesystem)" or what it kept where it lost; null where it was not measured.
export function keptAcross (runs, lib, ending) {
  const ended = runs.filter((r) => !slowed(r) && libraryName(r) === lib && endingOf(r) === ending)
  const measured = unique(ended.map((r) => r.transport)).map((t) => ({
    t,
    k: keptOf(ended.filter((r) => r.transport === t))
  })).filter(({ k }) => k.kept !== null)
  if (!measured.length) return null
  const lost = measured.filter(({ k }) => !keptAll(k))
  if (!lost.length) return `every event (${measured.map(({ t }) => transportTitle(t)).join(', ')})`
  return lost.map(({ t, k }) => `${transportTitle(t)}: ${keptText(k)}`).join('; ')
}

// The durability page's headline: the share of events kept per library, grouped by transport and
// ending (the lowest run's share, the question being whether the logs survive; whiskers from the
// lowest to the highest run). null without endings.
export function keptChart (runs, conditions) {
  const ended = runs.filter((r) => !slowed(r))
  if (!ended.some((r) => endingOf(r) !== DEFAULT_ENDING)) return null
  const libs = unique(ended.map(libraryName)).filter((l) => l !== 'noop')
  const transports = unique(ended.map((r) => r.transport))
  const endings = ENDINGS.map((e) => e.name).filter((name) => ended.some((r) => endingOf(r) === name))
  const groups = transports.flatMap((t) =>
    endings.filter((e) => ended.some((r) => r.transport === t && endingOf(r) === e)).map((e) => ({ t, e })))
  const colours = palette(libs)
  const datasets = libs.map((lib) => {
    const cells = groups.map(({ t, e }) =>
      keptOf(ended.filter((r) => libraryName(r) === lib && r.transport === t && endingOf(r) === e)))
    const share = (k, i) => (k.kept === null || !k.sent ? null : (k.kept[i] / k.sent) * 100)
    return barSeries(lib, colours.get(lib), cells.map((k) => share(k, 0)), {
      errorBars: cells.map((k) => (k.kept === null || k.kept[0] === k.kept[1] ? null : [share(k, 0), share(k, 1)])),
      barNotes: cells.map((k) => (k.kept !== null && k.kept[1] === 0 ? 'none kept' : k.unsupported ? 'unsupported' : null))
    })
  })
  const width = Math.max(1000, Math.min(2400, 120 + groups.length * libs.length * 14))
  // A label's lines fit its group's band (about 7 px a character at the chart's tick size).
  const fit = Math.max(6, Math.floor((width - 120) / groups.length / 7))
  return barChart({
    file: chartFile('summary-kept'),
    width,
    height: 560,
    title: 'Events kept per library, transport and ending',
    notes: ['the run that kept the fewest · whiskers: fewest to most over the runs · higher is better', conditions],
    labels: groups.map(({ t, e }) => [transportTitle(t), endingTitle(e)].flatMap((part) => wrap(part, fit, { cutWords: false }).split('\n'))),
    datasets,
    scales: { x: { ticks: { maxRotation: 0, autoSkip: false } }, y: zeroAxis('events kept (% of logged)', { max: 100 }) }
  })
}

const lostAll = (k) => k.kept !== null && k.kept[1] === 0
const keptAll = (k) => k.kept !== null && k.kept[0] === k.sent

function endingsBlocks (runs) {
  const out = []
  const libs = unique(runs.map(libraryName))
  const transports = unique(runs.map((r) => r.transport))
  const endings = ENDINGS.map((e) => e.name).filter((name) => runs.some((r) => endingOf(r) === name))
  const cell = (lib, transport, ending) =>
    keptOf(runs.filter((r) => libraryName(r) === lib && r.transport === transport && endingOf(r) === ending))
  out.push({ heading: 'Which logger keeps your logs when the process exits, crashes or is told to stop', level: 3 })
  out.push(`Each worker logged its events in the seed's tight loop, then its process ended one way; the receiving end counted every event that arrived. ${codeSpan('close()')} is the best case (the library's own flush awaited); the others are how services really end. The plain scripts of ${codeSpan(runnableHere('npm run bench:durability'))} end the same libraries the same way outside log-bench: run it with ${codeSpan('--against')} and this results file to confirm that each loss is the library's, not the harness's.`)
  for (const transport of transports) {
    out.push({ heading: `${transportTitle(transport)}: kept of logged, per ending`, level: 4 })
    const columns = figureColumns(['Library', ...endings.map(endingTitle)])
    const rows = libs.filter((lib) =>
      runs.some((r) => libraryName(r) === lib && r.transport === transport)).map((lib) => [lib, ...endings.map((e) => {
      const k = cell(lib, transport, e)
      const text = k.kept === null && !runs.some((r) => libraryName(r) === lib && r.transport === transport && endingOf(r) === e) ? '—' : keptText(k)
      return k.kept !== null && !keptAll(k) ? strong(text) : text
    })])
    out.push({ columns, rows })
  }
  const lines = []
  for (const lib of libs.filter((l) => l !== 'raw' && l !== 'noop')) {
    const parts = []
    for (const [ending, words] of ASKED) {
      if (!endings.includes(ending)) continue
      const lost = transports.map((t) => ({ t, k: cell(lib, t, ending) }))
        .filter(({ k }) => k.kept !== null && !keptAll(k))
      const measured = transports.filter((t) => cell(lib, t, ending).kept !== null)
      if (!measured.length) continue
      parts.push(lost.length
        ? `${words} it loses logs on ${lost.map(({ t, k }) => `${transportTitle(t)} (kept ${keptText(k)}${lostAll(k) ? ': nothing' : ''})`).join(', ')}`
        : `${words} it keeps every event (${measured.map(transportTitle).join(', ')})`)
    }
    if (endings.includes('sigterm-recipe')) {
      const tried = transports.filter((t) => runs.some((r) => libraryName(r) === lib && r.transport === t && endingOf(r) === 'sigterm-recipe')).map((t) => ({ t, k: cell(lib, t, 'sigterm-recipe') })).filter(({ k }) => !k.unsupported)
      const kept = tried.filter(({ k }) => keptAll(k))
      const still = tried.filter(({ k }) => k.kept !== null && !keptAll(k))
      const failed = tried.filter(({ k }) => k.kept === null)
      const recipe = []
      if (kept.length) recipe.push(`keeps every event (${kept.map(({ t }) => transportTitle(t)).join(', ')})`)
      if (still.length) recipe.push(`still loses on ${still.map(({ t, k }) => `${transportTitle(t)} (kept ${keptText(k)})`).join(', ')}`)
      if (failed.length) recipe.push(`failed on ${failed.map(({ t, k }) => `${transportTitle(t)} (${escapeCell(k.reason)})`).join(', ')}`)
      if (recipe.length) parts.push(`its shutdown recipe on SIGTERM (the flush it documents, then exit) ${recipe.join('; it ')}`)
    }
    const alive = transports.filter((t) => cell(lib, t, 'return').keptAlive)
    if (alive.length) parts.push(`without close() its process never ends by itself on ${alive.map(transportTitle).join(', ')} (something it opened keeps the event loop alive)`)
    if (parts.length) lines.push(`- **${escapeCell(lib)}**: ${parts.join('; ')}.`)
  }
  if (lines.length) out.push(lines.join('\n'))
  out.push(...rawWords(transports, endings, cell))
  return out
}

// What raw, the plainest code, kept: on console and file it writes every line before its last call
// returns, so a loss there would be the harness's; its syslog senders do not (TCP sends its last
// 64 KiB batch in close(), UDP sends asynchronously), so an ending can lose their tail.
function rawWords (transports, endings, cell) {
  const measured = transports.map((t) => ({ t, cells: endings.map((e) => ({ e, k: cell('raw', t, e) })).filter(({ k }) => k.kept !== null) })).filter(({ cells }) => cells.length)
  const keptEverywhere = measured.filter(({ cells }) => cells.every(({ k }) => keptAll(k)))
  const lost = measured.filter(({ cells }) => !cells.every(({ k }) => keptAll(k)))
  const words = []
  if (keptEverywhere.length) words.push(`\`raw\` kept every event under every ending on ${keptEverywhere.map(({ t }) => transportTitle(t)).join(', ')}: it writes each line before its call returns, so what a logger loses there, it loses by holding lines after its call returned.`)
  for (const { t, cells } of lost) {
    const losses = cells.filter(({ k }) => !keptAll(k)).map(({ e, k }) => `${endingTitle(e)}: kept ${keptText(k)}`).join('; ')
    words.push(transportDescriptor(t)?.syslog
      ? `On ${transportTitle(t)} \`raw\` lost events too (${losses}): its syslog sender does not write every line before its last call returns (over TCP it sends its last batch of lines in close()), so an ending loses that tail.`
      : `On ${transportTitle(t)} \`raw\` lost events (${losses}): it writes synchronously, so the harness, not the loggers, is in question there.`)
  }
  return words
}

// Under a stall: each library against its run at full speed (the same transport, events and ending).
function stallBlocks (stalled, fullSpeed, ctx) {
  const out = []
  const charts = []
  for (const transport of unique(stalled.map((r) => r.transport))) {
    const ofTransport = stalled.filter((r) => r.transport === transport)
    const stallMs = unique(ofTransport.map((r) => r.receiverStallMs))
    out.push({ heading: `${transportTitle(transport)}: a receiving end that stops reading for ${stallMs.map((ms) => `${formatCount(ms)} ms`).join(', ')}`, level: 3 })
    out.push(`The receiving end read nothing for the stall once a tenth of each worker's events had arrived, then read at full speed; the logger meanwhile met a full ${transportIs(transport, 'reaches', 'stdout') ? 'stdout' : 'destination'}. Figures are the median run's; _full speed_ is the same cell read at full speed. _Catch-up_ is from the stall's end to the last arrival.`)
    const columns = figureColumns(['Library', 'Stall ms', 'Unblocked ms (full speed → stalled)', 'Peak RSS (full speed → stalled)', 'Peak heap (full speed → stalled)', 'Kept', 'Catch-up ms'])
    const rows = []
    const series = []
    for (const lib of unique(ofTransport.map(libraryName))) {
      for (const ms of stallMs) {
        const cellRuns = ofTransport.filter((r) => libraryName(r) === lib && r.receiverStallMs === ms)
        const run = medianRun(cellRuns.filter((r) => r.ok))
        const base = medianRun(fullSpeed.filter((r) => r.ok &&
          libraryName(r) === lib &&
          r.transport === transport &&
          endingOf(r) === endingOf(cellRuns[0]) &&
          r.events === cellRuns[0].events &&
          r.cpus === cellRuns[0].cpus))
        if (!run) {
          rows.push([lib, formatCount(ms), keptText(keptOf(cellRuns)), '—', '—', '—', '—'])
          continue
        }
        const pair = (before, after, format) => `${before == null ? '—' : format(before)} → ${after == null ? '—' : format(after)}`
        rows.push([lib, formatCount(ms), pair(base?.unblockedMs, run.unblockedMs, formatMs), pair(base?.maxRssBytes, run.maxRssBytes, formatBytes), pair(base?.maxHeapBytes, run.maxHeapBytes, formatBytes), keptText(keptOf([run])), run.afterStallMs == null ? '—' : formatMs(run.afterStallMs)])
        if (run.timeseries?.length) series.push({ lib, run })
      }
    }
    out.push({ columns, rows })
    if (series.length) {
      const chart = { file: chartFile(transport, 'stall-memory'), ...memoryChart(transport, stallMs, series, ctx.conditions) }
      charts.push(chart)
      out.push(ctx.image(chart.file, `${transportTitle(transport)}: memory over time under a stalled receiving end`))
    }
  }
  return { blocks: out, charts }
}

function rateBlocks (rated) {
  const out = []
  for (const transport of unique(rated.map((r) => r.transport))) {
    const ofTransport = rated.filter((r) => r.transport === transport)
    out.push({ heading: `${transportTitle(transport)}: a receiving end that reads slowly`, level: 3 })
    out.push('The receiving end read each worker\'s output no faster than the rate given. _Needs_ is the time the bytes that arrived take at that rate: _done_ cannot be shorter.')
    const columns = figureColumns(['Library', 'Rate (bytes/s)', 'Unblocked ms', 'Done ms', 'Needs ms', 'Peak RSS', 'Kept'])
    const rows = []
    for (const lib of unique(ofTransport.map(libraryName))) {
      for (const rate of unique(ofTransport.filter((r) => libraryName(r) === lib).map((r) => r.receiverRate))) {
        const cellRuns = ofTransport.filter((r) => libraryName(r) === lib && r.receiverRate === rate)
        const run = medianRun(cellRuns.filter((r) => r.ok))
        if (!run) {
          rows.push([lib, formatCount(rate), keptText(keptOf(cellRuns)), '—', '—', '—', '—'])
          continue
        }
        const needs = run.stdoutBytes == null ? null : (run.stdoutBytes / rate) * 1000
        rows.push([lib, formatCount(rate), formatMs(run.unblockedMs), formatMs(run.doneMs), needs == null ? '—' : formatMs(needs), formatBytes(run.maxRssBytes), keptText(keptOf([run]))])
      }
    }
    out.push({ columns, rows })
  }
  return out
}

// The run with the median done (the lower middle of an even count); null without runs.
function medianRun (runs) {
  const timed = runs.filter((r) => r.doneMs != null).sort((a, b) => a.doneMs - b.doneMs || a.run - b.run)
  return timed.length ? timed[Math.floor((timed.length - 1) / 2)] : null
}

// RSS of all workers over time, one line per library, under the stall.
function memoryChart (transport, stallMs, series, conditions) {
  return lineChart({
    height: 500,
    title: `${transportTitle(transport)}: memory while the receiving end stalls ${stallMs.map((ms) => `${formatCount(ms)} ms`).join(', ')}`,
    notes: [`${formatCount(series[0].run.events)} events per worker · all workers' RSS, sampled every 100 ms · the median run`, conditions],
    datasets: series.map(({ lib, run }) => lineSeries(lib, libraryColour(lib), rssOverTime(run))),
    scales: { x: timeAxis(), y: zeroAxis('RSS (MiB, all workers)', { type: 'linear' }) }
  })
}
