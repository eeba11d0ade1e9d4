import fs from 'node:fs'
import os from 'node:os'
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { mergeVerified, Verifier } from './verifier.js'

const NEWLINE = 0x0a

// Reads back and verifies the workers' files on up to VERIFY_THREADS threads: with 8 workers ×
// 1,000,000 events, 8 million lines, one thread alone takes the harness about a second past the run.
// Each thread verifies a share of the files against bitsets for every worker; the shares are then
// merged, so nothing is lost or double-counted. Each thread costs the primary about 15 MB (its own
// V8 heap): one per core on an 8-core machine took the primary past 150 MB, so two at most.
const VERIFY_THREADS = 2
// arrivalIndexes (one per file, or none): when each file's bytes arrived (arrivalIndex), for the
// sampled events' delivery latency; without them no arrival is timed.
export async function verifyFiles (files, { workers, events, payload, workload, arrivalIndexes = null }) {
  const threads = Math.min(files.length, VERIFY_THREADS, os.availableParallelism?.() ?? os.cpus().length)
  if (threads <= 1) return verifyShare(files, { workers, events, payload, workload, arrivalIndexes })
  const shareOf = (list, t) => list?.filter((_, i) => i % threads === t) ?? null
  // Only the index's data crosses to a thread (its note() cannot).
  const indexData = arrivalIndexes?.map((index) => index && { sizes: index.sizes, times: index.times }) ?? null
  const shares = Array.from(
    { length: threads },
    (_, t) => ({ files: shareOf(files, t), arrivalIndexes: shareOf(indexData, t) })
  )
  const parts = await Promise.all(shares.map((share) => new Promise((resolve, reject) => {
    const thread = new Worker(
      new URL(import.meta.url),
      { workerData: { ...share, workers, events, payload, workload } }
    )
    thread.once('message', resolve)
    thread.once('error', reject)
    thread.once('exit', (code) => { if (code !== 0) reject(new Error(`a file verifier thread exited with code ${code}`)) })
  })))
  return mergeVerified(parts)
}

// When a file's bytes arrived, as the file grew: [size, ns] pairs in order (ns on CLOCK_MONOTONIC).
// A byte arrived at the first noted time whose size covers it. Notes within MERGE_NS of the first
// one of the last pair extend that pair (its bytes then get the later time: an overestimate of at
// most MERGE_NS), so a reader of many small chunks keeps at most one pair per MERGE_NS.
const MERGE_NS = 1e6
export function arrivalIndex () {
  const sizes = []
  const times = []
  let pairFirstNs = -Infinity
  return {
    sizes,
    times,
    note (size, ns) {
      const last = sizes.length - 1
      if (last >= 0 && size <= sizes[last]) return
      if (ns - pairFirstNs < MERGE_NS) {
        sizes[last] = size
        times[last] = ns
        return
      }
      pairFirstNs = ns
      sizes.push(size)
      times.push(ns)
    }
  }
}

// The time of the first note covering offsets up to `end`; 0 (not timed) past the last note.
function arrivedAt ({ sizes, times }, end) {
  let low = 0
  let high = sizes.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (sizes[mid] >= end) high = mid
    else low = mid + 1
  }
  return low < sizes.length ? times[low] : 0
}

// Watches files grow during a run, polling their sizes every everyMs: one arrivalIndex per file.
// A size times arrivals only while it is the end of what was written: a file extended ahead of its
// content (ftruncate to 4 MiB, a seek past its end, then the lines written later) reads as zeros up
// to its size, so a grown file whose last byte is 0 marks its index `untrusted` (its times would be
// the extension's, not the events').
export const WATCH_EVERY_MS = 2
// stop() takes a last look, so that every byte written by then has a time.
export function watchFiles (files, everyMs) {
  const indexes = files.map(() => arrivalIndex())
  const opened = files.map(() => ({ fd: null, ino: null }))
  const close = (handle) => {
    try {
      if (handle.fd !== null) fs.closeSync(handle.fd)
    } catch {}
    handle.fd = null
    handle.ino = null
  }
  const lastByte = Buffer.alloc(1)
  const endsInZero = (i, size, ino) => {
    const handle = opened[i]
    if (handle.ino !== ino) {
      close(handle)
      handle.fd = fs.openSync(files[i], 'r')
      handle.ino = ino
    }
    return fs.readSync(handle.fd, lastByte, 0, 1, size - 1) === 1 && lastByte[0] === 0
  }
  const look = () => {
    const ns = Number(process.hrtime.bigint())
    files.forEach((file, i) => {
      try {
        const { size, ino } = fs.statSync(file)
        if (size > (indexes[i].sizes.at(-1) ?? 0) && endsInZero(i, size, ino)) indexes[i].untrusted = true
        indexes[i].note(size, ns)
      } catch {}
    })
  }
  let timer = setInterval(look, everyMs)
  return {
    indexes,
    stop () {
      if (timer === null) return
      clearInterval(timer)
      timer = null
      look()
      opened.forEach(close)
    }
  }
}

// Lines longer than this are cut off and counted as corrupt, like LineSplitter does.
const MAX_LINE_BYTES = 1 << 20
const CHUNK_BYTES = 1 << 20

// Reads the file in chunks into one buffer that is reused to the end (a line cut by a chunk's end is
// moved to the front): no garbage per chunk, so reading back gigabytes costs the primary ~2 MB.
export async function verifyFile (file, verifier, index = null) {
  let handle
  try {
    handle = await fs.promises.open(file, 'r')
  } catch (err) {
    if (err.code === 'ENOENT') return
    throw err
  }
  const buf = Buffer.allocUnsafe(MAX_LINE_BYTES + CHUNK_BYTES)
  let carried = 0
  let skipping = false
  // The file offset of buf[0], and of the end of the line being checked (its arrival).
  let base = 0
  let lineEnd = 0
  verifier.arrivalClock = index ? () => arrivedAt(index, lineEnd) : () => 0
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buf, carried, CHUNK_BYTES, null)
      if (bytesRead === 0) break
      const view = buf.subarray(0, carried + bytesRead)
      let start = 0
      for (let nl = view.indexOf(NEWLINE, carried); nl !== -1; nl = view.indexOf(NEWLINE, start)) {
        if (skipping) skipping = false
        else if (nl > start) {
          lineEnd = base + nl
          verifier.checkBytes(view, start, nl)
        }
        start = nl + 1
      }
      carried = 0
      if (start < view.length && !skipping) {
        if (view.length - start > MAX_LINE_BYTES) {
          verifier.corrupt++
          skipping = true
        } else {
          carried = view.copy(buf, 0, start)
        }
      }
      base += view.length - carried
    }
  } finally {
    await handle.close()
  }
  lineEnd = base + carried
  if (carried) verifier.checkBytes(buf, 0, carried)
}

async function verifyShare (files, { workers, events, payload, workload, arrivalIndexes = null }) {
  const verifier = new Verifier({ workers, events, payload, workload })
  for (const [i, file] of files.entries()) await verifyFile(file, verifier, arrivalIndexes?.[i])
  return {
    received: verifier.received,
    duplicates: verifier.duplicates,
    corrupt: verifier.corrupt,
    bits: verifier.bits,
    deliveryArrivals: verifier.deliveryArrivals()
  }
}

// A verifier thread runs this module. No top-level await here: the API's import graph includes this
// module, and require() of an ES module (CommonJS callers) refuses a graph with one. A rejection is
// unhandled in the thread, which then ends with an error, as a thrown await would.
if (!isMainThread && workerData?.files) {
  verifyShare(workerData.files, workerData).then((verified) => parentPort.postMessage(verified))
}
