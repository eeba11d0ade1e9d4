import os from 'node:os'
import { cellKey, cellWords, defaultSink, varyingDimensions } from '../results/model.js'
import { DEFAULT_WORKLOAD } from '../engine/workloads.js'
import { DEFAULT_VARIANT } from '../loggers/index.js'
import { currentRuntime, runtimeBinary } from '../versions/runtimes.js'
import { cellUnsupported, runtimeUnsupported } from '../runner/unsupported.js'
import { countingUnsupported } from '../engine/instructions.js'
import { DEFAULT_ENDING } from '../engine/endings.js'
import { checkCores, coresSettings } from '../engine/cores.js'

// Expands checked `run` options into cells in the order they run: transport, library (and
// variant), runtime, workload, worker count, size, ending, rate, cores. A cell is plain data: its settings (everything
// one of its runs needs, one name per field, the record's and the option's name where they have
// one; src/run/run-type.js executes them) and how the session treats it (label: its words, which
// labelRunCells gives the whole plan's cells at once; runs, unsupported).
export function planRunCells ({
  libs,
  transports,
  workloads = [DEFAULT_WORKLOAD],
  runtimes = [currentRuntime()],
  cpus,
  sizes,
  events,
  rates = null,
  bursts = [null],
  endings = [DEFAULT_ENDING],
  cores = checkCores(),
  counter = null,
  profile = false,
  runs,
  timeoutMs,
  maxOldSpaceSize,
  receiverOptions = {},
  dir
}) {
  const cells = []
  for (const transport of transports) {
    for (const lib of libs) {
      const variant = lib.variant ?? DEFAULT_VARIANT
      for (const runtime of runtimes) {
        for (const workload of workloads) {
          for (const workers of cpus) {
            // Each size under each ending at each rate on each number of cores (loops of their own
            // would re-indent the cell below).
            const paces = rates ?? [null]
            const variations = sizes.flatMap((size) => endings.flatMap((ending) =>
              paces.flatMap((rate) => bursts.flatMap((burst) =>
                cores.map((limit) => ({ ...size, ending, rate, burst, limit }))))))
            // A variant may go to a receiving end of its own (bunyan:sys: syslog(3) to the local socket).
            const ownSink = lib.adapter.variants?.[variant]?.sinks?.[transport] ?? null
            const sink = ownSink ?? receiverOptions.sinkName?.(transport) ?? defaultSink(transport)
            const slowed = SLOWED_SINKS.includes(sink) ? slowReceiver(receiverOptions) : {}
            // A slowed cell comes with its control, the same cell read at full speed: what the
            // logger does anyway (its gaps, its memory) is not what the slow reader made it do
            // (src/results/judge/overload.js). Under another ending nothing is judged, so no control.
            const readers = Object.keys(slowed).length ? [slowed, {}] : [{}]
            for (const { payload, ending, rate, burst, limit, slow } of variations.flatMap((v) =>
              (v.ending === DEFAULT_ENDING ? readers : [slowed]).map((slow) => ({ ...v, slow })))) {
              // The record's fields first, in its order (recordedSettings takes them from here).
              const settings = {
                type: 'run',
                lib: lib.name,
                variant,
                workload,
                libVersion: lib.adapter.baseline ? baselineVersion(lib, runtime) : lib.version,
                ...(lib.range != null ? { libRange: lib.range } : {}),
                ...(lib.source ? { libSource: lib.source } : {}),
                runtime: runtime.label,
                transport,
                sink,
                cpus: workers,
                events,
                size: Buffer.byteLength(payload),
                // Paced logging is another measurement; a tight-loop record has no rate.
                ...(rate ? { rate } : {}),
                ending,
                // A run in bursts is another measurement; a record of one loop has no burst.
                ...(burst ? { burst } : {}),
                ...slow,
                // Counted instructions are another measurement (nothing in them is a time), and so
                // is each counter; a timed record has neither (instructionsTool: the counter's binary).
                ...(counter ? { measure: 'instructions', ...counter } : {}),
                // Profiled runs are timed under the profiler: cells of their own (docs/costs.md).
                ...(profile ? { profile: true } : {}),
                // --cores: the whole run on that many CPUs (EVERY_CORE: every CPU), and the list it gets.
                cores: limit,
                ...coresSettings(limit),
                ...runSettings({ lib, runtime, payload, timeoutMs, maxOldSpaceSize, receiverOptions, dir, localSocket: ownSink === 'rsyslog-local' })
              }
              cells.push({
                key: cellKey(settings),
                settings,
                runs,
                unsupported: runtimeUnsupported(runtime, maxOldSpaceSize) ??
                  (counter ? countingUnsupported(runtime) : null) ??
                  (profile && runtime.name !== 'node' ? `--profile uses Node's inspector; ${runtime.label} has no CPU profile there` : null) ??
                  cellUnsupported(lib, variant, transport, workload) ??
                  endingUnsupported(lib, ending),
                // Where its run directories go: the session removes what a killed log-bench left there first.
                runDirBase: dir ?? os.tmpdir()
              })
            }
          }
        }
      }
    }
  }
  return cells
}

// Each cell's progress line names what tells it apart from the plan's other cells. The plan labels them
// once, all together (src/api/run.js): a scenario's run groups labelled each on its own would read a
// 1-core cell like every other cell of its group, as the 1-worker cell on every core ("pino, Filesystem,
// 1 worker" for both).
export function labelRunCells (cells) {
  const shown = varyingDimensions(cells.map((cell) => cell.settings), { always: ['lib', 'transport', 'cpus'] })
  return cells.map((cell) => ({ ...cell, key: cell.key, label: cellWords(cell.settings, shown) }))
}

// How a run is made, beside what its record says: the adapter's file and folder (adapterProblem: an
// adapter whose declarations are unusable, src/loggers/index.js, fails every run with the reason),
// the message's payload, the runtime's binary, the limits, the receiving end's options (the
// receiver's own: the slowing ones are the record's receiverRate and receiverStallMs) and --dir.
function runSettings ({ lib, runtime, payload, timeoutMs, maxOldSpaceSize, receiverOptions, dir, localSocket }) {
  const { sinkName, receiverRate, receiverStallMs, ...options } = receiverOptions
  const receiver = localSocket ? { ...options, localSocket: true } : options
  return {
    adapterFile: lib.file,
    libDir: lib.libDir ?? null,
    ...(lib.problem ? { adapterProblem: lib.problem } : {}),
    verify: lib.adapter.verifies !== false,
    payload,
    runtimeBinary: runtimeBinary(runtime),
    timeoutMs,
    maxOldSpaceSize,
    receiver,
    dir: dir ?? null
  }
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
