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
export async function verifyFiles (files, { workers, events, payload, workload }) {
  const threads = Math.min(files.length, VERIFY_THREADS, os.availableParallelism?.() ?? os.cpus().length)
  if (threads <= 1) return verifyShare(files, { workers, events, payload, workload })
  const shares = Array.from({ length: threads }, (_, t) => files.filter((_, i) => i % threads === t))
  const parts = await Promise.all(shares.map((share) => new Promise((resolve, reject) => {
    const thread = new Worker(
      new URL(import.meta.url),
      { workerData: { files: share, workers, events, payload, workload } }
    )
    thread.once('message', resolve)
    thread.once('error', reject)
    thread.once('exit', (code) => { if (code !== 0) reject(new Error(`a file verifier thread exited with code ${code}`)) })
  })))
  return mergeVerified(parts)
}

// Lines longer than this are cut off and counted as corrupt, like LineSplitter does.
const MAX_LINE_BYTES = 1 << 20
const CHUNK_BYTES = 1 << 20

// Reads the file in chunks into one buffer that is reused to the end (a line cut by a chunk's end is
// moved to the front): no garbage per chunk, so reading back gigabytes costs the primary ~2 MB.
export async function verifyFile (file, verifier) {
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
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buf, carried, CHUNK_BYTES, null)
      if (bytesRead === 0) break
      const view = buf.subarray(0, carried + bytesRead)
      let start = 0
      for (let nl = view.indexOf(NEWLINE, carried); nl !== -1; nl = view.indexOf(NEWLINE, start)) {
        if (skipping) skipping = false
        else if (nl > start) verifier.checkBytes(view, start, nl)
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
    }
  } finally {
    await handle.close()
  }
  if (carried) verifier.checkBytes(buf, 0, carried)
}

async function verifyShare (files, { workers, events, payload, workload }) {
  const verifier = new Verifier({ workers, events, payload, workload })
  for (const file of files) await verifyFile(file, verifier)
  return {
    received: verifier.received,
    duplicates: verifier.duplicates,
    corrupt: verifier.corrupt,
    bits: verifier.bits
  }
}

// A verifier thread runs this module. No top-level await here: the API's import graph includes this
// module, and require() of an ES module (CommonJS callers) refuses a graph with one. A rejection is
// unhandled in the thread, which then ends with an error, as a thrown await would.
if (!isMainThread && workerData?.files) {
  verifyShare(workerData.files, workerData).then((verified) => parentPort.postMessage(verified))
}
