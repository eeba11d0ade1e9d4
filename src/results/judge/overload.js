// What a logger did when its receiving end could not keep up (--receiver-stall, --receiver-rate),
// named from the run's own measurements: `blocks` (the calls waited), `drops` (events lost), `grows`
// (memory rose), or a combination; `coped` where none of them happened and enough was logged while
// the reader could not keep up to have overflowed the buffers between the logger and the reader
// several times over; otherwise too little was logged to tell. Judged per worker (each has its own
// pipe or connection and its own memory). The run's own judgement is in its record; the page judges
// a cell against its control (the same cell with the reader at full speed, which `run` measures
// beside every slowed cell: src/run/plan.js), judgeAgainstControl. The thresholds are here, once,
// and docs/costs.md (Overload) gives their reasons.
import fs from 'node:fs'
import { transportIs } from '../../engine/transports.js'
import { maxOf } from '../../stats.js'

// blocks under a stall: the calling thread made no progress for at least this share of the stall.
export const BLOCKED_SHARE_OF_STALL = 0.25
// ... and for at least this many times its own longest gap in the control (JIT, GC: a 1 ms stall
// with 12 ms gaps is no wait for the reader).
export const BLOCKED_MULTIPLE_OF_CONTROL_GAP = 2
// blocks under a slow reader: the calling thread's logging lasted at least this share of the time
// the reader needs for the bytes that arrived at its rate, and the reader was slower than the logger
// (the control's logging took less than that reading time).
export const BLOCKED_SHARE_OF_READING = 0.5
// grows: a worker's heap peak (sampled every 100 ms while the event loop is free, and at the end of
// the loop) or its RSS peak (the kernel's high-water mark) rose by at least this much above what it
// was at the first call, more than in the control. A logger that holds nothing still fills V8's
// young generation with garbage (up to 16 MiB of semi-space on 64-bit Node 20, so heapUsed swings by
// that much), and the RSS follows; twice that is held, not churned.
export const GROWTH_MIN_BYTES = 32 * 1024 * 1024
// drops: at least one event that never arrived, counted event by event by the verifier.
export const LOST_MIN_EVENTS = 1
// ... beyond what its control lost: a logger that loses as many read at full speed is said to.
export const LOSES_AS_CONTROL = 'loses as many at full speed'
// coped: a worker logged at least this many times the buffers between it and the reader while the
// reader stalled (under --receiver-rate: over the run), so that a logger that neither waited, lost
// nor held anything had to have sent it on; and at least GROWTH_MIN_BYTES more than the buffers,
// so that a logger that held what they could not take would have read `grows`.
export const COPED_BUFFER_MULTIPLE = 4

// The bytes a worker has to log while the reader stalls for "coped" to be told, given the buffers.
export const copedBarBytes = (bufferBytes) =>
  Math.max(COPED_BUFFER_MULTIPLE * bufferBytes, bufferBytes + GROWTH_MIN_BYTES)

const MIB = 1024 * 1024
// A pipe's capacity where the reader did not report it (Linux's default).
const DEFAULT_PIPE_BYTES = 64 * 1024

// record: the run's record so far (sent, received, unblockedMs, loggingMs, rate, stdoutBytes, cpus,
// events, pipeBytes, transport); slowed: { receiverStallMs, receiverRate }; callStamps: per worker,
// the sampled calls' times in ns (tight loop: when each was called; paced: when each was due);
// longestHeldMs: per worker, the longest batch of a paced run; memory: per worker, { heapRiseBytes,
// rssRiseBytes } (src/run/worker.js); stallEndNs: when the stall ended at the reader (BigInt or
// null); bytesPerEvent: an event's line, on average. null where nothing was slowed.
export function judgeOverload (record, slowed, figures) {
  const { callStamps, longestHeldMs, memory, stallEndNs = null, bytesPerEvent = null } = figures
  const { receiverStallMs = null, receiverRate = null } = slowed
  if (!receiverStallMs && !receiverRate) return null
  const blockedMs = record.rate ? longestOf(longestHeldMs) : longestGapMs(callStamps)
  const readingMs = receiverRate && record.stdoutBytes != null
    ? (record.stdoutBytes / record.cpus / receiverRate) * 1000
    : receiverRate && bytesPerEvent != null ? (record.events * bytesPerEvent / receiverRate) * 1000 : null
  const lostEvents = record.received == null ? null : Math.max(0, record.sent - record.received)
  const growth = memoryGrowth(memory)
  const blocks = receiverStallMs
    ? blockedMs != null && blockedMs >= BLOCKED_SHARE_OF_STALL * receiverStallMs
    : readingMs != null && record.unblockedMs != null && record.unblockedMs >= BLOCKED_SHARE_OF_READING * readingMs
  const grows = growth.bytes != null && growth.bytes >= GROWTH_MIN_BYTES
  const loggedBytes = receiverStallMs
    ? loggedDuringStall(callStamps, { stallEndNs, stallMs: receiverStallMs, events: record.events, bytesPerEvent })
    : bytesPerEvent == null ? null : record.events * bytesPerEvent
  const bufferBytes = buffersBetween(record)
  const kinds = [
    blocks && 'blocks',
    lostEvents != null && lostEvents >= LOST_MIN_EVENTS && 'drops',
    grows && 'grows'
  ].filter(Boolean)
  // A logger that does not wait grows while it is called: per second of the stall (or, under a slow
  // reader, of its calls), how fast a service's memory would go while its destination is down.
  const callingMs = record.rate ? record.loggingMs : record.unblockedMs
  const growthSeconds = (receiverStallMs ?? callingMs) / 1000
  return {
    kinds,
    judged: (receiverStallMs ? blockedMs : readingMs) != null,
    blockedMs,
    readingMs,
    lostEvents,
    growthBytes: growth.bytes,
    growthMiBPerSec: grows && growthSeconds > 0 ? growth.bytes / MIB / growthSeconds : null,
    growthOf: growth.of,
    loggedBytes,
    bufferBytes
  }
}

const longestOf = (values) => (values.length ? maxOf(values) : null)
// A run's events that never arrived; null where they were not counted.
export const lostOf = (run) => (run.received == null || run.sent == null ? null : Math.max(0, run.sent - run.received))

// The longest stretch in which a worker called nothing: the largest gap between consecutive sampled
// calls (every k-th event, k = ceil(events / 1,000)) of any worker, in ms. A call that waits for
// the reader holds the whole loop, so the gap around it is the wait (plus k calls' normal time).
export function longestGapMs (callStamps) {
  let longest = null
  for (const stamps of callStamps) {
    for (let i = 1; i < stamps.length; i++) {
      if (!(stamps[i] > 0 && stamps[i - 1] > 0)) continue
      const gapMs = (stamps[i] - stamps[i - 1]) / 1e6
      if (longest === null || gapMs > longest) longest = gapMs
    }
  }
  return longest
}

// The worker whose memory rose most: its larger rise of heap and RSS. Each worker is a process of
// its own, as a service's instance is: eight workers holding 4.5 MB each hold 4.5 MB each, not 36.
// null unless every worker reported both.
export function memoryGrowth (memory) {
  if (!memory.length || memory.some((m) => m == null)) return { bytes: null, of: null }
  let worst = { bytes: -1, of: null }
  for (const m of memory) {
    const one = m.heapRiseBytes >= m.rssRiseBytes ? { bytes: m.heapRiseBytes, of: 'heap' } : { bytes: m.rssRiseBytes, of: 'rss' }
    if (one.bytes > worst.bytes) worst = one
  }
  return worst
}

// What the worker that logged least logged while the reader stalled, in bytes: its sampled calls in
// the stall's window (each stands for events / samples calls) times an event's bytes. null where
// the stall's end or the samples are unknown.
export function loggedDuringStall (callStamps, { stallEndNs, stallMs, events, bytesPerEvent }) {
  if (stallEndNs == null || bytesPerEvent == null || !callStamps.length) return null
  const endNs = Number(stallEndNs)
  const startNs = endNs - stallMs * 1e6
  let least = null
  for (const stamps of callStamps) {
    if (!stamps?.length) return null
    const inStall = stamps.filter((ns) => ns >= startNs && ns < endNs).length
    const bytes = inStall * (events / stamps.length) * bytesPerEvent
    if (least === null || bytes < least) least = bytes
  }
  return least
}

// The buffers between one worker and its reader, in bytes. On the console: a slowed reader is node's
// stream reader on a Unix socketpair (docs/durability.md), whose writer may queue up to its send
// buffer (net.core.wmem_default); the native reader's pipe holds its capacity. Over TCP the
// kernel's largest send and receive buffers (tcp_wmem's and tcp_rmem's maximum, which autotuning
// may reach). null elsewhere, or where /proc cannot say.
export function buffersBetween ({ transport, pipeBytes = null, consoleReader = null }) {
  if (transportIs(transport, 'reaches', 'stdout')) return consoleReader === 'node' ? procFigure('net/core/wmem_default', 0) : pipeBytes ?? DEFAULT_PIPE_BYTES
  // A slowable socket is a stream (TCP): its kernel buffers on both ends.
  if (transportIs(transport, 'reaches', 'socket') && transportIs(transport, 'slowable')) {
    const send = procFigure('net/ipv4/tcp_wmem', 2)
    const receive = procFigure('net/ipv4/tcp_rmem', 2)
    return send == null || receive == null ? null : send + receive
  }
  return null
}

function procFigure (name, field) {
  try {
    const value = Number(fs.readFileSync(`/proc/sys/${name}`, 'latin1').trim().split(/\s+/)[field])
    return Number.isFinite(value) ? value : null
  } catch {
    return null
  }
}

// A cell's verdict over its runs, against its control (the same cell, read at full speed: its runs'
// callGapMaxMs, unblockedMs and memoryRiseBytes). Each figure is the median over the
// runs; runs: the slowed cell's judged runs (ok, with an overload record). Returns { kinds, words,
// tooLittle, controlled } where words is what the page prints: the kinds joined, "coped", "too
// little logged to tell" or "not judged".
export function judgeAgainstControl (runs, controlRuns, median) {
  const judged = runs.filter((r) => r.ok && r.overload?.judged !== false && r.overload)
  if (!judged.length) return { kinds: [], words: 'not judged', tooLittle: false, controlled: false }
  const first = judged[0]
  const of = (list, pick) => {
    const values = list.map(pick).filter((v) => v != null)
    return values.length ? median(values) : null
  }
  const control = controlRuns.filter((r) => r.ok)
  const controlled = control.length > 0
  const blockedMs = of(judged, (r) => r.overload.blockedMs)
  const controlGapMs = of(control, (r) => r.callGapMaxMs)
  const controlUnblockedMs = of(control, (r) => r.unblockedMs)
  const readingMs = of(judged, (r) => r.overload.readingMs)
  const unblockedMs = of(judged, (r) => r.unblockedMs)
  let blocks
  if (first.receiverStallMs != null) {
    const ownGapsMs = controlGapMs == null ? 0 : BLOCKED_MULTIPLE_OF_CONTROL_GAP * controlGapMs
    const bar = Math.max(BLOCKED_SHARE_OF_STALL * first.receiverStallMs, ownGapsMs)
    blocks = blockedMs != null && blockedMs >= bar
  } else {
    // Under a slow reader: only where the reader was slower than the logger on its own.
    const slowerReader = controlUnblockedMs == null || (readingMs != null && readingMs > controlUnblockedMs)
    const waited = readingMs != null && unblockedMs != null && unblockedMs >= BLOCKED_SHARE_OF_READING * readingMs
    blocks = slowerReader && waited
  }
  const lost = of(judged, (r) => r.overload.lostEvents)
  // Losses the control has too (a logger that loses events at full speed) are not the slowed
  // reader's: drops only beyond them.
  const controlLost = of(control, lostOf)
  const drops = lost != null && lost - (controlLost ?? 0) >= LOST_MIN_EVENTS
  const growth = of(judged, (r) => r.overload.growthBytes)
  const controlGrowth = of(control, (r) => r.memoryRiseBytes)
  const grows = growth != null && growth - (controlGrowth ?? 0) >= GROWTH_MIN_BYTES
  const kinds = [blocks && 'blocks', drops && 'drops', grows && 'grows'].filter(Boolean)
  if (kinds.length) return { kinds, words: kinds.join(' + '), tooLittle: false, controlled }
  // It lost events, but no more than read at full speed: neither coped nor dropped for the reader.
  if (lost != null && lost >= LOST_MIN_EVENTS) return { kinds, words: LOSES_AS_CONTROL, tooLittle: false, controlled }
  const logged = of(judged, (r) => r.overload.loggedBytes)
  const buffers = of(judged, (r) => r.overload.bufferBytes)
  const enough = logged != null && buffers != null && logged >= copedBarBytes(buffers)
  const words = enough ? 'coped' : 'too little logged to tell'
  return { kinds, words, tooLittle: !enough, controlled, loggedBytes: logged, bufferBytes: buffers }
}
