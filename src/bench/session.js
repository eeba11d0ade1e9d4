import { EXIT, Interrupted } from '../errors.js'
import { createStore } from '../results/store.js'
import { fallbackReaderNotes } from '../sinks/index.js'
import { DEFAULT_ORDER, newSeed, runCells } from './orchestrator.js'
import { createProgress } from './progress.js'

// Runs cells of any type into one durable results document, the same way for every command:
// progress on stderr, Ctrl-C and SIGTERM stop the current run and keep what finished.
// The order of the runs (interleaved with a seed, or blocked) is recorded as env.order; --resume
// continues in the order of the file it resumes.
// Returns the document, or null when interrupted (process.exitCode is then set).
export async function runSession ({ cells, out, env, previous = null, quiet = false, resumeHint = '', retryTimeouts = false, order = { mode: DEFAULT_ORDER, seed: null } }) {
  env.order = previous?.env?.order ?? { mode: order.mode, seed: order.mode === 'blocked' ? null : order.seed ?? newSeed() }
  const controller = new AbortController()
  const onSignal = (signal) => {
    if (controller.signal.aborted) process.exit(signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED)
    process.stderr.write(`\n${signal}: stopping the current run and saving the results so far\n`)
    controller.abort(signal)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  // Not progress but a warning about what is measured: said even with --quiet.
  for (const note of fallbackReaderNotes([...new Set(cells.map((cell) => cell.common.sink))])) process.stderr.write(`log-bench: ${note}\n`)
  const progress = createProgress({ quiet })
  if (previous) progress.note(`resuming ${out}: ${previous.runs.filter((r) => r.status !== 'interrupted').length} finished runs kept`)
  const store = createStore({ out, env, previous })
  try {
    await runCells({ cells, store, signal: controller.signal, progress, retryTimeouts, order: store.doc.env.order ?? { mode: 'blocked' } })
    return store.doc
  } catch (err) {
    if (!(err instanceof Interrupted)) {
      store.discardIfEmpty()
      throw err
    }
    process.stderr.write(`interrupted: results so far are in ${out}${resumeHint}\n`)
    process.exitCode = err.signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED
    return null
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}
