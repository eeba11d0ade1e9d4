import { cellKey, comparisonGroupKey, cellWords, dimensionValue, ofType } from '../results/model.js'
import { maxOf, median, minOf } from '../stats.js'
import { formatBytes, formatCount, formatNumber, formatPct, libraryName, listWords as list, unique } from '../draw/labels.js'
import { codeSpan } from '../draw/table.js'
import { escapeMarkdown } from '../results/judge/anomalies.js'
import { findings, receiverDrops } from './summary.js'
import { startEnvs } from '../results/env.js'
import { transportIs } from '../engine/transports.js'

// What limits what a page can say, said before anything else on it (above its Summary), each
// condition with what follows from it: a results file that was interrupted or not finished, a
// machine already busy when the runs began (load average at or above half its cores), a receiving
// end that dropped events even from the plainest sender. Everything comes from the results; a field
// an older log-bench did not record is said to be not recorded, never guessed.

// From this load average per core at the start, a page says the machine was busy.
export const BUSY_LOAD_PER_CORE = 0.5

export function pageLimits (dataset) {
  return [...incompleteLimits(dataset), ...loadLimits(dataset), ...receiverLimits(dataset)]
}

// The conditions as one block for the top of the page: a quoted list, or nothing.
export function limitsBlock (limits) {
  if (!limits.length) return []
  return [`> **Read this first.** What limits what this page can say:\n>\n${limits.map((l) => `> - **${l.label}:** ${l.text}`).join('\n')}`]
}

// An interrupted or unfinished file: how far it got, then what follows: comparisons that cannot pair
// without every round, and the first places its runs leave undecided.
function incompleteLimits (dataset) {
  const incomplete = (dataset.envs ?? []).filter((e) => !e.complete)
  if (!incomplete.length) return []
  const found = dataset.runs.some((r) => dimensionValue(r, 'type') === 'run' || dimensionValue(r, 'type') === 'http') ? findings(dataset) : { groups: [] }
  const comparisons = found.groups.flatMap((g) => g.ranked.map((c) => c.comparison).filter(Boolean))
  const unpaired = comparisons.filter((c) => !c.paired).length
  const open = found.groups.filter((g) => g.undecided || g.firsts.length > 1)
  const follows = []
  if (comparisons.length && unpaired === comparisons.length) follows.push('no comparison pairs its runs by round (each is judged unpaired, which needs larger differences to decide)')
  else if (unpaired) follows.push(`${unpaired} of ${comparisons.length} comparisons are judged unpaired`)
  if (open.length) follows.push(`${open.length} of ${found.groups.length} first places are not decided (${open.map((g) => g.label).join('; ')})`)
  const what = `${incomplete.map((e) => codeSpan(e.file)).join(', ')} ${incomplete.length > 1 ? 'were' : 'was'} ${incomplete.some((e) => e.interrupted) ? 'interrupted' : 'not finished'}; ${reachedWords(dataset.runs)}.`
  return [{ label: 'Incomplete', text: `${what}${follows.length ? ` So ${follows.join(', and ')}.` : ''}` }]
}

// The load average when each command began, and the load while it ran (env.loadSamples:
// [[secondsSinceStart, load1]]), where either was at or above half the machine's cores: a start
// that looked idle does not hide runs that were not. The busy shards of one merged file are one
// line, naming the shards that began within a minute of another's end (their start is its load).
function loadLimits (dataset) {
  const starts = startEnvs(dataset.envs ?? [])
  const busy = []
  for (const start of starts) {
    const { env } = start
    const load = env?.loadAverage?.[0]
    if (!(env?.cpuCount > 0)) continue
    const half = BUSY_LOAD_PER_CORE * env.cpuCount
    const samples = loadSamplesOf(env)
    const busyStart = typeof load === 'number' && load >= half
    const busyDuring = samples.length > 0 && median(samples) >= half
    if (busyStart || busyDuring) busy.push({ ...start, load, samples, busyStart, busyDuring })
  }
  const lines = []
  for (const entry of busy) {
    const same = entry.shard != null ? lines.find((l) => l[0].shard != null && l[0].file === entry.file) : null
    if (same) same.push(entry)
    else lines.push([entry])
  }
  const SO = 'So times may be slower and more spread than on an idle machine, and a difference needs more runs to be decided.'
  return lines.map((entries) => {
    if (entries.length > 1) return { label: 'Busy machine', text: `${shardsLoadWords(entries, starts)} ${SO}` }
    const [{ file, shard, env, load, samples, busyStart, busyDuring }] = entries
    const whose = shard != null ? `${codeSpan(file)}, shard ${escapeMarkdown(shard)}${env.cpuModel ? ` (${escapeMarkdown(env.cpuModel)})` : ''}: its runs` : starts.length > 1 ? `${codeSpan(file)}: its runs` : 'The runs'
    const began = typeof load === 'number' ? `began at load average ${formatNumber(load, 2)} on ${env.cpuCount} cores${busyStart ? ', at or above half of them' : ''}` : 'began at a load not recorded'
    const during = samples.length
      ? `${busyDuring ? 'while they ran the load stayed at or above half the cores' : 'while they ran it was'}: median ${formatNumber(median(samples), 2)}, maximum ${formatNumber(maxOf(samples), 2)} (${samples.length} samples of the 1-minute load average; the runs' own processes count in it)`
      : 'the load while they ran was not recorded'
    return { label: 'Busy machine', text: `${whose} ${began}; ${during}. ${SO}` }
  })
}

// Within this many seconds of another shard's end, a shard's start load is that shard's.
const FOLLOWED_WITHIN_S = 60

// The busy shards of one merged file in one sentence: each one's load at its start and during its
// runs, and which began right after another shard ended.
function shardsLoadWords (entries, starts) {
  const { file, env } = entries[0]
  const names = entries.map((e) => escapeMarkdown(e.shard))
  const cpus = unique(entries.map((e) => e.env.cpuModel).filter(Boolean))
  const machine = cpus.length === 1 ? ` (${escapeMarkdown(cpus[0])}, ${env.cpuCount} cores)` : ''
  const at = (v) => (typeof v === 'number' ? formatNumber(v, 2) : 'not recorded')
  const began = `began at load average ${list(entries.map((e) => at(e.load)))}`
  const ends = starts.filter((s) => s.file === file && s.shard != null)
    .map((s) => ({ shard: s.shard, end: Date.parse(s.env?.finishedAt ?? '') }))
  const followed = entries.filter((e) => {
    const begun = Date.parse(e.env.time ?? '')
    const justAfter = (o) => o.shard !== e.shard && Number.isFinite(o.end) &&
      begun >= o.end && begun - o.end <= FOLLOWED_WITHIN_S * 1000
    return Number.isFinite(begun) && ends.some(justAfter)
  }).map((e) => escapeMarkdown(e.shard))
  const after = followed.length ? ` (${list(followed)} within a minute of another shard's end, so at the load it left)` : ''
  const sampled = entries.filter((e) => e.samples.length)
  const all = sampled.flatMap((e) => e.samples)
  const during = sampled.length
    ? `while they ran, median ${list(entries.map((e) => (e.samples.length ? formatNumber(median(e.samples), 2) : 'not recorded')))} by shard, maximum ${formatNumber(maxOf(all), 2)} (${all.length} samples of the 1-minute load average; the runs' own processes count in it)`
    : 'the load while they ran was not recorded'
  return `${codeSpan(file)}, shards ${list(names)}${machine}, each at or above half the cores when it began or while it ran: their runs ${began}${after}; ${during}.`
}

// The 1-minute load averages sampled while a command ran, [] where it recorded none.
export function loadSamplesOf (env) {
  return Array.isArray(env?.loadSamples) ? env.loadSamples.map((s) => s?.[1]).filter((v) => typeof v === 'number') : []
}

// A comparison where the receiving end dropped events from `raw`, the plainest fast sender, or from
// every library: its losses measure each sender's pace against that receiver as much as the library.
// Where the loss happened (the receiving socket's own drop counter), the buffer the kernel granted
// that socket, and each cell's pace (events sent per second until done) are said where recorded.
function receiverLimits (dataset) {
  // A receiver over the network, under close() at full speed: a loss under another ending, or behind
  // a reader slowed on purpose, is that page's finding, not a limit of the receiver.
  const runs = ofType(dataset.runs, 'run').filter((r) => r.ok && r.received != null && r.status !== 'unsupported' &&
    transportIs(r.transport, 'reaches', 'socket') && (dimensionValue(r, 'ending') ?? 'close') === 'close' &&
    r.receiverRate == null && r.receiverStallMs == null)
  const groups = new Map()
  for (const run of runs) {
    const key = String(comparisonGroupKey(run))
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key).push(run)
  }
  const out = []
  for (const group of groups.values()) {
    const cells = new Map()
    for (const run of group) {
      if (!cells.has(cellKey(run))) cells.set(cellKey(run), [])
      cells.get(cellKey(run)).push(run)
    }
    const all = [...cells.values()]
    const libs = all.filter((list) => !['raw', 'noop'].includes(list[0].lib))
    const raw = all.find((list) => list[0].lib === 'raw')
    const rawLost = raw && lossOf(raw) > 0
    // Every library losing is the receiver's doing only where its drop counter holds their losses
    // (OpenTelemetry's SDK drops before sending: that is the library's finding).
    const atReceiver = (list) => list.every((r) => receiverDrops(r) != null) &&
      list.reduce((n, r) => n + receiverDrops(r), 0) >= list.reduce((n, r) => n + lostOf(r), 0)
    const everyLib = libs.length > 1 && libs.every((list) => lossOf(list) > 0 && atReceiver(list))
    if (!rawLost && !everyLib) continue
    const label = cellWords(group[0], ['transport', 'cpus', ...(dataset.runs.some((r) => r.events !== group[0].events) ? ['events'] : [])])
    const who = rawLost ? `even from raw, the plainest sender (${lossWords(raw)})` : 'from every library'
    const drops = group.map(receiverDrops)
    const where = drops.every((d) => d != null)
      ? drops.reduce((n, d) => n + d, 0) >= group.reduce((n, r) => n + Math.max(0, expectedOf(r) - r.received), 0)
        ? 'every lost event was dropped at the receiving socket, on the same machine as the senders'
        : 'part of the loss was dropped at the receiving socket, the rest before it'
      : 'where the events were lost was not recorded for every run'
    const buffers = unique(group.map((r) => r.receiveBufferBytes).filter((v) => typeof v === 'number'))
    const buffer = buffers.length
      ? `the kernel granted that socket ${buffers.map(formatBytes).join(' to ')} of receive buffer`
      : 'the receive buffer the kernel granted that socket was not recorded'
    const whole = libs.filter((list) => lossOf(list) === 0)
    const pace = (list) => `${escapeMarkdown(libraryName(list[0]))} ${formatCount(median(list.map((r) => r.eventsPerSec).filter((v) => v > 0)))}`
    const paces = all.filter((list) => list.some((r) => r.eventsPerSec > 0)).sort((a, b) => lossOf(a) - lossOf(b))
    const wholeWords = whole.length
      ? ` ${whole.map((list) => escapeMarkdown(libraryName(list[0]))).join(', ')} lost none, at ${whole.length > 1 ? 'their' : 'its'} own pace: where a receiver drops, what arrives depends on how fast each sender feeds it, so "delivered every event" is about pace against this receiver as much as about the library.`
      : ''
    out.push({
      label: 'Receiver dropped events',
      text: `${escapeMarkdown(label)}: the receiving end lost events ${who}; ${where}, and ${buffer}.${wholeWords} Events sent per second until done (medians): ${paces.map(pace).join(', ')}.`
    })
  }
  return out
}

const expectedOf = (r) => r.expected ?? r.sent
const lostOf = (r) => Math.max(0, expectedOf(r) - r.received)
// The share of events a cell's runs lost, pooled over its runs.
const lossOf = (list) => list.reduce((n, r) => n + lostOf(r), 0) / list.reduce((n, r) => n + expectedOf(r), 0)

// "1.26% pooled, 0.10%–5.70% by run"
function lossWords (list) {
  const shares = list.map((r) => Math.max(0, expectedOf(r) - r.received) / expectedOf(r))
  const pooled = lossOf(list)
  return list.length > 1 ? `${formatPct(pooled)} pooled, ${formatPct(minOf(shares))}–${formatPct(maxOf(shares))} by run` : formatPct(pooled)
}

// What an unfinished results file holds: where every cell has the same number of runs (stopped
// between rounds), that number; otherwise that the cells it did not reach are missing. The run cut
// short by the stop is not among the runs: loadDocuments leaves it out.
function reachedWords (runs) {
  const perCell = new Map()
  const aside = new Set()
  for (const r of runs) {
    // A cell skipped after a time-out or unsupported has its records for every run already.
    if (r.status === 'skipped' || r.status === 'unsupported') aside.add(cellKey(r))
    perCell.set(cellKey(r), (perCell.get(cellKey(r)) ?? 0) + 1)
  }
  const counts = unique([...perCell].filter(([key]) => !aside.has(key)).map(([, n]) => n))
  const asideWords = aside.size ? ', cells skipped after a time-out or unsupported aside' : ''
  return counts.length === 1
    ? `every cell has its first ${counts[0]} run${counts[0] === 1 ? '' : 's'}${asideWords} (the run under way when it stopped measured nothing and is left out)`
    : 'cells it did not reach are missing'
}
