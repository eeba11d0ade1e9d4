import fs from 'node:fs'
import os from 'node:os'
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { mergeVerified, Verifier } from './verifier.js'

const NEWLINE = 0x0a

// Reads back and verifies the workers' files, on as many threads as there are cores: with 8
// workers × 1,000,000 events, 8 million lines, one thread alone would take the harness well past
// a second after the run. Each thread verifies a share of the files against bitsets for every
// worker; the shares are then merged, so nothing is lost or double-counted.
export async function verifyFiles (files, { workers, events, payload, workload }) {
  const threads = Math.min(files.length, os.availableParallelism?.() ?? os.cpus().length)
  if (threads <= 1) return verifyShare(files, { workers, events, payload, workload })
  const shares = Array.from({ length: threads }, (_, t) => files.filter((_, i) => i % threads === t))
  const parts = await Promise.all(shares.map((share) => new Promise((resolve, reject) => {
    const thread = new Worker(new URL(import.meta.url), { workerData: { files: share, workers, events, payload, workload } })
    thread.once('message', resolve)
    thread.once('error', reject)
    thread.once('exit', (code) => { if (code !== 0) reject(new Error(`a file verifier thread exited with code ${code}`)) })
  })))
  return mergeVerified(parts)
}

// Lines longer than this are cut off and counted as corrupt, like LineSplitter does.
const MAX_LINE_BYTES = 1 << 20

export async function verifyFile (file, verifier) {
  if (!fs.existsSync(file)) return
  let carry = null
  let skipping = false
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    const buf = carry ? Buffer.concat([carry, chunk]) : chunk
    carry = null
    let start = 0
    for (let nl = buf.indexOf(NEWLINE); nl !== -1; nl = buf.indexOf(NEWLINE, start)) {
      if (skipping) skipping = false
      else if (nl > start) verifier.checkBytes(buf, start, nl)
      start = nl + 1
    }
    if (start < buf.length && !skipping) {
      if (buf.length - start > MAX_LINE_BYTES) {
        verifier.corrupt++
        skipping = true
      } else {
        carry = Buffer.from(buf.subarray(start))
      }
    }
  }
  if (carry) verifier.checkBytes(carry, 0, carry.length)
}

async function verifyShare (files, { workers, events, payload, workload }) {
  const verifier = new Verifier({ workers, events, payload, workload })
  for (const file of files) await verifyFile(file, verifier)
  return { received: verifier.received, duplicates: verifier.duplicates, corrupt: verifier.corrupt, bits: verifier.bits }
}

if (!isMainThread && workerData?.files) {
  parentPort.postMessage(await verifyShare(workerData.files, workerData))
}
