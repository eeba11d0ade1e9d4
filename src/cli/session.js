import { exitCodeFor, Interrupted, STOP_SIGNALS } from '../errors.js'
import { baselineComparison, runPrepared } from '../api/session.js'
import { lastResort } from '../engine/last-resort.js'
import { answerJson, closingAnswer, renderAnswer } from '../report/answer.js'
import { renderComparison } from '../report/compare.js'
import { terminalWidth } from '../draw/table.js'
import { renderTerminal } from '../report/terminal.js'
import { createProgress } from './progress.js'

// The terminal's side of a session (run, http): progress on stderr; Ctrl-C, SIGTERM, a hang-up
// (SIGHUP) and SIGQUIT stop the current run and keep what finished (a second one exits at once,
// leaving the runs finished so far saved: see src/engine/last-resort.js).
// Returns the document; an interrupt exits with its code once the results so far are saved.
export async function runInTerminal (prepared, { quiet = false, resumeHint = '' } = {}) {
  const controller = new AbortController()
  const onSignal = (signal) => {
    if (controller.signal.aborted) {
      // The second: no more waiting, yet the run's processes and directory go and the runs so far stay saved.
      lastResort()
      process.stderr.write(`\n${signal} again: stopped at once; the runs finished so far are in ${prepared.out}${resumeHint}\n`)
      process.exit(exitCodeFor(signal))
    }
    process.stderr.write(`\n${signal}: stopping the current run and saving the results so far\n`)
    controller.abort(signal)
  }
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal)
  const printer = createProgress({ quiet })
  const progress = {
    ...printer,
    // Not progress but a warning about what is measured: said even with --quiet.
    warning: (text) => process.stderr.write(`log-bench: ${text}\n`)
  }
  try {
    return await runPrepared(prepared, { signal: controller.signal, progress })
  } catch (err) {
    if (!(err instanceof Interrupted)) throw err
    process.stderr.write(`interrupted: results so far are in ${prepared.out}${resumeHint}\n`)
    // The results are saved and every process of the run has ended: the exit does not wait for the
    // event loop to empty, which any handle a cut-short run left open would prevent.
    process.exit(exitCodeFor(err.signal))
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal)
  }
}

// What run and http print on stdout when they finish: the tables (the terminal export), --baseline's
// comparison, the closing answer and the results file; with --json, the closing answer as JSON alone.
// Nothing is wider than the terminal (terminalWidth).
export function printFinished (doc, prepared, { json = false, stream = process.stdout } = {}) {
  const answer = closingAnswer(doc, prepared.comparison ?? {})
  if (json) {
    stream.write(answerJson(answer, { file: prepared.out }))
    return
  }
  const width = terminalWidth(stream)
  stream.write(renderTerminal(doc, { color: Boolean(stream.isTTY), width, file: prepared.out }))
  for (const note of prepared.externalNotes) stream.write(note)
  const comparison = baselineComparison(doc, prepared)
  if (comparison) stream.write(`\n${renderComparison(comparison, { width })}`)
  stream.write(`\n${renderAnswer(answer, { width, file: prepared.out })}`)
  stream.write(`\nresults: ${prepared.out}${finishNotes(doc)}\n`)
}

// Failed and skipped runs, said after the results file's name.
export function finishNotes (doc) {
  const failed = doc.runs.filter((r) => r.status === 'failed').length
  const skipped = doc.runs.filter((r) => r.status === 'skipped').length
  const notes = [failed ? `${failed} failed run${failed > 1 ? 's' : ''}` : '', skipped ? `${skipped} skipped after a time limit` : ''].filter(Boolean)
  return notes.length ? ` (${notes.join(', ')}, see above)` : ''
}
