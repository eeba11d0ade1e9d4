import os from 'node:os'
import { cellKey, defaultSink } from '../results/model.js'
import { DEFAULT_WORKLOAD } from '../engine/workloads.js'
import { DEFAULT_VARIANT, libLabel } from '../loggers/index.js'
import { currentRuntime } from '../versions/runtimes.js'
import { cellUnsupported, runtimeUnsupported } from '../runner/unsupported.js'
import { runOnce } from './run-once.js'
import { runCounted } from './counted.js'
import { countingUnsupported } from '../engine/instructions.js'
import { RUN_TYPE } from '../results/run-types/run.js'
import { DEFAULT_ENDING } from '../engine/endings.js'

// Expands checked `run` options into cells in the order they run: transport, library (and
// variant), runtime, workload, worker count, size. A cell knows how to execute one of its runs and
// what an empty record looks like.
export function planRunCells ({ libs, transports, workloads = [DEFAULT_WORKLOAD], runtimes = [currentRuntime()], cpus, sizes, events, rate = null, endings = [DEFAULT_ENDING], counter = null, runs, timeoutMs, maxOldSpaceSize, receiverOptions = {}, dir }) {
  const cells = []
  for (const transport of transports) {
    for (const lib of libs) {
      const variant = lib.variant ?? DEFAULT_VARIANT
      for (const runtime of runtimes) {
        for (const workload of workloads) {
          for (const workers of cpus) {
            // Each size under each ending (a loop of its own would re-indent the cell below).
            for (const { payload, ending } of sizes.flatMap((size) => endings.map((ending) => ({ ...size, ending })))) {
              const sink = receiverOptions.sinkName?.(transport) ?? defaultSink(transport)
              const slow = SLOWED_SINKS.includes(sink) ? slowReceiver(receiverOptions) : {}
              const common = {
                type: 'run',
                lib: lib.name,
                variant,
                workload,
                libVersion: lib.adapter.baseline ? baselineVersion(lib, runtime) : lib.version,
                ...(lib.range != null ? { libRange: lib.range } : {}),
                runtime: runtime.label,
                transport,
                sink,
                cpus: workers,
                events,
                size: Buffer.byteLength(payload),
                // Paced logging is another measurement; a tight-loop record has no rate.
                ...(rate ? { rate } : {}),
                ending,
                ...slow,
                // Counted instructions are another measurement (nothing in them is a time), and so
                // is each counter; a timed record has neither.
                ...(counter ? { measure: 'instructions', instructionsMethod: counter.method } : {})
              }
              const execute = counter ? runCounted : runOnce
              cells.push({
                key: cellKey(common),
                label: `${libLabel(lib.name, variant, lib.range != null ? lib.version : null)} ${transport} ${workers} cpu${workers > 1 ? 's' : ''}${common.size !== 13 ? ` ${common.size} B` : ''}${workload !== DEFAULT_WORKLOAD ? ` ${workload}` : ''}${rate ? ` at ${rate}/s` : ''}${counter ? ' (instructions)' : ''}${ending !== DEFAULT_ENDING ? ` ending ${ending}` : ''}${slow.receiverRate ? ` read at ${slow.receiverRate} B/s` : ''}${slow.receiverStallMs ? ` stalled ${slow.receiverStallMs} ms` : ''}${runtimes.length > 1 || runtime.spec !== 'node' ? ` (${runtime.label})` : ''}`,
                describe: counter ? describeCounted : describeRun,
                common,
                runs,
                unsupported: runtimeUnsupported(runtime, maxOldSpaceSize) ?? (counter ? countingUnsupported(runtime) : null) ?? cellUnsupported(lib, variant, transport, workload) ?? endingUnsupported(lib, ending),
                empty: RUN_TYPE.empty,
                // Where its run directories go: the session removes what a killed log-bench left there first.
                runDirBase: dir ?? os.tmpdir(),
                // An adapter whose declarations are unusable (src/loggers/index.js) fails every run with the reason.
                execute: lib.problem ? async () => ({ ...RUN_TYPE.empty(), ok: false, status: 'failed', error: lib.problem, failure: { kind: 'error' } }) : (signal, onLive) => execute({ adapterFile: lib.file, libDir: lib.libDir ?? null, libVersion: lib.version, runtime, transport, cpus: workers, events, payload, workload, variant, rate, ending, counter, timeoutMs, maxOldSpaceSize, signal, verify: lib.adapter.verifies !== false, receiverOptions: { ...receiverOptions, ...slow }, baseDir: dir ?? undefined, onLive: counter ? null : onLive })
              })
            }
          }
        }
      }
    }
  }
  return cells
}

// The receiving ends that --receiver-rate and --receiver-stall can slow: the console's stream
// reader and the embedded sink's TCP connections (src/sinks/slow-reader.js).
const SLOWED_SINKS = ['pipe', 'embedded-tcp']

// Only what was asked for: a record at full speed has neither field.
function slowReceiver ({ receiverRate = null, receiverStallMs = null }) {
  return { ...(receiverRate ? { receiverRate } : {}), ...(receiverStallMs ? { receiverStallMs } : {}) }
}

// noop sends nothing: an ending has nothing to lose there.
function endingUnsupported (lib, ending) {
  if (ending !== DEFAULT_ENDING && lib.adapter.verifies === false) return `${lib.name} sends nothing, so an ending has nothing to lose: --ending ${ending} is measured on loggers that deliver`
  return null
}

// A baseline's "version" is that of the runtime its plain code runs on (process.version).
function baselineVersion (lib, runtime) {
  if (runtime.spec === 'node') return lib.version
  return runtime.name === 'node' ? `v${runtime.version}` : runtime.version
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
