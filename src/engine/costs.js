// What a run costs besides time, recorded inside each worker from its first log() call until its
// adapter's close() resolved: garbage collections and the bytes they reveal as allocated, the time
// of individual calls, and CPU on the calling thread apart from the process's other threads.
// docs/costs.md states each method; each is declared once in src/engine/worker-measures.js, which
// the worker, the check of its message and the primary's join of the workers' figures read.
import fs from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import v8 from 'node:v8'
import hdr from 'hdr-histogram-js'
import { maxOf } from '../stats.js'

// --- GC and allocation -------------------------------------------------------------------------

// v8.GCProfiler hands back every collection synchronously at stop(), with the heap before and after
// it: no entry can arrive after the results are sent (a PerformanceObserver delivers its entries on
// a later tick, which lost every collection of a run whose close() resolved at once).
// Bytes allocated are the used heap's growth between collections, summed: from the start to the
// first collection, from the end of each collection to the start of the next, and from the last one
// to the end. Each heap space on its own (V8 gives every collection's spaces): concurrent sweeping
// shrinks the old space while the new space fills, and summed over the whole heap that shrink
// cancelled allocation (a fixture that allocates about 1,150 bytes a call read 968 on a busy
// machine); a space that shrank in a stretch counts as nothing allocated there.
export function startGcRecord () {
  const profiler = new v8.GCProfiler()
  const usedAtStart = usedBySpace(v8.getHeapSpaceStatistics())
  profiler.start()
  return {
    stop () {
      const record = profiler.stop()
      const usedAtEnd = usedBySpace(v8.getHeapSpaceStatistics())
      return gcFigures(record?.statistics ?? [], usedAtStart, usedAtEnd)
    }
  }
}

// { space: used bytes } from v8.getHeapSpaceStatistics() (space_name) or a GCProfiler entry's
// heapSpaceStatistics (spaceName).
function usedBySpace (spaces) {
  return Object.fromEntries(spaces.map((s) => [s.spaceName ?? s.space_name, s.spaceUsedSize ?? s.space_used_size]))
}

// usedAtStart, usedAtEnd: the used heap, per space ({ space: bytes }, compared with each
// collection's spaces) or whole (bytes, compared with each collection's used heap).
export function gcFigures (statistics, usedAtStart, usedAtEnd) {
  const spacesOf = (gc) => [gc.beforeGC, gc.afterGC].every((side) => Array.isArray(side.heapSpaceStatistics))
  const perSpace = typeof usedAtStart === 'object' && typeof usedAtEnd === 'object' && statistics.every(spacesOf)
  const used = (side) => (perSpace ? usedBySpace(side.heapSpaceStatistics) : side.heapStatistics.usedHeapSize)
  const whole = (v) => (typeof v === 'object' ? Object.values(v).reduce((a, b) => a + b, 0) : v)
  const growth = (from, to) => {
    if (!perSpace) return Math.max(0, whole(to) - whole(from))
    let sum = 0
    for (const [space, bytes] of Object.entries(to)) sum += Math.max(0, bytes - (from[space] ?? 0))
    return sum
  }
  let allocBytes = 0
  let pauseUs = 0
  let maxPauseUs = 0
  let usedAfter = usedAtStart
  for (const gc of statistics) {
    allocBytes += growth(usedAfter, used(gc.beforeGC))
    usedAfter = used(gc.afterGC)
    pauseUs += gc.cost
    if (gc.cost > maxPauseUs) maxPauseUs = gc.cost
  }
  allocBytes += growth(usedAfter, usedAtEnd)
  return { gcCount: statistics.length, gcPauseMs: pauseUs / 1000, gcMaxPauseMs: maxPauseUs / 1000, allocBytes }
}

// --- Per-call latency --------------------------------------------------------------------------

// Values in ns from 1 to an hour, 3 significant digits (HdrHistogram's usual precision).
const HISTOGRAM = {
  lowestDiscernibleValue: 1,
  highestTrackableValue: 3_600_000_000_000,
  numberOfSignificantValueDigits: 3
}
export const newHistogram = () => hdr.build(HISTOGRAM)

// What reading the clock twice costs by itself: the median of back-to-back process.hrtime.bigint()
// pairs, taken in the worker just before it logs. Subtracted from every timed call, so that a call
// that does nothing reads about 0 rather than the timer's own time.
export function timerFloorNs (pairs = 20_000) {
  const deltas = new Float64Array(pairs)
  for (let i = 0; i < pairs; i++) {
    const t0 = process.hrtime.bigint()
    deltas[i] = Number(process.hrtime.bigint() - t0)
  }
  deltas.sort()
  return deltas[pairs >> 1]
}

// The percentiles a chart draws (HdrHistogram's percentile distribution, on a log axis of 1/(1-p)).
export const CHART_PERCENTILES = [0, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100]

export const encodeHistogram = (histogram) => hdr.encodeIntoCompressedBase64(histogram)

export function latencyFigures (histogram, { sampleEvery, timerFloorNs }) {
  if (histogram.totalCount === 0) return null
  const at = (p) => histogram.getValueAtPercentile(p)
  return {
    p50: at(50),
    p99: at(99),
    p999: at(99.9),
    max: histogram.maxValue,
    mean: histogram.mean,
    timed: histogram.totalCount,
    sampleEvery,
    timerFloorNs,
    histogram: CHART_PERCENTILES.map((p) => [p, p === 100 ? histogram.maxValue : at(p)])
  }
}

// Response time in paced runs: every call, from its intended time to its return (src/run/worker.js).
// The percentiles log4j2's latency pages give, up to 99.99%; no timer floor is taken off, since one
// clock read (the call's return) is set against a time computed, not read.
export function responseFigures (histogram) {
  if (histogram.totalCount === 0) return null
  const at = (p) => histogram.getValueAtPercentile(p)
  return {
    p50: at(50),
    p90: at(90),
    p99: at(99),
    p999: at(99.9),
    p9999: at(99.99),
    max: histogram.maxValue,
    mean: histogram.mean,
    count: histogram.totalCount,
    histogram: CHART_PERCENTILES.map((p) => [p, p === 100 ? histogram.maxValue : at(p)])
  }
}

// A paced run's warm-up (src/engine/pacing.js), apart from the steady state: how long it lasted (the
// slowest worker's, from its first call to its last warm-up call's return), how many calls it held,
// their response time's p99 and maximum. null where the run was too short for one.
export function warmupFigures (warmups) {
  const histogram = mergedHistogram(warmups.map((w) => w.encoded))
  if (histogram.totalCount === 0) return null
  const durations = warmups.map((w) => w.durationNs)
  return {
    durationMs: durations.every((ns) => ns != null) ? maxOf(durations) / 1e6 : null,
    count: histogram.totalCount,
    p99: histogram.getValueAtPercentile(99),
    max: histogram.maxValue
  }
}

// Merges the workers' histograms (compressed, as sent) into one.
export function mergedHistogram (encoded) {
  const merged = newHistogram()
  for (const one of encoded) merged.add(hdr.decodeFromCompressedBase64(one))
  return merged
}

// --- CPU per thread ----------------------------------------------------------------------------

// The calling thread's CPU time in ns: the first field of its schedstat (the scheduler's own sum of
// time on a CPU), else user + system ticks from its stat. null where /proc has neither.
const MAIN_TASK = `/proc/self/task/${process.pid}`
const TICKS_PER_SECOND = 100 // USER_HZ, fixed at 100 on Linux
export function mainThreadCpuNs () {
  try {
    return Number(fs.readFileSync(`${MAIN_TASK}/schedstat`, 'latin1').split(' ')[0])
  } catch {}
  try {
    const stat = fs.readFileSync(`${MAIN_TASK}/stat`, 'latin1')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e9
  } catch {
    return null
  }
}

// The process's CPU (every thread, also those that ended: getrusage) and the calling thread's.
// The other threads' share is the difference: libuv's pool, V8's helpers, a transport's worker thread.
export function startCpuRecord () {
  const processBefore = process.cpuUsage()
  const mainBefore = mainThreadCpuNs()
  return {
    stop () {
      const used = process.cpuUsage(processBefore)
      const mainAfter = mainThreadCpuNs()
      const processMs = (used.user + used.system) / 1000
      if (mainBefore == null || mainAfter == null) {
        return {
          cpuUserMs: used.user / 1000,
          cpuSystemMs: used.system / 1000,
          cpuMainThreadMs: null,
          cpuOtherThreadsMs: null
        }
      }
      const mainMs = (mainAfter - mainBefore) / 1e6
      return {
        cpuUserMs: used.user / 1000,
        cpuSystemMs: used.system / 1000,
        cpuMainThreadMs: mainMs,
        cpuOtherThreadsMs: Math.max(0, processMs - mainMs)
      }
    }
  }
}

// --- Syscalls and bytes written ------------------------------------------------------------------

// The process's read and write syscalls and the bytes it wrote (every thread: /proc/self/io's syscr,
// syscw, wchar), between the first call and close. What a logger hands the kernel is cost the
// instruction count does not see. Reading the file is itself two or three read syscalls, the same
// in every run. null where /proc is not there (not Linux).
export function startIoRecord () {
  const before = readProcIo()
  return {
    stop () {
      const after = readProcIo()
      if (!before || !after) return null
      return { syscr: after.syscr - before.syscr, syscw: after.syscw - before.syscw, wchar: after.wchar - before.wchar }
    }
  }
}

export function readProcIo (pid = 'self') {
  let text
  try {
    text = fs.readFileSync(`/proc/${pid}/io`, 'utf8')
  } catch {
    return null
  }
  const field = (name) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1])
  const io = { syscr: field('syscr'), syscw: field('syscw'), wchar: field('wchar') }
  return Object.values(io).every(Number.isSafeInteger) ? io : null
}

// --- Event-loop delay ---------------------------------------------------------------------------

// monitorEventLoopDelay records the interval between the firings of a timer of this resolution: the
// delay is what exceeds the resolution. Used under --rate and in the http server.
const LOOP_DELAY_RESOLUTION_MS = 10
export function startLoopDelay () {
  const monitor = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS })
  monitor.enable()
  return {
    stop () {
      monitor.disable()
      if (monitor.count === 0) return null
      const delay = (ns) => Math.max(0, ns - LOOP_DELAY_RESOLUTION_MS * 1e6)
      return {
        p50: delay(monitor.percentile(50)),
        p99: delay(monitor.percentile(99)),
        max: delay(monitor.max),
        samples: monitor.count
      }
    }
  }
}

// Of several processes' delays, the one whose event loop waited longest (by p99) speaks for the run;
// null unless every process reported one.
export function worstLoopDelay (delays) {
  if (delays.length === 0 || delays.some((d) => d == null)) return null
  return delays.reduce((worst, d) => (d.p99 > worst.p99 ? d : worst))
}

// --- Memory held ---------------------------------------------------------------------------------

// From the first call on, the heap's peak and what the process's memory was then: how much a logger
// held while its destination could not keep up (src/results/judge/overload.js). The heap is read where the
// worker reads it (its 100 ms samples: heap(), and sampleHeap() once more at the end); during the
// synchronous loop that is at the loop's end. The rise of the RSS's peak is the kernel's own
// high-water mark: a rise only where it passed the peak reached before the start.
export function startMemoryRecord (sampleHeap) {
  const { heapUsed, rss } = process.memoryUsage()
  const atStart = { heapBytes: heapUsed, rssBytes: rss, maxRssBytes: process.resourceUsage().maxRSS * 1024 }
  let heapPeak = heapUsed
  return {
    heap (heapBytes) {
      if (heapBytes > heapPeak) heapPeak = heapBytes
    },
    stop () {
      sampleHeap()
      const maxRssBytes = process.resourceUsage().maxRSS * 1024
      return {
        heapRiseBytes: Math.max(0, heapPeak - atStart.heapBytes),
        rssRiseBytes: maxRssBytes > atStart.maxRssBytes ? maxRssBytes - atStart.rssBytes : 0
      }
    }
  }
}
