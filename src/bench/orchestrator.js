import { cellKey, createDocument, summarize } from '../results/model.js'
import { writeJsonAtomic } from '../results/write.js'
import { Interrupted, runOnce } from './run-once.js'

// Expands the options into cells in the order they run: transport, library, worker count, size.
export function planCells ({ libs, transports, cpus, sizes }) {
  const cells = []
  for (const transport of transports) {
    for (const lib of libs) {
      for (const workers of cpus) {
        for (const size of sizes) cells.push({ lib, transport, cpus: workers, size })
      }
    }
  }
  return cells
}

// Runs every cell `runs` times in fresh processes, writing the results document after every run
// so a crash or Ctrl-C never loses finished work. Returns the document.
export async function runMatrix ({ cells, runs, events, timeoutMs, maxOldSpaceSize, out, env, signal, progress, receiverOptions }) {
  const doc = createDocument(env)
  const save = () => {
    doc.summary = summarize(doc.runs)
    writeJsonAtomic(out, doc)
  }
  save()
  progress.begin(cells.length * runs)
  try {
    for (const cell of cells) {
      const { lib, transport, cpus, size } = cell
      const common = { type: 'run', lib: lib.name, libVersion: lib.version, transport, sink: receiverOptions?.sinkName?.(transport) ?? defaultSink(transport), cpus, events, size: Buffer.byteLength(size.payload) }
      if (!lib.adapter.transports.includes(transport)) {
        doc.runs.push(unsupported(common, lib, transport))
        progress.skip(cellKey(common), runs, `unsupported: ${lib.name} has no ${transport} transport`)
        save()
        continue
      }
      for (let run = 1; run <= runs; run++) {
        progress.runStart({ ...common, run, runs })
        let result
        try {
          result = await runOnce({ adapterFile: lib.file, transport, cpus, events, payload: size.payload, timeoutMs, maxOldSpaceSize, signal, verify: lib.adapter.verifies !== false, receiverOptions })
          if (signal?.aborted) throw new Interrupted(signal.reason)
        } catch (err) {
          if (!(err instanceof Interrupted)) throw err
          doc.runs.push({ ...common, run, ...emptyMeasures(), ok: false, status: 'interrupted', error: err.message })
          doc.interrupted = true
          save()
          throw err
        }
        const record = { ...common, run, ...result }
        doc.runs.push(record)
        save()
        progress.runEnd(record)
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

function defaultSink (transport) {
  return { console: 'pipe', file: 'file' }[transport] ?? transport
}

function unsupported (common, lib, transport) {
  return {
    ...common,
    run: 1,
    ...emptyMeasures(),
    ok: false,
    status: 'unsupported',
    error: `${lib.name} has no ${transport} transport (it supports: ${lib.adapter.transports.join(', ') || 'none'})`
  }
}

function emptyMeasures () {
  return {
    sent: null, received: null, corrupt: null, duplicates: null, dropRate: null,
    unblockedMs: null, doneMs: null, eventsPerSec: null, mbPerSec: null,
    cpuUserMs: null, cpuSystemMs: null, maxRssBytes: null, totalRssPeakBytes: null, maxHeapBytes: null,
    gcCount: null, gcPauseMs: null, overheadMs: null, timeseries: []
  }
}
