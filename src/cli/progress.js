// Progress on stderr. On a terminal: one line redrawn in place every 0.5 s, with a bar, the current
// cell and run, what has arrived at the receiving end so far and its rate, the workers' memory,
// elapsed time and an estimate of the time left. Elsewhere (CI logs, a file): one plain line per
// finished run, and for a run longer than LOG_EVERY_MS a line about it every LOG_EVERY_MS, from a
// timer: counted runs and http runs report no live figures, and would otherwise print nothing for minutes.
import { visibleControls } from '../escape.js'
import { truncateToWidth } from '../draw/width.js'

const BAR_WIDTH = 20
const LOG_EVERY_MS = 30_000
// A run is stalled when nothing has arrived for STALL_QUIET_MS while the workers' memory grew
// (by STALL_GROWTH over that stretch, and still over the last RATE_WINDOW_MS): a logger queueing
// what it cannot send, e.g. winston-syslog over UDP at 1,000,000 events.
export const STALL_QUIET_MS = 30_000
const STALL_GROWTH = 1.05
const RATE_WINDOW_MS = 10_000

export function createProgress ({ stream = process.stderr, quiet = false, logEveryMs = LOG_EVERY_MS } = {}) {
  const tty = Boolean(stream.isTTY)
  let total = 0
  let finished = 0
  // Only runs that really ran count towards the estimate: skipped and unsupported ones take no time.
  let measured = 0
  let measuredMs = 0
  let current = null
  let ticker = null
  let began = Date.now()
  const counter = () => `[${String(finished).padStart(String(total).length)}/${total}]`
  const left = () => {
    if (measured === 0 || finished >= total) return ''
    return `, ~${duration((measuredMs / measured) * (total - finished))} left`
  }
  const draw = () => {
    if (!current) return
    const filled = total ? Math.round((finished / total) * BAR_WIDTH) : 0
    const bar = '#'.repeat(filled) + '-'.repeat(BAR_WIDTH - filled)
    const figures = current.watch ? describeLive(current.watch) : ''
    const line = `[${bar}] ${finished + 1}/${total} ${current.label} run ${current.run}/${current.runs} ${duration(Date.now() - current.since)}${figures ? `: ${figures}` : ''} (elapsed ${duration(Date.now() - began)}${left()})`
    stream.write(`\r\x1b[2K${truncateToWidth(visibleControls(line), (stream.columns || 160) - 1)}`)
  }
  const logLine = () => {
    if (!current) return
    const figures = current.watch ? describeLive(current.watch) : ''
    stream.write(`${visibleControls(`${counter()} ${current.label} run ${current.run}: ${duration(Date.now() - current.since)} so far${figures ? `, ${figures}` : ''}`)}\n`)
  }
  const clear = () => { if (tty) stream.write('\r\x1b[2K') }
  const print = (text) => {
    clear()
    stream.write(`${visibleControls(text)}\n`)
  }
  return {
    begin (count) {
      total = count
      began = Date.now()
    },
    runStart ({ label, run, runs }) {
      if (quiet) return
      current = { label, run, runs, since: Date.now(), watch: null }
      if (tty) {
        draw()
        ticker ??= setInterval(draw, 500)
      } else {
        clearInterval(ticker)
        ticker = setInterval(logLine, logEveryMs)
      }
      ticker.unref()
    },
    // Figures of the running run, about every 0.5 s: { elapsedMs, arrived, bytes, rssBytes }.
    live (figures) {
      if (quiet || !current) return
      current.watch = observe(current.watch, figures)
    },
    runEnd (label, run, detail, { tookMs = null } = {}) {
      finished++
      measured++
      measuredMs += tookMs ?? (current ? Date.now() - current.since : 0)
      current = null
      if (!tty) {
        clearInterval(ticker)
        ticker = null
      }
      if (!quiet) print(`${counter()} ${label} run ${run}: ${detail}`)
    },
    // planned: false for runs that were never among those to do (an unsupported cell's): said
    // without a number, so the count runs over the runs that run.
    skip (label, runs, reason, { planned = true } = {}) {
      if (planned) finished += runs
      if (!quiet) print(`${planned ? `${counter()} ` : ''}${label}: ${reason}`)
    },
    note (text) {
      if (!quiet) print(text)
    },
    end () {
      if (ticker) clearInterval(ticker)
      ticker = null
      if (current) clear()
      current = null
    }
  }
}

// Keeps what the live line needs: the latest figures, a short history for the rate, when the
// arrival figure last moved, and the workers' memory since then (at that moment, and its peak).
export function observe (watch, { elapsedMs, arrived = null, bytes = null, rssBytes = null }) {
  const level = arrived ?? bytes
  const sample = { tMs: elapsedMs, level, rssBytes }
  const history = [...(watch?.history ?? []), sample].filter((s) => s.tMs >= elapsedMs - RATE_WINDOW_MS)
  const moved = !watch || level !== watch.latest.level
  let quietSince = moved ? { tMs: elapsedMs, rssBytes, peakRssBytes: rssBytes, peakAtMs: elapsedMs } : watch.quietSince
  if (!moved && rssBytes != null && rssBytes > (quietSince.peakRssBytes ?? -1)) {
    quietSince = { ...quietSince, peakRssBytes: rssBytes, peakAtMs: elapsedMs }
  }
  return { latest: { elapsedMs, arrived, bytes, rssBytes, level }, history, quietSince }
}

// Nothing has arrived for STALL_QUIET_MS: { quietMs, rssBytes, peakRssBytes, growing }, else null.
// growing: the workers' memory rose by STALL_GROWTH over the quiet stretch and reached a new peak
// within the last STALL_QUIET_MS (a garbage collector's saw-tooth below an old peak is not growth).
export function quietOf (watch) {
  if (!watch || watch.latest.level == null) return null
  const quietMs = watch.latest.elapsedMs - watch.quietSince.tMs
  if (quietMs < STALL_QUIET_MS) return null
  const { rssBytes: atStart, peakRssBytes, peakAtMs } = watch.quietSince
  const growing = atStart != null && peakRssBytes != null &&
    peakRssBytes > atStart * STALL_GROWTH && peakAtMs >= watch.latest.elapsedMs - STALL_QUIET_MS
  return { quietMs, rssBytes: watch.latest.rssBytes, peakRssBytes, growing }
}

// { quietMs, rssBytes } when nothing has arrived for STALL_QUIET_MS and memory keeps growing; else null.
export function stallOf (watch) {
  const quiet = quietOf(watch)
  return quiet?.growing ? { quietMs: quiet.quietMs, rssBytes: quiet.rssBytes } : null
}

export function describeLive (watch) {
  const { latest, history } = watch
  const parts = []
  const oldest = history[0]
  const spanS = oldest ? (latest.elapsedMs - oldest.tMs) / 1000 : 0
  const rate = spanS > 0 && latest.level != null && oldest.level != null ? (latest.level - oldest.level) / spanS : null
  const quiet = quietOf(watch)
  if (latest.arrived != null) {
    parts.push(`${count(latest.arrived)} arrived${rateText(watch, rate, perSecond, quiet)}`)
  } else if (latest.bytes != null) {
    parts.push(`${bytes(latest.bytes)} written${rateText(watch, rate, bytes, quiet)}, arrivals counted after close`)
  }
  if (latest.rssBytes != null) parts.push(`workers ${megabytes(latest.rssBytes)}`)
  if (quiet?.growing) parts.push(`STALLED? no arrivals for ${Math.round(quiet.quietMs / 1000)} s, workers' RSS ${megabytes(quiet.rssBytes)} and growing`)
  else if (quiet) parts.push(`no arrivals for ${Math.round(quiet.quietMs / 1000)} s${quiet.peakRssBytes != null ? ` (workers' RSS peaked at ${megabytes(quiet.peakRssBytes)})` : ''}`)
  return parts.join(', ')
}

// The rate over the last RATE_WINDOW_MS, in words that never say 0/s of a count that moved: a
// trickle (a few events in the window) shows its decimals instead of rounding to 0, and a count
// that has not moved at all in the window says since when, not a rate (the receiving end's figure
// can stand still while its reader catches up, then jump); past STALL_QUIET_MS the quiet part says it.
function rateText (watch, rate, format, quiet) {
  if (rate == null || quiet) return ''
  if (rate <= 0) return ` (none in the last ${Math.round((watch.latest.elapsedMs - watch.quietSince.tMs) / 1000)} s)`
  return ` (${format(rate)}/s)`
}

function perSecond (rate) {
  if (rate >= 9.5) return count(rate)
  return rate < 0.1 ? '<0.1' : rate.toFixed(1)
}

// Bytes written, and their rate: megabytes from 1 MiB, below it kilobytes or bytes (not "0 MB").
function bytes (n) {
  if (n >= 1024 ** 2) return megabytes(n)
  if (n >= 1024) return `${Math.round(n / 1024).toLocaleString('en-US')} KB`
  return `${n > 0 ? Math.max(1, Math.round(n)) : 0} B`
}

const count = (n) => Math.round(n).toLocaleString('en-US')

function megabytes (bytes) {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`
  return `${Math.round(bytes / 1024 ** 2).toLocaleString('en-US')} MB`
}

function duration (ms) {
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${(ms / 1000).toFixed(1)} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`
}
