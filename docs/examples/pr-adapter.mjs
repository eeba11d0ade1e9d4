// The adapter a logger's repository keeps beside its code (bench/log-bench-adapter.mjs in
// docs/examples/benchmark-pr.yml): the library as the pull request's checkout has it, built the way
// log-bench's shipped adapter builds the published release, so that the two differ only in the code
// under review. This one is for pino; for your library, change create() to its own default
// configuration (docs/adapters.md). It loads the package in the directory log-bench runs in (the
// checkout's root), by its package.json "main", not a copy from node_modules.
import path from 'node:path'
import { createRequire } from 'node:module'

const checkout = createRequire(path.join(process.cwd(), 'package.json'))
const pkg = checkout('./package.json')

export default {
  name: `${pkg.name}-pr`,
  version: pkg.version,
  transports: ['console', 'file'],
  async create ({ transport, file }) {
    const pino = checkout('./')
    // pino's README: pino() writes to stdout; pino(pino.destination(path)) to a file.
    const logger = transport === 'file' ? pino(pino.destination(file)) : pino()
    const stream = logger[pino.symbols.streamSym]
    return {
      log (message) {
        logger.info(message)
      },
      // Resolve once every line has left the process: stdout's queue drained, or the file's
      // SonicBoom ended and closed.
      close () {
        return new Promise((resolve, reject) => {
          if (stream === process.stdout) return process.stdout.write('', resolve)
          stream.once('close', resolve)
          stream.once('error', reject)
          stream.end()
        })
      }
    }
  }
}
