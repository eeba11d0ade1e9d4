// Progress on stderr. On a terminal: one line rewritten in place with the current cell, run and
// elapsed time. Elsewhere (CI logs): one plain line per finished run, nothing in between.
export function createProgress ({ stream = process.stderr, quiet = false } = {}) {
  const tty = Boolean(stream.isTTY)
  let total = 0
  let finished = 0
  let current = null
  let ticker = null
  const began = Date.now()
  const seconds = (msValue) => `${(msValue / 1000).toFixed(1)} s`
  const label = (r) => `${r.lib} ${r.transport} ${r.cpus} cpu${r.cpus > 1 ? 's' : ''}${r.size !== 13 ? ` ${r.size} B` : ''}`
  const counter = () => `[${String(finished + (current ? 1 : 0)).padStart(String(total).length)}/${total}]`
  const eta = () => {
    if (finished === 0) return ''
    const left = ((Date.now() - began) / finished) * (total - finished)
    return `, about ${seconds(left)} left`
  }
  const draw = () => {
    if (!current) return
    stream.write(`\r\x1b[2K${counter()} ${label(current)} run ${current.run}/${current.runs}: ${seconds(Date.now() - current.since)} (elapsed ${seconds(Date.now() - began)}${eta()})`)
  }
  const clear = () => { if (tty) stream.write('\r\x1b[2K') }
  return {
    begin (count) { total = count },
    runStart (info) {
      if (quiet) return
      current = { ...info, since: Date.now() }
      if (tty) {
        draw()
        ticker ??= setInterval(draw, 500)
        ticker.unref()
      }
    },
    runEnd (record) {
      finished++
      if (quiet) return
      clear()
      const detail = record.ok
        ? `unblocked ${record.unblockedMs.toFixed(0)} ms, done ${record.doneMs.toFixed(0)} ms${record.received != null ? `, received ${record.received}/${record.sent}` : ''}`
        : `FAILED: ${record.error}`
      stream.write(`[${String(finished).padStart(String(total).length)}/${total}] ${label(record)} run ${record.run}: ${detail}\n`)
      current = null
    },
    skip (key, runs, reason) {
      finished += runs
      if (quiet) return
      clear()
      stream.write(`[${String(finished).padStart(String(total).length)}/${total}] ${key.split('|').slice(1, 4).join(' ')}: ${reason}\n`)
    },
    end () {
      if (ticker) clearInterval(ticker)
      ticker = null
      if (current) clear()
    }
  }
}
