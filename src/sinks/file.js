import fs from 'node:fs'
import path from 'node:path'
import { LineSplitter, Verifier } from './verifier.js'

// file transport: each worker logs to its own file in the run's temporary directory; after every
// adapter has closed, the files are read back and every line verified.
export function createFileReceiver ({ workers, events, payload, dir }) {
  const fileOf = (workerId) => path.join(dir, `w${workerId}.log`)
  return {
    consumesStdout: false,
    target (workerId) { return { file: fileOf(workerId) } },
    attach () {},
    async settle ({ sent }) {
      const verifier = new Verifier({ workers, events, payload })
      for (let workerId = 0; workerId < workers; workerId++) {
        await verifyFile(fileOf(workerId), verifier)
      }
      return { ...verifier.counts(sent), lastArrivalNs: null }
    },
    async stop () {}
  }
}

export async function verifyFile (file, verifier) {
  if (!fs.existsSync(file)) return
  const splitter = new LineSplitter((line) => verifier.check(line), { onOversized: () => verifier.corrupt++ })
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) splitter.push(chunk)
  splitter.end()
}
