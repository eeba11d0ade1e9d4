import path from 'node:path'
import { dropRate } from './verifier.js'
import { verifyFiles } from './verify-files.js'

// file transport: each worker logs to its own file in the run's temporary directory; after every
// adapter has closed, the files are read back and every line verified.
export function createFileReceiver ({ workers, events, payload, workload, dir }) {
  const fileOf = (workerId) => path.join(dir, `w${workerId}.log`)
  return {
    consumesStdout: false,
    target (workerId) { return { file: fileOf(workerId) } },
    attach () {},
    async settle ({ sent }) {
      const files = Array.from({ length: workers }, (_, workerId) => fileOf(workerId))
      const { received, duplicates, corrupt } = await verifyFiles(files, { workers, events, payload, workload })
      return { sent, received, corrupt, duplicates, dropRate: dropRate(sent, received), lastArrivalNs: null }
    },
    async stop () {}
  }
}
