import { Duplex, Writable } from 'node:stream'

// Writes a logger makes once its adapter's close() was called: to a stream close() had already
// ended ("write after end": the bytes go nowhere), or after close() resolved (the run was counted
// without them). Either says the same thing about the adapter: its close() does not wait for the
// logger's writes. Watched from the close() call on, never while the run logs: a wrapper around
// Writable#write (files, stdout, sockets) counts them; calls before close() are untouched.

let watch = null

export function watchLateWrites () {
  if (watch) return watch
  const tally = () => ({ writes: 0, bytes: 0, to: null })
  watch = { resolved: false, afterEnd: tally(), afterClose: tally() }
  const write = Writable.prototype.write
  const watched = function (chunk, encoding, callback) {
    const bytes = typeof chunk === 'string' ? Buffer.byteLength(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk?.length ?? 0
    if (this.writableEnded || this.destroyed) add(watch.afterEnd, bytes, this)
    else if (watch.resolved) add(watch.afterClose, bytes, this)
    return write.call(this, chunk, encoding, callback)
  }
  Writable.prototype.write = watched
  // Duplex (a socket, stdout on a pipe) took a copy of Writable's methods when node:stream loaded.
  if (Duplex.prototype.write === write) Duplex.prototype.write = watched
  return watch
}

// Where the writes went, in words: a file (a stream with a path, as fs.WriteStream has), stdout, or
// another stream; the first write's.
function add (tally, bytes, stream) {
  tally.writes++
  tally.bytes += bytes
  tally.to ??= stream === process.stdout ? 'stdout' : typeof stream.path === 'string' ? 'its file' : 'a stream'
}

// close() resolved: writes from now on are late even to a stream still open. Returns what was seen
// until then (lateWrites).
export function closeResolved () {
  if (watch) watch.resolved = true
  return lateWrites()
}

// What was seen, for the primary ({ afterEnd, afterClose }), or null when nothing was.
export function lateWrites () {
  if (!watch || (!watch.afterEnd.writes && !watch.afterClose.writes)) return null
  return { afterEnd: { ...watch.afterEnd }, afterClose: { ...watch.afterClose } }
}

// A stream error that a write after close() explains: the stream had ended, or its reader had gone.
export function lateWriteError (err) {
  return Boolean(watch) && (err?.code === 'ERR_STREAM_WRITE_AFTER_END' || err?.code === 'EPIPE')
}

// The words for what was seen (lateWrites, summed over workers); '' when nothing was.
export function lateWritesWords (late) {
  if (!late) return ''
  const bytes = (n) => `${n.toLocaleString('en-US')} byte${n === 1 ? '' : 's'}`
  const seen = []
  if (late.afterEnd?.writes) seen.push(`wrote ${bytes(late.afterEnd.bytes)} to ${late.afterEnd.to ?? 'a stream'} after close() had ended it (write after end: they went nowhere)`)
  if (late.afterClose?.writes) seen.push(`wrote ${bytes(late.afterClose.bytes)} to ${late.afterClose.to ?? 'a stream'} after close() resolved`)
  return seen.length ? `the logger ${seen.join(' and ')}: close() must wait for its writes` : ''
}

// Sums the workers' lateWrites.
export function sumLateWrites (all) {
  const seen = all.filter(Boolean)
  if (!seen.length) return null
  const sum = (key) => ({
    writes: seen.reduce((n, l) => n + l[key].writes, 0),
    bytes: seen.reduce((n, l) => n + l[key].bytes, 0),
    to: seen.map((l) => l[key].to).find(Boolean) ?? null
  })
  return { afterEnd: sum('afterEnd'), afterClose: sum('afterClose') }
}
