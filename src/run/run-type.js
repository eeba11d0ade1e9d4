import { planRunCells } from './plan.js'
import { runOnce } from './run-once.js'
import { runCounted } from './counted.js'
import { RUN_TYPE } from '../results/run-types/run.js'
import { limitToCores } from '../engine/cores.js'
import { cpusOf, measureThenRestore } from '../engine/affinity.js'
import { RunFailure } from '../errors.js'

// The `run` type's side of running: plan(options) → cells, execute(settings, { signal, onLive }) →
// a record's measures for one run of a cell, describe(record) → the progress line of a finished run.
// The session looks it up by the settings' type (src/api/run-types.js); nothing of a cell is a
// closure.
export const RUN_EXECUTOR = {
  name: 'run',
  plan: planRunCells,
  execute,
  describe: (record) => (record.measure === 'instructions' ? describeCounted(record) : describeRun(record))
}

// Counted instructions (--measure instructions) are a branch of the same settings: measure says which.
// Under --cores the run, from its receiving end to its last worker, is on the cell's CPUs.
async function execute (settings, { signal = null, onLive = null } = {}) {
  if (settings.adapterProblem) return failed(settings.adapterProblem)
  let limit
  try {
    limit = await limitToCores(settings)
  } catch (err) {
    if (err instanceof RunFailure) return failed(err.message)
    throw err
  }
  const allowedCpus = cpusOf(process.pid)
  const result = await measureThenRestore(limit, () => (settings.measure === 'instructions'
    ? runCounted(settings, { signal })
    : runOnce(settings, { signal, onLive })))
  return { ...result, allowedCpus }
}

function failed (error) {
  return { ...RUN_TYPE.empty(), ok: false, status: 'failed', error, failure: { kind: 'error' } }
}

function describeCounted (record) {
  const received = record.received != null ? `, received ${record.received}/${record.expected ?? record.sent}` : ''
  const syscalls = record.syscallsWritePerEvent != null ? `, ${record.syscallsWritePerEvent.toFixed(3)} write syscalls` : ''
  return `${Math.round(record.instructionsPerEvent).toLocaleString('en-US')} instructions per event (${record.instructionsMethod})${syscalls}${received}`
}

function describeRun (record) {
  const received = record.received != null ? `, received ${record.received}/${record.expected ?? record.sent}` : ''
  const paced = record.rate && record.loggingMs != null ? ` (paced over ${record.loggingMs.toFixed(0)} ms)` : ''
  return `unblocked ${record.unblockedMs.toFixed(0)} ms${paced}, done ${record.doneMs.toFixed(0)} ms${received}`
}
