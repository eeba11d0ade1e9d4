import { runOnce } from './run-once.js'
import { uncountedFields } from '../results/schema.js'

// One run of a `--measure instructions` cell: two passes of the cell in fresh processes, N and 2N
// events per worker, every worker counted whole by the counter (src/engine/instructions.js). What
// both passes share (starting Node, loading the library, building the logger, the barrier, the
// counter's own start and exit) cancels in the difference; what is left is the cost of N more
// events, from the first call to close(), on every thread of the process. The syscalls and bytes
// written per event are the same difference of the workers' /proc/self/io readings (first call to
// close). The passes run at the same time, one per core: a count does not depend on the CPU time a
// process gets. The record is the N pass's (its counts of events are the cell's), with the
// measures taken under the simulator that are not times left out: nothing in it is a time.
// settings: the cell's (measure 'instructions', instructionsMethod and instructionsTool among them).
export async function runCounted (settings, { signal = null } = {}) {
  const { events, cpus } = settings
  // Both passes end (their processes stopped, their directories removed) before an interrupt or a
  // failure of one is passed on: Promise.all would pass it on while the other still cleans up.
  const passes = await Promise.allSettled([
    runOnce(settings, { signal }),
    runOnce({ ...settings, events: 2 * events }, { signal })
  ])
  const thrown = passes.find((p) => p.status === 'rejected')
  if (thrown) throw thrown.reason
  const [single, double] = passes.map((p) => p.value)
  if (!single.ok) return withoutTimes(single)
  if (!double.ok) {
    return withoutTimes({ ...single, ok: false, status: 'failed', error: `the pass of ${2 * events} events per worker (the counted difference's second pass) failed: ${double.error}`, failure: double.failure ?? { kind: 'error' } })
  }
  const sent = cpus * events
  const perEvent = (field) => (single[field] == null || double[field] == null
    ? null
    : (double[field] * double.sent - single[field] * single.sent) / sent)
  return withoutTimes({
    ...single,
    instructionsPerEvent: (double.instructions - single.instructions) / sent,
    instructionsMethod: settings.instructionsMethod,
    syscallsReadPerEvent: perEvent('syscallsReadPerEvent'),
    syscallsWritePerEvent: perEvent('syscallsWritePerEvent'),
    bytesWrittenPerEvent: perEvent('bytesWrittenPerEvent'),
    // The counts of events are the N pass's; what the 2N pass lost is a finding too.
    secondPassDropRate: double.dropRate
  })
}

// Times, rates and CPU figures taken under the simulator run 20 to 50 times slow and are not times;
// memory under valgrind is valgrind's. They stay out of the record (null), never shown as times:
// the schema's fields marked x-counted: false.
const SIMULATED = uncountedFields('run')

function withoutTimes (record) {
  const out = { ...record }
  for (const field of SIMULATED) if (field in out) out[field] = null
  delete out.instructions
  out.timeseries = []
  return out
}
