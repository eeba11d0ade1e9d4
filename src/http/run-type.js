import { planHttpCells } from './matrix.js'
import { runHttpOnce } from './run-once.js'
import { runHttpCounted } from './counted.js'
import { HTTP_TYPE } from '../results/run-types/http.js'

// The `http` type's side of running, as src/run/run-type.js is the `run` type's: plan(options) →
// cells, execute(settings, { signal }) → a record's measures for one run, describe(record) → its
// progress line.
export const HTTP_EXECUTOR = {
  name: 'http',
  plan: planHttpCells,
  execute,
  describe: (record) => (record.measure === 'instructions' ? describeCountedHttpRun(record) : describeHttpRun(record))
}

// Counted instructions (--measure instructions) are a branch of the same settings: measure says which.
async function execute (settings, { signal = null } = {}) {
  if (settings.adapterProblem) return { ...HTTP_TYPE.empty(), ok: false, status: 'failed', error: settings.adapterProblem, failure: { kind: 'error' } }
  if (settings.measure === 'instructions') return runHttpCounted(settings, { signal })
  return runHttpOnce(settings, { signal })
}

function describeHttpRun (record) {
  return `${Math.round(record.reqPerSec.mean).toLocaleString('en-US')} req/s, p99 ${record.latencyMs.p99} ms, ${record.serverCpuUsPerRequest == null ? '' : `server CPU ${record.serverCpuUsPerRequest.toFixed(1)} µs/request, `}events ${record.received ?? '?'}/${record.sent}`
}

function describeCountedHttpRun (record) {
  const compiler = record.compilerInstructionsPerRequest == null ? '' : ` + ${Math.round(record.compilerInstructionsPerRequest).toLocaleString('en-US')} in V8's compilers`
  return `${Math.round(record.instructionsPerRequest).toLocaleString('en-US')} server instructions per request${compiler} (${record.instructionsMethod}, ${record.countedRequests} requests counted), events ${record.received ?? '?'}/${record.sent}`
}
