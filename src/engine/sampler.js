import fs from 'node:fs'
import { execFileSync } from 'node:child_process'
import { boundedSeries } from './bounded-series.js'

// Samples CPU and RSS of the worker processes from /proc every 100 ms. Reading from outside is the
// only way to see a worker whose event loop is blocked by the logging loop.
let systemConf = null
function conf () {
  if (systemConf) return systemConf
  const read = (name, fallback) => {
    try { return Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim()) || fallback } catch { return fallback }
  }
  systemConf = { ticksPerSecond: read('CLK_TCK', 100), pageBytes: read('PAGESIZE', 4096) }
  return systemConf
}

function readStat (pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'latin1')
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    // fields[0] is field 3 (state): utime is field 14, stime 15, rss 24.
    return { ticks: Number(fields[11]) + Number(fields[12]), rssPages: Number(fields[21]) }
  } catch {
    return null
  }
}

// The points a run's timeseries keeps at most (the results schema's maxItems): 16 min 40 s at 100 ms,
// then thinned (boundedSeries).
export const TIMESERIES_POINTS = 10_000

export function startSampler ({ pids, startNs, heapOf, intervalMs = 100, maxPoints = TIMESERIES_POINTS }) {
  const { ticksPerSecond, pageBytes } = conf()
  const { series, push } = boundedSeries(maxPoints)
  const lastTicks = new Map(pids.map((pid) => [pid, readStat(pid)?.ticks ?? 0]))
  let lastNs = process.hrtime.bigint()
  let peakRssBytes = 0
  // The primary's own resident memory, to show it does not grow with the number of events.
  let primaryPeakRssBytes = process.memoryUsage.rss()
  const timer = setInterval(() => {
    primaryPeakRssBytes = Math.max(primaryPeakRssBytes, process.memoryUsage.rss())
    const nowNs = process.hrtime.bigint()
    const seconds = Number(nowNs - lastNs) / 1e9
    let ticks = 0
    let rssBytes = 0
    for (const pid of pids) {
      const stat = readStat(pid)
      if (!stat) continue
      ticks += stat.ticks - (lastTicks.get(pid) ?? stat.ticks)
      lastTicks.set(pid, stat.ticks)
      rssBytes += stat.rssPages * pageBytes
    }
    lastNs = nowNs
    if (rssBytes > peakRssBytes) peakRssBytes = rssBytes
    push({
      tMs: Math.round(Number(nowNs - startNs) / 1e6),
      cpuPct: seconds > 0 ? Math.round((ticks / ticksPerSecond / seconds) * 1000) / 10 : 0,
      rssBytes,
      heapBytes: heapOf()
    })
  }, intervalMs)
  return {
    latestRssBytes: () => series.at(-1)?.rssBytes ?? null,
    stop () {
      clearInterval(timer)
      return { series, peakRssBytes, primaryPeakRssBytes: Math.max(primaryPeakRssBytes, process.memoryUsage.rss()) }
    }
  }
}
