import fs from 'node:fs'
import path from 'node:path'
import { verifiedCounts } from './verifier.js'
import { verifyFiles, watchFiles, WATCH_EVERY_MS } from './verify-files.js'

// file transport: each worker logs to its own file in the run's temporary directory; after every
// adapter has closed, the files are read back and every line verified. Meanwhile the files' sizes
// are watched, which times the sampled events' arrivals (delivery latency) within WATCH_EVERY_MS.
// Why a file's growth could not time its events (watchFiles marks the file).
const UNTRUSTED_SIZE = 'a log file grew ahead of its content (extended with zeros, as by ftruncate): its size does not time arrivals'

export function createFileReceiver ({ workers, events, payload, workload, dir }) {
  const fileOf = (workerId) => path.join(dir, `w${workerId}.log`)
  const files = Array.from({ length: workers }, (_, workerId) => fileOf(workerId))
  const watch = watchFiles(files, WATCH_EVERY_MS)
  return {
    consumesStdout: false,
    doneMeans: 'every logger\'s close() resolved with its file written (read back and verified after)',
    target (workerId) { return { file: fileOf(workerId) } },
    attach () {},
    // Events are counted when the files are read back after close; meanwhile, bytes written so far.
    progress () {
      let bytes = 0
      for (let workerId = 0; workerId < workers; workerId++) {
        try { bytes += fs.statSync(fileOf(workerId)).size } catch {}
      }
      return { arrived: null, bytes }
    },
    async settle ({ sent }) {
      watch.stop()
      const untrusted = watch.indexes.some((index) => index.untrusted)
      const arrivalIndexes = untrusted ? null : watch.indexes
      const verified = await verifyFiles(files, { workers, events, payload, workload, arrivalIndexes })
      const timed = untrusted
        ? { deliveryArrivals: null, deliveryNote: UNTRUSTED_SIZE }
        : { deliveryArrivals: verified.deliveryArrivals }
      return { ...verifiedCounts(sent, verified), lastArrivalNs: null, ...timed }
    },
    async stop () { watch.stop() }
  }
}
