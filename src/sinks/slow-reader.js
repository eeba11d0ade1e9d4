// A receiving end that reads slowly or stalls (--receiver-rate, --receiver-stall), for the console's
// stream reader (pipe.js) and the embedded sink's TCP connections (embedded/listeners.js).

// The longest timer: node runs a longer one after 1 ms instead (TimeoutOverflowWarning).
const MAX_TIMER_MS = 2 ** 31 - 1

// slowReader(stream, reader, { rate, stallMs, stallAfterLines }) returns what to call with each
// chunk once it has been taken in (after reader.bytes and reader.lines are counted). rate: no faster
// than `rate` bytes a second from the first byte on; a chunk counts as read when the rate would
// have let it be read (reader.lastDataNs), and the stream is paused until then. stallMs: once
// stallAfterLines lines arrived, nothing is read for stallMs (reader.stallEndNs is when that ends),
// then reading goes on at the rate or at full speed. Nothing is read meanwhile, so the kernel's
// buffer fills and the logger meets a full destination, as behind a stalled consumer.
// Its release() ends the brake (the run failed, timed out or was stopped): the pending pause is
// cleared and the rest is read at once, so that nothing waits hours for a timer of bytes ÷ rate.
export function slowReader (stream, reader, { rate = null, stallMs = null, stallAfterLines }) {
  let firstNs = null
  let stalled = !stallMs
  let pausedNs = 0n
  let timer = null
  let resumeNs = 0n
  let released = false
  const brake = () => {
    if (released) return
    const nowNs = process.hrtime.bigint()
    firstNs ??= nowNs
    let waitMs = 0
    if (rate) {
      const dueNs = firstNs + pausedNs + BigInt(Math.round((reader.bytes / rate) * 1e9))
      if (dueNs > nowNs) {
        reader.lastDataNs = dueNs
        waitMs = Number(dueNs - nowNs) / 1e6
      }
    }
    if (!stalled && reader.lines >= stallAfterLines) {
      stalled = true
      reader.stallEndNs = (reader.lastDataNs > nowNs ? reader.lastDataNs : nowNs) + BigInt(stallMs) * 1_000_000n
      waitMs += stallMs
      pausedNs = BigInt(stallMs) * 1_000_000n
    }
    if (waitMs <= 0) return
    stream.pause()
    // A chunk already buffered when the stream paused still comes: the pause lasts until the later
    // of the two ends (one timer, so that release() clears it).
    const untilNs = nowNs + BigInt(Math.ceil(waitMs * 1e6))
    if (timer && untilNs <= resumeNs) return
    clearTimeout(timer)
    resumeNs = untilNs
    timer = setTimeout(() => {
      timer = null
      stream.resume()
    }, Math.min(Math.ceil(waitMs), MAX_TIMER_MS))
  }
  // Node resumes a child's stdout by itself when the child exits (child_process's flushStdio): a
  // worker that wrote everything into the pipe's buffer and ended would be read at once, stall or
  // not. While a pause is due, the stream stays paused whoever resumes it.
  stream.on('resume', () => {
    if (timer !== null && !released) stream.pause()
  })
  brake.release = () => {
    released = true
    clearTimeout(timer)
    timer = null
    stream.resume()
  }
  return brake
}

// The slow reader's settings for one run, or null at full speed: the stall comes after the first
// tenth of each worker's events.
export function slowReading ({ receiverRate = null, receiverStallMs = null, events }) {
  return receiverRate || receiverStallMs
    ? { rate: receiverRate, stallMs: receiverStallMs, stallAfterLines: Math.ceil(events / 10) }
    : null
}
