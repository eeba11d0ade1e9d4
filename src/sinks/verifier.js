// Checks every event at the receiving end. Each event carries "w<worker> <seq>: <payload>";
// one bit per (worker, seq) records arrival, so memory is events/8 bytes per worker whatever arrives.
// events: null means the count is not known in advance (a server under load logs as many events as
// requests arrive): each worker's bitset then grows with the sequence numbers seen, up to
// MAX_UNBOUNDED_EVENTS, so a garbled sequence number cannot claim gigabytes.
// workload: for workloads that carry fields (object, deep, child, error, interpolate) an intact
// line must also hold that workload's field tokens (src/engine/workloads.js, FIELD_TOKENS): fixed
// values that read the same in any format, anywhere on the line. A line with the marker and
// payload but without them lost its fields and is corrupt.
// Delivery latency: every deliveryEvery(events)-th event of each worker is a sample (message.js); the verifier
// keeps the first arrival time of each (ns on CLOCK_MONOTONIC, the clock of process.hrtime in
// every process on the host) and the worker the time of its log() call (src/run/worker.js).

import { deliveryEvery, deliverySamples } from '../engine/message.js'
import { fieldTokens } from '../engine/workloads.js'
import { maxOf } from '../stats.js'

const MARKER = /w(\d+) (\d+): /
const LETTER_W = 0x77
const SPACE = 0x20
const COLON = 0x3a

const INITIAL_UNBOUNDED_BYTES = 1024
export const MAX_UNBOUNDED_EVENTS = 2 ** 28
export { MAX_EVENTS } from '../limits.js'

// Share of the sent events that never arrived intact; null when nothing was sent.
export function dropRate (sent, received) {
  return sent > 0 ? (sent - received) / sent : null
}

// The counts every receiving end's settle() starts with (src/sinks/index.js, ReceiverCounts), from a
// Verifier, mergeVerified or verifyFiles: what arrived intact, corrupt and twice, of `sent`.
export function verifiedCounts (sent, { received, corrupt, duplicates }) {
  return { sent, received, corrupt, duplicates, dropRate: dropRate(sent, received) }
}

export class Verifier {
  constructor ({ workers, events, payload, workload }) {
    this.workers = workers
    this.events = events
    this.capacity = events ?? MAX_UNBOUNDED_EVENTS
    this.payload = payload
    const bytes = events == null ? INITIAL_UNBOUNDED_BYTES : Math.ceil(events / 8)
    this.bits = Array.from({ length: workers }, () => new Uint8Array(bytes))
    this.received = 0
    this.duplicates = 0
    this.corrupt = 0
    this.tokens = fieldTokens(workload)
    this.tokenBytes = this.tokens.map((token) => Buffer.from(token, 'latin1'))
    // Unknown counts (events null) sample nothing. arrivalClock: where arrivals are not seen as they
    // are checked (files read back after the run), what the current line's arrival time was.
    this.sampleEvery = deliveryEvery(events)
    this.arrivals = Array.from(
      { length: this.sampleEvery ? workers : 0 },
      () => new Float64Array(deliverySamples(events))
    )
    this.arrivalClock = null
  }

  // One arrival (a line, a syslog message body). Returns true when it was a new, intact event.
  check (text) {
    const match = MARKER.exec(text)
    if (match === null) return this.#reject()
    const worker = Number(match[1])
    const seq = Number(match[2])
    if (worker >= this.workers || seq >= this.capacity) return this.#reject()
    if (!text.startsWith(this.payload, match.index + match[0].length)) return this.#reject()
    for (const token of this.tokens) {
      if (!text.includes(token)) return this.#reject()
    }
    return this.#record(worker, seq)
  }

  // The same check on the bytes buf[start, end) of one line, without making a string of it: files
  // of millions of lines are verified without millions of short-lived strings.
  checkBytes (buf, start, end) {
    // indexOf (memchr) finds the marker's letter; the digits and the payload are compared in
    // plain loops, without buf.compare or result objects: with millions of short lines the
    // per-call costs dominate. Same rules as check(): the first "w<digits> <digits>: " in the
    // line, then the payload.
    for (let at = buf.indexOf(LETTER_W, start); at !== -1 && at < end; at = buf.indexOf(LETTER_W, at + 1)) {
      let i = at + 1
      let worker = 0
      while (i < end && buf[i] >= 0x30 && buf[i] <= 0x39) worker = worker * 10 + (buf[i++] - 0x30)
      if (i === at + 1 || i >= end || buf[i] !== SPACE) continue
      const seqStart = ++i
      let seq = 0
      while (i < end && buf[i] >= 0x30 && buf[i] <= 0x39) seq = seq * 10 + (buf[i++] - 0x30)
      if (i === seqStart || i + 1 >= end || buf[i] !== COLON || buf[i + 1] !== SPACE) continue
      if (worker >= this.workers || seq >= this.capacity) return this.#reject()
      const payload = this.payloadBytes ??= Buffer.from(this.payload, 'latin1')
      const from = i + 2
      if (from + payload.length > end) return this.#reject()
      for (let k = 0; k < payload.length; k++) {
        if (buf[from + k] !== payload[k]) return this.#reject()
      }
      if (this.tokens.length && !this.#hasTokens(buf, start, end)) return this.#reject()
      return this.#record(worker, seq)
    }
    return this.#reject()
  }

  // Every field token within buf[start, end): indexOf(byte) (memchr, as for the marker) finds
  // candidates for the token's first byte, a plain loop compares the rest. A native indexOf of
  // the whole token per line measured about twice this cost on a million-line file.
  #hasTokens (buf, start, end) {
    for (let k = 0; k < this.tokenBytes.length; k++) {
      const token = this.tokenBytes[k]
      const first = token[0]
      const last = end - token.length
      let found = false
      for (let at = buf.indexOf(first, start); at !== -1 && at <= last; at = buf.indexOf(first, at + 1)) {
        let j = 1
        while (j < token.length && buf[at + j] === token[j]) j++
        if (j === token.length) {
          found = true
          break
        }
      }
      if (!found) return false
    }
    return true
  }

  #record (worker, seq) {
    const byte = seq >> 3
    const bitset = byte < this.bits[worker].length ? this.bits[worker] : this.#grow(worker, byte)
    const mask = 1 << (seq & 7)
    if (bitset[byte] & mask) {
      this.duplicates++
      return false
    }
    bitset[byte] |= mask
    this.received++
    if (this.sampleEvery && seq % this.sampleEvery === 0) {
      this.arrivals[worker][seq / this.sampleEvery] = this.arrivalClock
        ? this.arrivalClock()
        : Number(process.hrtime.bigint())
    }
    return true
  }

  // Only reachable when events is null: a fixed count sizes the bitset for every valid seq.
  #grow (worker, byte) {
    const grown = new Uint8Array(Math.max(byte + 1, this.bits[worker].length * 2))
    grown.set(this.bits[worker])
    this.bits[worker] = grown
    return grown
  }

  #reject () {
    this.corrupt++
    return false
  }

  counts (sent) {
    return verifiedCounts(sent, this)
  }

  // The sampled events' first arrival times, per worker (0: not arrived), as plain arrays for IPC.
  deliveryArrivals () {
    return this.sampleEvery ? this.arrivals.map((times) => Array.from(times)) : null
  }
}

// Splits a byte stream into lines without holding more than one partial line. A line longer than
// maxLineBytes is cut off and counted as corrupt, so hostile or runaway input cannot exhaust memory.
export class LineSplitter {
  constructor (onLine, { maxLineBytes = 1 << 20, onOversized = () => {} } = {}) {
    this.onLine = onLine
    this.onOversized = onOversized
    this.maxLineBytes = maxLineBytes
    this.partial = ''
    this.skipping = false
  }

  push (chunk) {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('latin1')
    let start = 0
    let nl = text.indexOf('\n')
    while (nl !== -1) {
      if (this.skipping) {
        this.skipping = false
      } else {
        const line = this.partial === '' ? text.slice(start, nl) : this.partial + text.slice(start, nl)
        this.partial = ''
        if (line !== '') this.onLine(line)
      }
      start = nl + 1
      nl = text.indexOf('\n', start)
    }
    if (start < text.length && !this.skipping) {
      this.partial += text.slice(start)
      if (this.partial.length > this.maxLineBytes) {
        this.partial = ''
        this.skipping = true
        this.onOversized()
      }
    }
  }

  // End of stream: a last line without its newline still counts (the verifier decides if it is whole).
  end () {
    if (this.partial !== '' && !this.skipping) this.onLine(this.partial)
    this.partial = ''
    this.skipping = false
  }
}

// Joins verifiers that each saw part of one run's arrivals (several UDP readers, several file
// readers): an event two of them received is one received event and one duplicate.
export function mergeVerified (parts) {
  const workers = parts[0].bits.length
  const union = Array.from(
    { length: workers },
    (_, worker) => new Uint8Array(maxOf(parts.map((p) => p.bits[worker].length)))
  )
  for (const part of parts) {
    part.bits.forEach((bitset, worker) => { for (let i = 0; i < bitset.length; i++) union[worker][i] |= bitset[i] })
  }
  const received = parts.reduce((total, part) => total + part.received, 0)
  const distinct = union.reduce((total, bitset) => total + popcount(bitset), 0)
  return {
    received: distinct,
    duplicates: parts.reduce((total, part) => total + part.duplicates, 0) + received - distinct,
    corrupt: parts.reduce((total, part) => total + part.corrupt, 0),
    deliveryArrivals: firstArrivals(parts.map((part) => part.deliveryArrivals))
  }
}

// Per worker and sample, the earliest of the parts' arrival times (0: not arrived); null when a part has none.
export function firstArrivals (parts) {
  if (parts.some((part) => !part?.length)) return null
  return parts[0].map((times, worker) => Array.from(times, (_, i) => {
    let first = 0
    for (const part of parts) {
      const at = part[worker][i]
      if (at > 0 && (first === 0 || at < first)) first = at
    }
    return first
  }))
}

// The sampled events' delivery latency: from each one's log() call (callStamps, per worker, ns) to
// its first arrival (arrivals, the same shape; 0 where it never arrived or was never logged).
// Percentiles by nearest rank over the samples, in ms; null with samples 0 when none arrived.
export function deliveryLatency (callStamps, arrivals) {
  const latencies = []
  callStamps.forEach((calls, worker) => {
    const arrived = arrivals[worker] ?? []
    for (let i = 0; i < calls.length; i++) {
      if (calls[i] > 0 && arrived[i] > 0) latencies.push(Math.max(0, arrived[i] - calls[i]) / 1e6)
    }
  })
  if (!latencies.length) return null
  latencies.sort((a, b) => a - b)
  const at = (p) => latencies[Math.max(0, Math.ceil((p / 100) * latencies.length) - 1)]
  return { p50: at(50), p90: at(90), p99: at(99), max: latencies[latencies.length - 1], samples: latencies.length }
}

const BYTE_BITS = Uint8Array.from({ length: 256 }, (_, byte) => byte.toString(2).replace(/0/g, '').length)

function popcount (bitset) {
  let bits = 0
  for (let i = 0; i < bitset.length; i++) bits += BYTE_BITS[bitset[i]]
  return bits
}
