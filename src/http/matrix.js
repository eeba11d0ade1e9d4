import os from 'node:os'
import { cellUnsupported, runtimeUnsupported } from '../runner/unsupported.js'
import { currentRuntime, runtimeBinary } from '../versions/runtimes.js'
import { cellKey, defaultSink, workersLabel } from '../results/model.js'
import { middlewareUnsupportedReason, requestLoggerInfo } from './request-loggers.js'
import { countingUnsupported } from '../engine/instructions.js'
import { BASELINE } from '../results/http-summary.js'
import { DEFAULT_WORKLOAD } from '../engine/workloads.js'

// Seconds a run may take beyond its warm-up and load: forking the server, building the logger,
// closing it and reading back every event.
const SETUP_AND_VERIFY_SECONDS = 120
const COUNTED_SETUP_SECONDS = 600

// Cells in plan order: transport, workers, logs per request, size, then the libraries with the `none`
// baseline first (runCells interleaves their runs, or keeps this order with --order blocked).
// Each cell has the shape runCells (src/runner/orchestrator.js) runs, like the cells of `run`: plain
// data, its settings executed by src/http/run-type.js.
export function planHttpCells ({
  libs,
  transports,
  cpus,
  mode,
  logsPerRequest,
  sizes,
  load,
  port,
  runs,
  runtimes = [currentRuntime()],
  receiverOptions = {},
  placement = null,
  counter = null
}) {
  const ordered = [...libs.filter((l) => l.name === BASELINE), ...libs.filter((l) => l.name !== BASELINE)]
  // Counted, the longer of the two runs is twice --rate × --duration requests (src/http/counted.js), and the server
  // starts and warms up under the simulator, tens of times slower than on the CPU.
  const timeoutMs = (load.warmupSeconds + (counter ? 2 : 1) * load.durationSeconds + (counter
    ? COUNTED_SETUP_SECONDS
    : SETUP_AND_VERIFY_SECONDS)) * 1000
  const { sinkName, ...receiver } = receiverOptions
  const cells = []
  // Request loggers come with their control: the route at 0 logs per request, the same libraries
  // loaded and nothing logged (one size: at 0 logs it changes nothing). Its verdicts say whether the
  // machine's noise leaves the request loggers' differences readable (src/report/http/glance.js).
  const passes = mode === 'middleware'
    ? [{ mode: 'route', logs: [0], sizes: sizes.slice(0, 1), libs: ordered.filter((l) => l.name === BASELINE || !middlewareUnsupportedReason(l.name)) }, { mode, logs: [null], sizes, libs: ordered }]
    : [{ mode, logs: logsPerRequest, sizes, libs: ordered }]
  for (const transport of transports) {
    for (const workers of cpus) {
      for (const pass of passes) {
        cells.push(...planPass({ ...pass, transport, workers }))
      }
    }
  }
  return cells

  function planPass ({ mode, logs: logCounts, sizes, libs, transport, workers }) {
    const cells = []
    for (const logs of logCounts) {
      for (const size of sizes) {
        for (const runtime of runtimes) {
          for (const lib of libs) {
            // The record's fields first, in its order (recordedSettings takes them from here).
            const settings = {
              type: 'http',
              lib: lib.name,
              libVersion: lib.version,
              ...(lib.range != null ? { libRange: lib.range } : {}),
              runtime: runtime.label,
              mode,
              ...(mode === 'middleware' ? requestLoggerInfo(lib.name) : { middleware: null, middlewareVersion: null }),
              transport,
              sink: receiverOptions.sinkName?.(transport) ?? defaultSink(transport),
              cpus: workers,
              logsPerRequest: logs,
              size,
              ...load,
              // Where the server and the load run is part of what is measured (null: not pinned).
              serverCpus: placement?.serverCpus ?? null,
              loadCpus: placement?.loadCpus ?? null,
              ...(counter ? { measure: 'instructions', ...counter } : {}),
              // How the runs are made, beside what the record says (adapterProblem: see src/run/plan.js;
              // taskset: the server and the load are pinned, else notPinned says why not).
              adapterFile: lib.file ?? null,
              libDir: lib.libDir ?? null,
              ...(lib.problem ? { adapterProblem: lib.problem } : {}),
              verify: lib.adapter?.verifies !== false,
              runtimeBinary: runtimeBinary(runtime),
              port,
              timeoutMs,
              receiver,
              ...(placement?.pinned ? { taskset: placement.taskset } : { notPinned: placement?.reason ?? 'not asked for' })
            }
            cells.push({
              key: cellKey(settings),
              label: cellLabel(settings),
              settings,
              runs,
              unsupported: (counter ? countingUnsupported(runtime) : null) ??
                unsupportedReason({ lib, mode, transport, runtime, workers }),
              runDirBase: os.tmpdir()
            })
          }
        }
      }
    }
    return cells
  }
}

function unsupportedReason ({ lib, mode, transport, runtime, workers }) {
  const runtimeReason = runtimeUnsupported(runtime)
  if (runtimeReason) return runtimeReason
  if (runtime.name !== 'node' && workers > 1) return `several server workers share their port through node:cluster, which log-bench uses under Node only; under ${runtime.label} give --cpus 1`
  if (lib.name === BASELINE) return null
  if (mode === 'middleware' && lib.range != null) return `request loggers are the project's (pino-http, express-winston, log4js connectLogger), written for its own ${lib.name}, not ${lib.name}@${lib.version}`
  const reason = cellUnsupported(lib, 'default', transport, DEFAULT_WORKLOAD)
  if (reason) return reason
  if (mode === 'middleware') return middlewareUnsupportedReason(lib.name)
  return null
}

export function cellLabel ({
  lib,
  libRange,
  libVersion,
  runtime,
  mode,
  transport,
  cpus,
  logsPerRequest,
  size,
  rate = null,
  measure = null
}) {
  const what = mode === 'middleware' ? 'request logger' : `${logsPerRequest} logs/request`
  const name = libRange != null ? `${lib}@${libVersion}` : lib
  return `http ${name} ${what}, ${size} B, ${transport}, ${workersLabel(cpus, 'server')}${rate ? ` at ${rate} req/s` : ''}${measure === 'instructions' ? ' (instructions)' : ''}${runtime && runtime !== currentRuntime().label ? ` (${runtime})` : ''}`
}
