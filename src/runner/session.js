import { Interrupted } from '../errors.js'
import { createStore } from '../results/store.js'
import { fallbackReaderNotes, readersLine } from '../sinks/index.js'
import { sweepOnce } from '../engine/run-dir.js'
import { busyWarning, sampleLoad } from '../results/env.js'
import { DEFAULT_ORDER, newSeed, runCells } from './orchestrator.js'
import { recordedDesigns } from './enough-rounds.js'
import { undecidableWarning } from './decidable.js'

// What a session tells about its progress; each member may be left out. The CLI draws it on
// stderr (src/cli/progress.js), the API emits it as events (src/api/job.js).
const SILENT = {
  begin () {},
  runStart () {},
  live () {},
  runEnd () {},
  skip () {},
  note () {},
  warning () {},
  end () {}
}

// Runs cells of any type into one results document, the same way for every caller (runTypes: the
// run types by name that execute the cells, see runCells): durable on disk
// after every run when `out` is given, in memory only otherwise. Prints nothing and installs no
// signal handlers: the caller's `signal` (an AbortSignal) stops the current run and keeps what
// finished. Its reason names what stopped it ('SIGINT' from the CLI); any other reason is 'abort'.
// The order of the runs (interleaved with a seed, or blocked) is recorded as env.order; --resume
// continues in the order of the file it resumes. Cells planned with --runs auto record their
// groups' design as env.order.sequential (recordedDesigns). A group too short of runs to decide at
// `alpha` is named in a warning before the first run (undecidableWarning).
// Resolves to the document; an interrupt rejects with Interrupted, whose `document` holds the
// runs so far (the current one recorded as interrupted), also saved to `out`.
export async function runSession ({
  cells,
  runTypes,
  out = null,
  env,
  previous = null,
  retryTimeouts = false,
  order = { mode: DEFAULT_ORDER, seed: null },
  signal = null,
  progress = {},
  alpha
}) {
  const report = { ...SILENT, ...progress }
  const sequential = recordedDesigns(cells)
  env.order = previous?.env?.order ?? { mode: order.mode, seed: order.mode === 'blocked' ? null : order.seed ?? newSeed(), ...(sequential ? { sequential } : {}) }
  const controller = new AbortController()
  const onAbort = () => controller.abort(typeof signal.reason === 'string' ? signal.reason : 'abort')
  if (signal?.aborted) onAbort()
  else signal?.addEventListener('abort', onAbort, { once: true })
  // Not progress but warnings about what is measured.
  const busy = busyWarning(env)
  if (busy) report.warning(busy)
  const undecidable = undecidableWarning(cells, { order: env.order, alpha })
  if (undecidable) report.warning(undecidable)
  const sinks = [...new Set(cells.map((cell) => cell.settings.sink))]
  for (const note of fallbackReaderNotes(sinks)) report.warning(note)
  for (const dir of new Set(cells.map((cell) => cell.runDirBase).filter(Boolean))) {
    const swept = sweepOnce(dir)
    if (swept) report.warning(swept)
  }
  // Which readers measure the arrivals, as \`list\` says: a figure depends on them.
  const readers = readersLine(sinks)
  if (readers) report.note(readers)
  if (previous) report.note(`resuming ${out}: ${previous.runs.filter((r) => r.status !== 'interrupted').length} finished runs kept`)
  const store = createStore({ out, env, previous })
  // Saved with the document after each run.
  const load = sampleLoad(store.doc.env)
  try {
    await runCells({ cells, runTypes, store, signal: controller.signal, progress: report, retryTimeouts, order: store.doc.env.order ?? { mode: 'blocked' } })
    return store.doc
  } catch (err) {
    if (err instanceof Interrupted) err.document = store.doc
    else store.discardIfEmpty()
    throw err
  } finally {
    load.stop()
    store.close()
    signal?.removeEventListener('abort', onAbort)
  }
}
