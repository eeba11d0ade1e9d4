// The same adapter as lines.cjs, written as an ES module: what a .js file is in a project whose
// package.json says "type": "module", and what a .mjs file always is.
import fs from 'node:fs'
import { OBJECT_FIELDS } from 'log-bench/workloads'

export default {
  name: 'lines-esm',
  version: '1.0.0',
  transports: ['console', 'file'],
  workloads: ['string', 'object'],
  async create ({ transport, file, workload }) {
    const stream = transport === 'file' ? fs.createWriteStream(file) : process.stdout
    const line = workload === 'object' ? (message) => JSON.stringify({ msg: message, ...OBJECT_FIELDS }) : (message) => message
    return {
      log (message) {
        stream.write(line(message) + '\n')
      },
      close () {
        return new Promise((resolve, reject) => {
          stream.once('error', reject)
          if (stream === process.stdout) stream.write('', resolve)
          else stream.end(resolve)
        })
      }
    }
  }
}
