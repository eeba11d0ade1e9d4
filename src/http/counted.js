import { runHttpOnce } from './run-once.js'
import { uncountedFields } from '../results/schema.js'

// One run of an http cell under --measure instructions: the server's workers counted whole (every
// thread) over a run of N requests and one of 2N at the same fixed rate (--rate; N = rate ×
// --duration), one after the other (they would share the port and the CPUs). A number of requests
// rather than a duration: the simulated server may serve more slowly than the rate, and the
// difference must be of known requests. Starting Node, building the logger and the app, the
// warm-up and closing are in both: the difference of the counts over the difference of the
// requests served is the server's cost per request, its idle ticks between requests included (the
// same for every library at one rate). V8's compilers are counted apart (compilerInstructions,
// from cachegrind's per-function counts): a server this young is still compiling, and how much of
// that falls between request N and 2N follows V8's tiering decisions rather than what a request
// costs (docs/costs.md, "V8's compilers apart"). The record is the first run's, with what the
// simulator makes of times left out.
export async function runHttpCounted (settings, { signal = null } = {}) {
  const { rate, durationSeconds, warmupSeconds } = settings
  const amount = Math.max(1, Math.round(rate * durationSeconds))
  // The warm-up too is a number of requests (--rate × --warmup), the same in both runs: a warm-up of
  // --warmup seconds served however many requests the simulator's pace allowed (56 fewer in one run
  // than in the other, once), and those requests, still compiling, weigh more than the rest.
  const warmupAmount = Math.round(rate * warmupSeconds)
  const single = await runHttpOnce({ ...settings, amount, warmupAmount }, { signal })
  if (!single.ok) return withoutTimes(single)
  const double = await runHttpOnce({ ...settings, amount: 2 * amount, warmupAmount }, { signal })
  const failed = (error) => withoutTimes({ ...single, ok: false, status: 'failed', error })
  if (!double.ok) return failed(`the counted run of ${2 * amount} requests (the difference's second run) failed: ${double.error}`)
  // The requests the server answered, warm-ups included (autocannon does not count the ones it gave
  // up on, which the server still handled).
  const requests = double.served - single.served
  if (!(requests > 0)) return failed(`the run of ${2 * amount} requests completed no more than the run of ${amount} (${double.served} and ${single.served} answered): the server did not answer under the simulator; give a lower --rate`)
  // perf counts the process as one number: its figure keeps the compilers in (compilerInstructionsPerRequest null).
  const compiler = single.compilerInstructions == null || double.compilerInstructions == null
    ? null
    : double.compilerInstructions - single.compilerInstructions
  return withoutTimes({
    ...single,
    instructionsPerRequest: (double.instructions - single.instructions - (compiler ?? 0)) / requests,
    compilerInstructionsPerRequest: compiler == null ? null : compiler / requests,
    instructionsMethod: settings.instructionsMethod,
    countedRequests: requests
  })
}

// Requests/s, latency and CPU under the simulator are not times (see src/run/counted.js).
const SIMULATED = uncountedFields('http')

function withoutTimes (record) {
  const out = { ...record }
  for (const field of SIMULATED) if (field in out) out[field] = null
  delete out.instructions
  delete out.compilerInstructions
  delete out.served
  out.timeseries = []
  return out
}
