import { consola } from 'consola'
// flush.js is imported for its one helper, drained(): an outside adapter would write the same few
// lines to wait for stdout's write callback.
import { drained } from './flush.js'

// consola's README: the global `consola` instance ("recommended to use everywhere"), consola.info().
// Its reporters write levels 2 and up (log, info, success, ...) to process.stdout and 0-1 (error,
// warn, fatal) to process.stderr, so info lands on stdout. On a non-TTY it prints no colours; the
// fancy reporter puts an icon before the message, the basic one (CI or TEST set) "[info]".
// consola's defaults depend on the environment: with NODE_ENV=test or TEST set, its level is warn
// and info prints nothing (every event is then counted lost).
export default {
  name: 'consola',
  packageName: 'consola',
  transports: ['console'],
  workloads: ['string'],
  unsupported: {
    file: 'consola documents terminal output only (its reporters write to process.stdout and process.stderr); logging elsewhere means writing a reporter of your own'
  },
  async create () {
    return {
      log (message) { consola.info(message) },
      async close () { await drained(process.stdout) }
    }
  }
}
