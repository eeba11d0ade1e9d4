// Progress of an http matrix on stderr: a line when a run starts (rewritten in place on a terminal)
// and one per finished or skipped run.
export function createHttpProgress ({ stream = process.stderr, quiet = false } = {}) {
  const tty = Boolean(stream.isTTY)
  let total = 0
  let done = 0
  const counter = () => `[${String(done).padStart(String(total).length)}/${total}]`
  const write = (text) => { if (!quiet) stream.write(text) }
  return {
    begin (count) { total = count },
    runStart (label, seconds) {
      if (tty) write(`\r\x1b[2K[${done + 1}/${total}] ${label}: under load for about ${seconds} s`)
    },
    runEnd (label, record) {
      done++
      if (tty) write('\r\x1b[2K')
      const detail = record.ok
        ? `${Math.round(record.reqPerSec.mean).toLocaleString('en-US')} req/s, p99 ${record.latencyMs.p99} ms, events ${record.received ?? '?'}/${record.sent}`
        : `${record.status.toUpperCase()}: ${record.error}`
      write(`${counter()} ${label}: ${detail}\n`)
    },
    end () {}
  }
}

export function cellLabel ({ lib, mode, transport, cpus, logsPerRequest, size, run, runs }) {
  const what = mode === 'middleware' ? 'request logger' : `${logsPerRequest} logs/request`
  return `${lib} ${what}, ${size} B, ${transport}, ${cpus} cpu${cpus > 1 ? 's' : ''}${runs > 1 ? `, run ${run}/${runs}` : ''}`
}
