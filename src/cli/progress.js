// Progress on stderr. On a terminal: one line redrawn in place every 0.5 s. What a reader must see
// comes first, so that a line cut at the terminal's edge keeps it: the run's place in the plan and
// its cell (library, transport, …), the time left for the plan (src/runner/estimate.js's clock), the
// time left before the run's --timeout, then, once nothing has arrived for QUIET_LEAD_MS, for how
// long; then what has arrived at the receiving end so far and its rate, the workers' memory, the run
// within its cell and its time, the bar and the elapsed time. A plan estimated past PLAN_NOTE_MS
// says so on a line before its first run. A logger found holding events in memory while nothing
// arrives (see holdingOf) is said once on a line of its own, whole. Elsewhere (CI logs, a file): one
// plain line per finished run, and for a run longer than LOG_EVERY_MS a line about it every
// LOG_EVERY_MS, from a timer: counted runs and http runs report no live figures, and would
// otherwise print nothing for minutes.
import { visibleControls } from '../escape.js'
import { truncateToWidth } from '../draw/width.js'
import { PLAN_NOTE_MS, RULE_WORDS } from '../runner/estimate.js'

const BAR_WIDTH = 20
const LOG_EVERY_MS = 30_000
// A run is stalled when nothing has arrived for STALL_QUIET_MS while the workers' memory grew
// (by STALL_GROWTH over that stretch, and still over the last RATE_WINDOW_MS): a logger queueing
// what it cannot send, e.g. winston-syslog over UDP at 1,000,000 events.
export const STALL_QUIET_MS = 30_000
const STALL_GROWTH = 1.05
const RATE_WINDOW_MS = 10_000
// Nothing arrived for this long leads the line ("nothing has arrived for 12 s").
export const QUIET_LEAD_MS = 10_000
// Past STALL_QUIET_MS without an arrival, workers holding this many times the memory they held at
// the last arrival (or at the first figure, where nothing arrived) hold what they did not send: a
// garbage collector's saw-tooth or a warm-up moves memory by tens of percent, not by a multiple.
export const HOLDING_FACTOR = 2

export function createProgress ({ stream = process.stderr, quiet = false, logEveryMs = LOG_EVERY_MS } = {}) {
  const tty = Boolean(stream.isTTY)
  let total = 0
  let finished = 0
  let clock = null
  let current = null
  let ticker = null
  let began = Date.now()
  const counter = () => `[${String(finished).padStart(String(total).length)}/${total}]`
  const left = () => (clock && finished < total ? `${duration(clock.leftMs())} left` : '')
  // Under a time limit, the time until the limit ends the run; the run's place in its cell and its
  // time come later: a 100-column line keeps the cell, the plan's time left, the limit and a stall.
  const limitLeft = () => {
    if (!(current.timeoutMs > 0)) return ''
    return `limit in ${duration(Math.max(0, current.timeoutMs - (Date.now() - current.since)))}`
  }
  const draw = () => {
    if (!current) return
    const filled = total ? Math.round((finished / total) * BAR_WIDTH) : 0
    const bar = '#'.repeat(filled) + '-'.repeat(BAR_WIDTH - filled)
    const { lead, figures } = current.watch ? liveParts(current.watch) : {}
    const runTime = `run ${current.run}/${current.runs} ${duration(Date.now() - current.since)}`
    const line = [`${finished + 1}/${total} ${current.label}`, left(), limitLeft(), lead, figures, runTime, `[${bar}] elapsed ${duration(Date.now() - began)}`].filter(Boolean).join(' · ')
    stream.write(`\r\x1b[2K${truncateToWidth(visibleControls(line), (stream.columns || 160) - 1)}`)
  }
  const logLine = () => {
    if (!current) return
    const ms = Date.now() - current.since
    const limit = current.timeoutMs > 0 ? `, limit in ${duration(Math.max(0, current.timeoutMs - ms))}` : ''
    const figures = current.watch ? describeLive(current.watch) : ''
    stream.write(`${visibleControls(`${counter()} ${current.label} run ${current.run}: ${duration(ms)} so far${limit}${figures ? `, ${figures}` : ''}`)}\n`)
  }
  const clear = () => { if (tty) stream.write('\r\x1b[2K') }
  const print = (text) => {
    clear()
    stream.write(`${visibleControls(text)}\n`)
  }
  return {
    // clock: the plan's (src/runner/estimate.js createPlanClock), for the time left; a plan longer
    // than PLAN_NOTE_MS is said before its first run.
    begin (count, { clock: planClock = null } = {}) {
      total = count
      clock = planClock
      began = Date.now()
      if (quiet || !clock) return
      const totalMs = clock.totalMs()
      if (totalMs > PLAN_NOTE_MS) print(planWords(count, totalMs, clock.atMost))
    },
    // timeoutMs: the run's time limit (--timeout), counted down on the line; null without one.
    runStart ({ label, run, runs, timeoutMs = null }) {
      if (quiet) return
      current = { label, run, runs, timeoutMs, since: Date.now(), watch: null, heldSaid: false }
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
      const held = holdingOf(current.watch)
      if (held && !current.heldSaid) {
        current.heldSaid = true
        print(`${current.label} run ${current.run}: ${heldWords(held)} (nothing has arrived for ${duration(held.quietMs)} while the workers' memory rose from ${megabytes(held.fromBytes)})`)
        if (tty) draw()
      }
    },
    runEnd (label, run, detail) {
      finished++
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

// "this plan: 24 runs, about 11m10s (…the rule…)": within a factor of two of what it takes.
export function planWords (runs, totalMs, atMost = false) {
  return `this plan: ${runs.toLocaleString('en-US')} runs, ${atMost ? 'at most' : 'about'} ${duration(totalMs)} by log-bench's estimate (${RULE_WORDS}; the line below updates it from the runs measured)`
}

// Keeps what the live line needs: the latest figures, a short history for the rate, when the
// arrival figure last moved, and the workers' memory since then (at that moment, and its peak).
export function observe (watch, { elapsedMs, arrived = null, bytes = null, rssBytes = null }) {
  const level = arrived ?? bytes
  const sample = { tMs: elapsedMs, level, rssBytes }
  const history = [...(watch?.history ?? []), sample].filter((s) => s.tMs >= elapsedMs - RATE_WINDOW_MS)
  const moved = !watch || level !== watch.latest.level
  let quietSince = moved ? { tMs: elapsedMs, rssBytes, peakRssBytes: rssBytes, peakAtMs: elapsedMs } : watch.quietSince
  // The workers' memory is sampled apart from the arrivals: where the stretch began before the first
  // memory figure, its first figure is where the stretch's memory starts.
  if (!moved && quietSince.rssBytes == null && rssBytes != null) {
    quietSince = { ...quietSince, rssBytes, peakRssBytes: rssBytes, peakAtMs: elapsedMs }
  }
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

// Nothing has arrived for STALL_QUIET_MS and the workers hold HOLDING_FACTOR× the memory they held
// when the last event arrived (or at the first figure): { quietMs, rssBytes, fromBytes, arrived,
// bytes, growing }, else null. What a logger queues and cannot send stays in its heap: winston-syslog
// over UDP at 1,000,000 events holds gigabytes while nothing arrives.
export function holdingOf (watch) {
  const quiet = quietOf(watch)
  const from = watch?.quietSince.rssBytes
  if (!quiet || !(from > 0) || !(quiet.rssBytes >= from * HOLDING_FACTOR)) return null
  const { arrived, bytes } = watch.latest
  return { quietMs: quiet.quietMs, rssBytes: quiet.rssBytes, fromBytes: from, arrived, bytes, growing: quiet.growing }
}

// "the logger is holding events in memory: 3.9 GiB, 0 arrived"
function heldWords (held) {
  const so = held.arrived != null ? `${count(held.arrived)} arrived` : `${bytes(held.bytes ?? 0)} written`
  return `the logger is holding events in memory: ${megabytes(held.rssBytes)}${held.growing ? ' and growing' : ''}, ${so}`
}

// The live figures in two parts: `lead`, what the line must show first (nothing has arrived for how
// long, and what that means where memory says it), or null; `figures`, what has arrived and at what
// rate, and the workers' memory.
export function liveParts (watch) {
  const { latest, history } = watch
  const parts = []
  const oldest = history[0]
  const spanS = oldest ? (latest.elapsedMs - oldest.tMs) / 1000 : 0
  const rate = spanS > 0 && latest.level != null && oldest.level != null ? (latest.level - oldest.level) / spanS : null
  const quietMs = latest.level == null ? 0 : latest.elapsedMs - watch.quietSince.tMs
  const leads = quietMs >= QUIET_LEAD_MS
  const quiet = quietOf(watch)
  const held = holdingOf(watch)
  let lead = null
  if (leads) {
    const what = latest.arrived != null ? 'nothing has arrived' : 'nothing has been written'
    // Short, so that a 100-column line keeps it whole; the line of its own says it in full.
    if (held) lead = `${what} for ${duration(quietMs)}; logger holds ${megabytes(held.rssBytes)}, ${held.arrived != null ? `${count(held.arrived)} arrived` : `${bytes(held.bytes ?? 0)} written`}${held.growing ? ', growing' : ''}`
    else if (quiet?.growing) lead = `${what} for ${duration(quietMs)}; workers' memory ${megabytes(quiet.rssBytes)} and growing`
    else if (quiet && quiet.peakRssBytes != null) lead = `${what} for ${duration(quietMs)} (workers' memory peaked at ${megabytes(quiet.peakRssBytes)})`
    else lead = `${what} for ${duration(quietMs)}`
  }
  if (latest.arrived != null) {
    parts.push(`${count(latest.arrived)} arrived${leads ? '' : rateText(watch, rate)}`)
  } else if (latest.bytes != null) {
    parts.push(`${bytes(latest.bytes)} written${leads ? '' : rateText(watch, rate, bytes)}, arrivals counted after close`)
  }
  if (latest.rssBytes != null) parts.push(`workers ${megabytes(latest.rssBytes)}`)
  return { lead, figures: parts.join(', ') }
}

export function describeLive (watch) {
  const { lead, figures } = liveParts(watch)
  return [lead, figures].filter(Boolean).join('; ')
}

// The rate over the last RATE_WINDOW_MS, in words that never say 0/s of a count that moved: a
// trickle (a few events in the window) shows its decimals instead of rounding to 0, and a count
// that has not moved at all in the window says since when, not a rate (the receiving end's figure
// can stand still while its reader catches up, then jump); past QUIET_LEAD_MS the line's lead says it.
function rateText (watch, rate, format = perSecond) {
  if (rate == null) return ''
  if (rate <= 0) return ` (none in the last ${Math.round((watch.latest.elapsedMs - watch.quietSince.tMs) / 1000)} s)`
  return ` (${format(rate)}/s)`
}

function perSecond (rate) {
  if (rate >= 9.5) return count(rate)
  return rate < 0.1 ? '<0.1' : rate.toFixed(1)
}

// Bytes written, and their rate: MiB from 1 MiB, below it KiB or bytes (not "0 MiB"); binary units,
// as the pages write them.
function bytes (n) {
  if (n >= 1024 ** 2) return megabytes(n)
  if (n >= 1024) return `${Math.round(n / 1024).toLocaleString('en-US')} KiB`
  return `${n > 0 ? Math.max(1, Math.round(n)) : 0} B`
}

const count = (n) => Math.round(n).toLocaleString('en-US')

function megabytes (bytes) {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`
  return `${Math.round(bytes / 1024 ** 2).toLocaleString('en-US')} MiB`
}

export function duration (ms) {
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${(ms / 1000).toFixed(1)} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`
}
