// Progress on stderr. On a terminal: one line redrawn in place, with a bar, the current cell and
// run, elapsed time and an estimate of the time left. Elsewhere (CI logs): one plain line per
// finished run and nothing in between.
const BAR_WIDTH = 20

export function createProgress ({ stream = process.stderr, quiet = false } = {}) {
  const tty = Boolean(stream.isTTY)
  let total = 0
  let finished = 0
  let current = null
  let ticker = null
  let began = Date.now()
  const counter = () => `[${String(finished).padStart(String(total).length)}/${total}]`
  const left = () => {
    if (finished === 0) return ''
    return `, ~${duration(((Date.now() - began) / finished) * (total - finished))} left`
  }
  const draw = () => {
    if (!current) return
    const filled = total ? Math.round((finished / total) * BAR_WIDTH) : 0
    const bar = '#'.repeat(filled) + '-'.repeat(BAR_WIDTH - filled)
    const line = `[${bar}] ${finished + 1}/${total} ${current.label} run ${current.run}/${current.runs} ${duration(Date.now() - current.since)} (elapsed ${duration(Date.now() - began)}${left()})`
    stream.write(`\r\x1b[2K${line.slice(0, (stream.columns || 120) - 1)}`)
  }
  const clear = () => { if (tty) stream.write('\r\x1b[2K') }
  const print = (text) => {
    clear()
    stream.write(`${text}\n`)
  }
  return {
    begin (count) {
      total = count
      began = Date.now()
    },
    runStart ({ label, run, runs }) {
      if (quiet) return
      current = { label, run, runs, since: Date.now() }
      if (tty) {
        draw()
        ticker ??= setInterval(draw, 500)
        ticker.unref()
      }
    },
    runEnd (label, run, detail) {
      finished++
      current = null
      if (!quiet) print(`${counter()} ${label} run ${run}: ${detail}`)
    },
    skip (label, runs, reason) {
      finished += runs
      if (!quiet) print(`${counter()} ${label}: ${reason}`)
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

function duration (ms) {
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${(ms / 1000).toFixed(1)} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`
}
