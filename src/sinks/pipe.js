import { LineSplitter, Verifier } from './verifier.js'

// console transport: each worker's stdout is a pipe the primary reads and verifies line by line
// while the run goes on. Its last arrival is when the receiving end saw the last byte.
export function createPipeReceiver ({ workers, events, payload, workload }) {
  const verifier = new Verifier({ workers, events, payload, workload })
  const ended = []
  let lastArrivalNs = null
  return {
    consumesStdout: true,
    target () { return {} },
    attach (workerId, child) {
      const splitter = new LineSplitter((line) => verifier.check(line), { onOversized: () => verifier.corrupt++ })
      child.stdout.on('data', (chunk) => {
        lastArrivalNs = process.hrtime.bigint()
        splitter.push(chunk)
      })
      ended.push(new Promise((resolve) => {
        child.stdout.once('close', () => {
          splitter.end()
          resolve()
        })
      }))
    },
    async settle ({ sent }) {
      await Promise.all(ended)
      return { ...verifier.counts(sent), lastArrivalNs }
    },
    async stop () {}
  }
}
