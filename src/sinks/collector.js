import { RunFailure } from '../errors.js'
import { receiverLimits } from './receiver-limits.js'
import { untilQuiet } from './syslog.js'
import { Verifier } from './verifier.js'

// What every embedded collector receiver (otlp.js, forward.js; a transport described with
// `collector` in src/engine/transports.js) shares: the verifier that checks each record, the
// receiver's counters, the first refusal's cause (the run's failure when events are missing), the
// listening socket on 127.0.0.1 and the Receiver the runners call (src/sinks/index.js). A receiver
// supplies only its protocol: the server, how it decodes a request or message into records, and
// what counts as an arrival while it settles.
export const QUIET_MS = 500

/**
 * @param {object} options
 * @param {string} options.who  the receiver in a sentence: 'the OTLP receiver'
 * @param {object} options.stats  the receiver's counters, all 0, returned with each run as receiverStats
 * @param {string} options.recordsCounter  the counter of records decoded (stats[recordsCounter])
 */
export function createCollector ({ who, stats, recordsCounter, quietMs = QUIET_MS, ...options }) {
  const { workers, events, payload, workload } = options
  const limits = receiverLimits(options)
  const verifier = new Verifier({ workers, events, payload, workload })
  let refusal = null
  let lastArrivalNs = null
  let port = null
  return {
    limits,
    verifier,
    stats,
    // A refused request or message: counted under `counter`, the first cause kept.
    refuse (counter, cause) {
      stats[counter]++
      refusal ??= `${who} ${cause}`
    },
    // The records of one decoded request or message, each checked by worker id and sequence.
    accept (records, textOf) {
      for (const record of records) verifier.check(textOf(record))
      stats[recordsCounter] += records.length
      lastArrivalNs = process.hrtime.bigint()
    },
    async listen (server) {
      await new Promise((resolve, reject) => {
        server.once('error', (err) => reject(new RunFailure(`${who} could not listen on 127.0.0.1: ${err.message}`)))
        server.listen(0, '127.0.0.1', resolve)
      })
      port = server.address().port
      return port
    },
    /**
     * The Receiver of src/sinks/index.js.
     * @param {object} parts
     * @param {string} parts.doneMeans
     * @param {object} parts.target  what each worker is handed (host and port are added)
     * @param {() => number} parts.arrivals  what has arrived so far, good or bad: settle() waits until it stops growing
     * @param {() => Promise<void>} parts.stop
     */
    receiver ({ doneMeans, target, arrivals, stop }) {
      return {
        consumesStdout: false,
        doneMeans,
        target () { return { host: '127.0.0.1', port, ...target } },
        attach () {},
        progress () { return { arrived: verifier.received } },
        // Counted as requests arrive: what the verifier holds is already final when nothing more comes.
        async settle ({ sent }) {
          const ask = async () => ({ received: verifier.received, arrivals: arrivals() })
          await untilQuiet(ask, (c) => c.arrivals, (c) => c.received >= sent, quietMs)
          return {
            ...verifier.counts(sent),
            lastArrivalNs,
            receiverStats: { ...stats },
            deliveryArrivals: verifier.deliveryArrivals()
          }
        },
        stats () {
          return { ...stats, received: verifier.received, corrupt: verifier.corrupt, duplicates: verifier.duplicates }
        },
        async failureCause () { return refusal },
        stop
      }
    }
  }
}
