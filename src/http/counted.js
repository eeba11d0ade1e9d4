import { runHttpOnce } from './run-once.js'

// One run of an http cell under --measure instructions: the server's workers counted whole (every
// thread) over a run of --duration and one of twice --duration at the same fixed rate (--rate),
// one after the other (they would share the port and the CPUs). Starting Node, building the
// logger and the app, the warm-up and closing are in both: the difference of the counts over the
// difference of the requests served is the server's cost per request, its idle ticks between
// requests included (the same for every library at one rate). The record is the first run's, with
// what the simulator makes of times left out.
export async function runHttpCounted (options) {
  const { load, counter } = options
  const single = await runHttpOnce(options)
  if (!single.ok) return withoutTimes(single)
  const double = await runHttpOnce({ ...options, load: { ...load, durationSeconds: 2 * load.durationSeconds } })
  const failed = (error) => withoutTimes({ ...single, ok: false, status: 'failed', error })
  if (!double.ok) return failed(`the counted run of ${2 * load.durationSeconds} s (the difference's second run) failed: ${double.error}`)
  const requests = double.requests - single.requests
  if (!(requests > 0)) return failed(`the run of ${2 * load.durationSeconds} s served no more requests than the run of ${load.durationSeconds} s (${double.requests} and ${single.requests}): the server cannot keep up with --rate ${load.rate} under the simulator; give a lower --rate`)
  return withoutTimes({
    ...single,
    instructionsPerRequest: (double.instructions - single.instructions) / requests,
    instructionsMethod: counter.method,
    countedRequests: requests
  })
}

// Requests/s, latency and CPU under the simulator are not times (see src/bench/counted.js).
const SIMULATED = ['reqPerSec', 'bytesPerSec', 'latencyMs', 'serverCpuUserMs', 'serverCpuSystemMs', 'serverCpuPct', 'serverCpuUsPerRequest', 'eventLoopDelayNs', 'maxRssBytes', 'totalRssPeakBytes']

function withoutTimes (record) {
  const out = { ...record }
  for (const field of SIMULATED) if (field in out) out[field] = null
  delete out.instructions
  out.timeseries = []
  return out
}
