import { maxOf } from '../stats.js'
// What a logger did when its receiving end could not keep up (--receiver-stall, --receiver-rate),
// named from the run's own measurements: `blocks` (the calls waited), `drops` (events lost), `grows`
// (memory rose), or a combination; none of them where the logger coped (the reader's buffer took
// what came). The thresholds are here, once, and docs/costs.md (Overload) gives their reasons.

// blocks under a stall: the calling thread made no progress for at least this share of the stall.
export const BLOCKED_SHARE_OF_STALL = 0.25
// blocks under a slow reader: the calling thread's logging lasted at least this share of the time
// the reader needs for the bytes that arrived at its rate.
export const BLOCKED_SHARE_OF_READING = 0.5
// grows: the workers' heap peak (sampled every 100 ms while the event loop is free, and at the end
// of the loop) or their RSS peak (the kernel's high-water mark) rose by at least this much above
// what it was at the first call, summed over workers. A logger that holds nothing still fills V8's
// young generation with garbage (up to 16 MiB of semi-space on 64-bit Node 20, so heapUsed swings by
// that much), and the RSS follows; twice that is held, not churned.
export const GROWTH_MIN_BYTES = 32 * 1024 * 1024
// drops: at least one event that never arrived, counted event by event by the verifier.
export const LOST_MIN_EVENTS = 1

const MIB = 1024 * 1024

// record: the run's record so far (sent, received, unblockedMs, loggingMs, rate, stdoutBytes, cpus);
// slowed: { receiverStallMs, receiverRate }; callStamps: per worker, the sampled calls' times in ns
// (tight loop: when each was called); longestHeldMs: per worker, the longest batch of a paced run;
// memory: per worker, { heapRiseBytes, rssRiseBytes } (src/run/worker.js). null where nothing was
// slowed.
export function judgeOverload (record, slowed, { callStamps, longestHeldMs, memory }) {
  const { receiverStallMs = null, receiverRate = null } = slowed
  if (!receiverStallMs && !receiverRate) return null
  const blockedMs = record.rate
    ? (longestHeldMs.length ? maxOf(longestHeldMs) : null)
    : longestGapMs(callStamps)
  const readingMs = receiverRate && record.stdoutBytes != null
    ? (record.stdoutBytes / record.cpus / receiverRate) * 1000
    : null
  const lostEvents = record.received == null ? null : Math.max(0, record.sent - record.received)
  const growth = memoryGrowth(memory)
  // A logger that does not wait grows while it is called: per second of its calls (paced, of the
  // logging time), which is how fast a service's memory would go while its destination is down.
  const callingMs = record.rate ? record.loggingMs : record.unblockedMs
  const blocks = receiverStallMs
    ? blockedMs != null && blockedMs >= BLOCKED_SHARE_OF_STALL * receiverStallMs
    : readingMs != null && record.unblockedMs != null && record.unblockedMs >= BLOCKED_SHARE_OF_READING * readingMs
  const grows = growth.bytes != null && growth.bytes >= GROWTH_MIN_BYTES
  const kinds = [
    blocks && 'blocks',
    lostEvents != null && lostEvents >= LOST_MIN_EVENTS && 'drops',
    grows && 'grows'
  ].filter(Boolean)
  return {
    kinds,
    blockedMs,
    readingMs,
    lostEvents,
    growthBytes: growth.bytes,
    growthMiBPerSec: grows && callingMs > 0 ? growth.bytes / MIB / (callingMs / 1000) : null,
    growthOf: growth.of
  }
}

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

// The larger of the heap's and the RSS's rise, each summed over the workers; null unless every
// worker reported both.
export function memoryGrowth (memory) {
  if (!memory.length || memory.some((m) => m == null)) return { bytes: null, of: null }
  const heap = memory.reduce((sum, m) => sum + m.heapRiseBytes, 0)
  const rss = memory.reduce((sum, m) => sum + m.rssRiseBytes, 0)
  return heap >= rss ? { bytes: heap, of: 'heap' } : { bytes: rss, of: 'rss' }
}
