import { Interrupted } from '../bench/run-once.js'
import { createDocument, summarize } from '../results/model.js'
import { writeJsonAtomic } from '../results/write.js'
import { cellLabel } from './progress.js'
import { middlewareUnsupportedReason, requestLoggerInfo } from './request-loggers.js'
import { emptyHttpMeasures, runHttpOnce } from './run-once.js'
import { BASELINE, runThroughputChange, summarizeHttp } from './summary.js'

// Seconds a run may take beyond its warm-up and load: forking the server, building the logger,
// closing it and reading back every event.
const SETUP_AND_VERIFY_SECONDS = 120

// Cells in the order they run: transport, workers, logs per request, size, then the libraries with the
// `none` baseline first, so each library is measured right after the baseline it is compared with.
export function planHttpCells ({ libs, transports, cpus, mode, logsPerRequest, sizes }) {
  const ordered = [...libs.filter((l) => l.name === BASELINE), ...libs.filter((l) => l.name !== BASELINE)]
  const cells = []
  for (const transport of transports) {
    for (const workers of cpus) {
      for (const logs of mode === 'middleware' ? [null] : logsPerRequest) {
        for (const size of sizes) {
          for (const lib of ordered) cells.push({ lib, mode, transport, cpus: workers, logsPerRequest: logs, size })
        }
      }
    }
  }
  return cells
}

function unsupportedReason ({ lib, mode, transport }) {
  if (lib.name === BASELINE) return null
  if (!lib.adapter.transports.includes(transport)) return `${lib.name} has no ${transport} transport (it supports: ${lib.adapter.transports.join(', ') || 'none'})`
  if (mode === 'middleware') return middlewareUnsupportedReason(lib.name)
  return null
}

// Runs every cell `runs` times in fresh processes and writes the results document after every run.
export async function runHttpMatrix ({ cells, runs, load, port, out, env, signal, progress }) {
  const doc = createDocument(env)
  const save = () => {
    doc.summary = [...summarize(doc.runs), ...summarizeHttp(doc.runs)]
    writeJsonAtomic(out, doc)
  }
  save()
  progress.begin(cells.length * runs)
  const timeoutMs = (load.warmupSeconds + load.durationSeconds + SETUP_AND_VERIFY_SECONDS) * 1000
  try {
    for (const cell of cells) {
      const { lib, mode, transport, cpus, logsPerRequest, size } = cell
      const common = {
        type: 'http',
        lib: lib.name,
        libVersion: lib.version,
        mode,
        ...(mode === 'middleware' ? requestLoggerInfo(lib.name) : { middleware: null, middlewareVersion: null }),
        transport,
        sink: { console: 'pipe', file: 'file' }[transport] ?? transport,
        cpus,
        logsPerRequest,
        size,
        ...load
      }
      const reason = unsupportedReason(cell)
      for (let run = 1; run <= runs; run++) {
        const label = cellLabel({ ...common, run, runs })
        if (signal?.aborted) {
          doc.interrupted = true
          save()
          throw new Interrupted(signal.reason ?? 'SIGINT')
        }
        let record
        if (reason) {
          record = { ...common, run, ...emptyHttpMeasures(), ok: false, status: 'unsupported', error: reason, throughputChangePct: null }
        } else {
          progress.runStart(label, load.warmupSeconds + load.durationSeconds)
          try {
            const result = await runHttpOnce({ lib, mode, transport, cpus, logsPerRequest, size, load, port, signal, timeoutMs })
            record = { ...common, run, ...result }
          } catch (err) {
            if (!(err instanceof Interrupted)) throw err
            doc.runs.push({ ...common, run, ...emptyHttpMeasures(), ok: false, status: 'interrupted', error: err.message, throughputChangePct: null })
            doc.interrupted = true
            save()
            throw err
          }
          record.throughputChangePct = runThroughputChange(record, doc.runs)
        }
        doc.runs.push(record)
        save()
        progress.runEnd(label, record)
      }
    }
    doc.complete = true
    doc.env.finishedAt = new Date().toISOString()
    save()
    return doc
  } finally {
    progress.end()
  }
}
