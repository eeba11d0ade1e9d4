import { chartFile, lineChart, lineSeries, logAxis } from '../../draw/charts.js'
import { palette } from '../../draw/colours.js'
import { codeSpan, figureColumns } from '../../draw/table.js'
import { basisWords, formatCount, formatNumber, formatRatio, libraryName, ratioInterval, transportTitle, unique, verdictWord } from '../../draw/labels.js'
import { cellKey, dimensionValue, measureNamed, ofType } from '../../results/model.js'
import { roundsOf } from '../../results/rounds.js'
import { judge } from '../../results/judge/verdict.js'
import { median } from '../../stats.js'

// The burst size on the page (run --burst): the same libraries at several burst sizes, each run
// logging `burst` events in one synchronous loop, then letting the event loop turn, against every
// event in one loop. Per transport and events per worker: the time per event (unblocked over the
// events, from the first call until the loop was free after the last burst) for each library at
// each burst size, each library's multiple of the fastest at that size (judge()'s estimate), and a
// chart of the time per event against the burst size. Shown only where the results hold cells run in
// bursts; every other page is unchanged.

const BASELINES = new Set(['noop', 'raw'])

// A run's time per event in ns: unblocked over the events each worker logged.
const nsPerEvent = (r) => (r.unblockedMs == null || !(r.events > 0) ? null : (r.unblockedMs * 1e6) / r.events)

// The cells of the section: tight-loop runs (no rate), timed, unprofiled, ended by close().
function burstRuns (runs) {
  return ofType(runs, 'run').filter((r) => r.ok && r.rate == null && !r.profile &&
    dimensionValue(r, 'measure') !== 'instructions' && dimensionValue(r, 'ending') === 'close')
}

export const BURSTS_HEADING = 'Does the burst size change the answer?'

// Whether a dataset shows this section: it holds cells run in bursts.
export const showsBursts = (dataset) => burstRuns(dataset.runs ?? []).some((r) => r.burst != null)

// Whether a page compares libraries (two or more) on cells that logged every event in one loop: its
// answers could change at another burst size, so it points to where the burst size is measured.
export const comparesInOneLoop = (dataset) =>
  unique(burstRuns(dataset.runs ?? []).filter((r) => r.burst == null).map(libraryName)).length > 1

export const burstsSection = {
  name: 'bursts',
  types: ['run'],
  render (dataset, ctx) {
    if (!showsBursts(dataset)) return { blocks: [], charts: [] }
    const runs = burstRuns(dataset.runs ?? [])
    const roundOf = roundsOf(dataset)
    const blocks = [{ heading: BURSTS_HEADING }]
    blocks.push(`Each worker logged its events in bursts (${codeSpan('run --burst')}): a burst of calls in one synchronous loop, then a turn of the event loop (${codeSpan('setImmediate')}) before the next, as a service logs a few lines per request and yields between requests; _all_ is every event in one loop, as the 2019 article logged. ` +
      'The time per event is unblocked over the events: from the first call until the event loop was free after the last burst, so the turns between bursts, and what the logger did in them (its writes\' callbacks, its timers), count. ' +
      `Each library's multiple is of the fastest library at the same burst size (the estimate its verdict was judged on, with its interval). pino's own ${codeSpan('benchmarks/basic.bench.js')} times 100,000 calls in bursts of 10 with ${codeSpan('setImmediate')} between them: the bursts of 10 here are that benchmark, run by log-bench.`)
    const charts = []
    for (const transport of unique(runs.map((r) => r.transport))) {
      const counts = unique(runs.filter((r) => r.transport === transport).map((r) => r.events)).sort((a, b) => a - b)
      for (const events of counts) {
        const group = runs.filter((r) => r.transport === transport && r.events === events)
        if (!group.some((r) => r.burst != null)) continue
        const part = groupBlocks(group, { transport, events, roundOf, ctx })
        blocks.push(...part.blocks)
        charts.push(...part.charts)
      }
    }
    return { blocks, charts }
  }
}

// "10", "100", "all (100,000)": a burst size as the table and the chart's labels say it.
const burstWords = (burst, events) => (burst == null || burst >= events ? `all (${formatCount(events)})` : formatCount(burst))

function groupBlocks (group, { transport, events, roundOf, ctx }) {
  const libs = unique(group.map(libraryName))
  const bursts = unique(group.map((r) => r.burst ?? null)).sort((a, b) => (a ?? Infinity) - (b ?? Infinity))
  const cellsOf = (burst) => {
    const cells = new Map()
    for (const r of group.filter((x) => (x.burst ?? null) === burst)) {
      const key = cellKey(r)
      if (!cells.has(key)) cells.set(key, [])
      cells.get(key).push(r)
    }
    return [...cells.values()]
  }
  const measure = measureNamed('run', 'unblockedMs')
  // Per burst size: each library's median ns per event and its multiple of the fastest there.
  const figures = new Map()
  for (const burst of bursts) {
    const cells = cellsOf(burst).map((cellRuns) => {
      const values = cellRuns.map(nsPerEvent).filter((v) => v != null)
      return { lib: libraryName(cellRuns[0]), runs: cellRuns, ns: values.length ? median(values) : null }
    })
    const ranked = cells.filter((c) => !BASELINES.has(c.runs[0].lib) && c.ns != null).sort((a, b) => a.ns - b.ns)
    const fastest = ranked[0] ?? null
    for (const c of cells) {
      const compared = fastest && c !== fastest && !BASELINES.has(c.runs[0].lib)
      const versus = compared ? judge(fastest.runs, c.runs, measure, { roundOf }) : null
      figures.set(`${c.lib}\u0000${burst}`, { ...c, fastest, versus })
    }
  }
  const cellText = (lib, burst) => {
    const f = figures.get(`${lib}\u0000${burst}`)
    if (!f || f.ns == null) return '—'
    const ns = `${formatNumber(f.ns, f.ns < 100 ? 1 : 0)} ns`
    if (f.lib === f.fastest?.lib) return `${ns}, fastest`
    if (!f.versus) return ns
    return `${ns}, ${formatRatio(f.versus.ratio)}${ratioInterval(f.versus)} ${verdictWord(f.versus.verdict)} (${basisWords(f.versus)})`
  }
  const blocks = [{ heading: `${transportTitle(transport)}, ${formatCount(events)} events per worker`, level: 3 }]
  blocks.push({
    columns: figureColumns(['Library', ...bursts.map((b) => `burst ${burstWords(b, events)}: ns per event, × the fastest`)]),
    rows: libs.map((lib) => [lib, ...bursts.map((b) => cellText(lib, b))])
  })
  const chart = { file: chartFile(transport, `per-event-by-burst-${events}`), ...burstChart(transport, events, libs, bursts, figures, ctx.conditions) }
  blocks.push(ctx.image(chart.file, `${transportTitle(transport)}, ${formatCount(events)} events: time per event against the burst size, per library`))
  return { blocks, charts: [chart] }
}

// Time per event against the burst size: a line per library, both axes logarithmic; "all" sits at
// the events per worker (one burst of every event).
function burstChart (transport, events, libs, bursts, figures, conditions) {
  const colours = palette(libs)
  const datasets = libs.map((lib) => lineSeries(lib, colours.get(lib),
    bursts.map((b) => ({ x: b ?? events, y: figures.get(`${lib}\u0000${b}`)?.ns ?? null })).filter((p) => p.y > 0),
    { pointRadius: 3 })).filter((d) => d.data.length)
  return lineChart({
    width: 1100,
    height: 640,
    title: `${transportTitle(transport)}, ${formatCount(events)} events: time per event against the burst size`,
    notes: ['median over the runs · lower is better · the last point is every event in one loop', conditions],
    datasets,
    scales: {
      x: logAxis('burst size (events per turn of the event loop)'),
      y: logAxis('time per event (ns), until the loop is free')
    }
  })
}
