import { judge } from '../judge/verdict.js'
import { schemaProblem } from './checks.js'
import { dimensionWords, emptyMeasures, identityReader, recordDimensions, recordMeasures } from '../schema.js'
import { formatCount } from '../../format.js'
import { RUN_WORDS } from './run.js'
import { HTTP_BASELINE as BASELINE } from '../../engine/library-names.js'

// The `http` type (log-bench http): an express server that logs, under autocannon load.

// The library every http cell is compared with (the same app without logging), under its run type's name.
export { BASELINE }

// An http cell is a run cell's dimensions, then its load: the fields `http` records for it (the
// schema's httpRecord: x-dimensions-from run, then its own x-dimension fields).
const DIMENSIONS = recordDimensions('http')

// Each dimension in words (see run.js): a run cell's, then its load. The type is said as the pages
// head it (HTTP); a rate is requests per second, a closed loop without one.
const { type, lib, variant, libVersion, transport, cpus, ...runWords } = RUN_WORDS
const WORDS = {
  type: { words: () => 'HTTP' },
  lib,
  variant,
  libVersion,
  mode: { words: (mode) => (mode === 'middleware' ? 'request loggers' : 'route logging') },
  middleware: { words: (middleware) => (middleware == null ? null : `request logger ${middleware}`) },
  transport,
  cpus,
  logsPerRequest: { words: (n) => (n == null ? null : `${n} logs/request`) },
  ...runWords,
  rate: { words: (rate) => (rate == null ? 'closed loop' : `${formatCount(rate)} requests/s`) },
  connections: { words: (n) => `${n} connection${n === 1 ? '' : 's'}` },
  pipelining: { words: (n) => `pipelining ${n}` },
  durationSeconds: { words: (s) => `${s} s` },
  warmupSeconds: { words: (s) => `${s} s warm-up` },
  serverCpus: { words: (list) => (list == null ? 'server not pinned' : `server on CPU ${list}`) },
  loadCpus: { words: (list) => (list == null ? 'load not pinned' : `load on CPU ${list}`) },
  alternate: { words: (seconds) => (seconds == null ? 'not alternating' : `alternating with none every ${seconds} s`) }
}

// As for run (see src/results/run-types/run.js), from the schema's x-measure annotations. Per run,
// the requests per second are autocannon's one-second samples (their mean is the run's figure) and
// the latencies its percentiles. The server's work per request (docs/costs.md): CPU time on every
// http run, instructions under --measure instructions. Under --rate they answer "what does the
// logger cost per request" where requests/s also measures the machine's speed of the moment. What
// V8's compilers executed per request, counted apart (valgrind only), is shown, not compared.
const MEASURES = recordMeasures('http', {
  // The server's event-loop delay under load: the p99 of its worker with the highest, in ms.
  eventLoopDelayP99Ms: { value: (r) => (r.eventLoopDelayNs?.p99 == null ? null : r.eventLoopDelayNs.p99 / 1e6) }
})

// Counted instructions per request have a noise threshold of their own, wider than per event's ±1%:
// a counted server's count per request over 300 more requests moves in steps of about 1.3% from run
// to run (none at 0 logs: 1,278,532 to 1,278,836 in three runs, 1,294,845 and 1,295,916 in two;
// docs/costs.md). ±1% would read identical code `unclear` however many runs it had. Since a counted
// server collects garbage as its allocation says (docs/costs.md, "Collections that follow
// allocation") its count repeats to under 1% (0.07–0.61% per cell); the threshold stays until
// more than one session has measured that. The figure is the schema's (x-measure noise).
export const REQUEST_INSTRUCTIONS_NOISE = MEASURES.find((m) => m.field === 'instructionsPerRequest').noise

// Requests per second have a threshold of their own too, ±5%, whatever --noise says: a server's
// requests/s take in the kernel, the loopback and the load generator besides the logger, and even
// with each run carrying its own baseline (--alternate) an A/A on our 2-core VM (`none` against its
// own baseline) read +2.2% [−1.1%, +5.9%] over 10 rounds of 6 s, −0.9% [−7.1%, +9.0%] over 6
// (docs/comparisons.md): at ±2% the control (every library at 0 logs per request against `none`)
// could read `same` only on a quiet machine; the costs the HTTP page measures are far larger
// (docs/comparisons.md gives both). The figure is the schema's (x-measure noise).
export const REQ_PER_SEC_NOISE = MEASURES.find((m) => m.field === 'reqPerSec').noise

// The noise threshold a field is judged with where it has its own, else null (--noise's).
export const noiseOfField = (field) => MEASURES.find((m) => m.field === field)?.noise ?? null

// The results schema's checks ($defs.httpRecord), then: a finished run has its load figures.
function validate (run) {
  const problem = schemaProblem(run, 'http')
  if (problem) return problem
  // A counted run (--measure instructions) has no times: instructions per request instead.
  if (run.measure === 'instructions') {
    if (run.ok && typeof run.instructionsPerRequest !== 'number') return { record: true, problem: 'is a counted run marked ok but has no instructionsPerRequest' }
  } else if (run.ok && (typeof run.reqPerSec?.mean !== 'number' || typeof run.latencyMs?.p50 !== 'number')) return { record: true, problem: 'is marked ok but has no reqPerSec/latencyMs figures' }
  return null
}

const identity = identityReader('http')

const COMPARISON_FIELDS = ['ratio', 'ciLow', 'ciHigh', 'coverage', 'p', 'verdict', 'runsToDecide', 'n', 'nBaseline', 'paired', 'pairs', 'alternated']
const pick = (object, fields) => Object.fromEntries(fields.map((f) => [f, object[f]]))

// Across cells: each library against `none` in the same cell (its comparison group), by the one
// comparison (judge, src/results/judge/verdict.js): `throughputVsBaseline` (ratio of medians, its interval, p,
// verdict) and `throughputChangePct`, that ratio as a change in percent; `p99VsBaseline` likewise
// for the p99 latency (lower is better).
function relate (entries, { runsOf, comparisonGroupKey, valueOf, roundOf = null }) {
  for (const entry of entries) {
    const baseline = entry.lib === BASELINE
      ? null
      : entries.find((s) => s.lib === BASELINE && comparisonGroupKey(s) === comparisonGroupKey(entry))
    const against = (field) => {
      const measure = MEASURES.find((m) => m.field === field)
      if (!baseline) return null
      return judge(runsOf(baseline), runsOf(entry), { ...measure, value: valueOf(measure) }, { roundOf })
    }
    const compared = against('reqPerSec')
    entry.throughputVsBaseline = compared?.ratio != null ? pick(compared, COMPARISON_FIELDS) : null
    entry.throughputChangePct = compared?.ratio != null ? (compared.ratio - 1) * 100 : null
    const p99 = against('latencyP99Ms')
    entry.p99VsBaseline = p99?.ratio != null ? pick(p99, COMPARISON_FIELDS) : null
    // The cost per request against none's: CPU time, and counted instructions (noise ±3%).
    const cpu = against('serverCpuUsPerRequest')
    entry.cpuPerRequestVsBaseline = cpu?.ratio != null ? pick(cpu, COMPARISON_FIELDS) : null
    const instructions = against('instructionsPerRequest')
    entry.instructionsPerRequestVsBaseline = instructions?.ratio != null ? pick(instructions, COMPARISON_FIELDS) : null
  }
}

export const HTTP_TYPE = {
  name: 'http',
  command: 'log-bench http',
  dimensions: DIMENSIONS,
  words: dimensionWords('http', WORDS),
  measures: MEASURES,
  groupWords: 'transport, workers and load',
  validate,
  empty: () => emptyMeasures('http', DIMENSIONS),
  identity,
  counts: () => ({}),
  relate
}
