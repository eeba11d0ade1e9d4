import fs from 'node:fs'
import os from 'node:os'
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { LineSplitter, mergeVerified, Verifier } from './verifier.js'

// Reads back and verifies the workers' files, on as many threads as there are cores: with 8
// workers × 1,000,000 events, 8 million lines, one thread alone would take the harness well past
// a second after the run. Each thread verifies a share of the files against bitsets for every
// worker; the shares are then merged, so nothing is lost or double-counted.
export async function verifyFiles (files, { workers, events, payload }) {
  const threads = Math.min(files.length, os.availableParallelism?.() ?? os.cpus().length)
  if (threads <= 1) return verifyShare(files, { workers, events, payload })
  const shares = Array.from({ length: threads }, (_, t) => files.filter((_, i) => i % threads === t))
  const parts = await Promise.all(shares.map((share) => new Promise((resolve, reject) => {
    const thread = new Worker(new URL(import.meta.url), { workerData: { files: share, workers, events, payload } })
    thread.once('message', resolve)
    thread.once('error', reject)
    thread.once('exit', (code) => { if (code !== 0) reject(new Error(`a file verifier thread exited with code ${code}`)) })
  })))
  return mergeVerified(parts)
}

export async function verifyFile (file, verifier) {
  if (!fs.existsSync(file)) return
  const splitter = new LineSplitter((line) => verifier.check(line), { onOversized: () => verifier.corrupt++ })
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) splitter.push(chunk)
  splitter.end()
}

async function verifyShare (files, { workers, events, payload }) {
  const verifier = new Verifier({ workers, events, payload })
  for (const file of files) await verifyFile(file, verifier)
  return { received: verifier.received, duplicates: verifier.duplicates, corrupt: verifier.corrupt, bits: verifier.bits }
}

if (!isMainThread && workerData?.files) {
  parentPort.postMessage(await verifyShare(workerData.files, workerData))
}
