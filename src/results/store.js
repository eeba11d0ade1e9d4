import fs from 'node:fs'
import { atLastResort } from '../engine/last-resort.js'
import { UsageError } from '../errors.js'
import { createDocument } from './model.js'
import { roundsOf } from './rounds.js'
import { SUMMARIZERS } from './summaries.js'
import { writeJsonAtomic } from './write.js'

// The results document of one invocation, kept durable: every finished run is on disk (atomically
// rewritten) before the next one starts (with `out` null, the document is kept in memory only). `previous` continues a
// partial document (--resume): its finished runs are kept, an interrupted run is dropped so that it runs again.
export function createStore ({ out, env, previous = null, summarizers = SUMMARIZERS }) {
  const doc = previous ? resumeDocument(previous, env) : createDocument(env)
  let saved = null
  const save = () => {
    doc.summary = summarizers.flatMap((summarizeRuns) => summarizeRuns(doc.runs, { roundOf: roundsOf(doc) }))
    if (out == null) return
    try {
      writeJsonAtomic(out, doc)
    } catch (err) {
      // The file on disk is still the last complete save (or absent): say what it holds.
      if (!(err instanceof UsageError)) throw err
      throw new UsageError(`${err.message}; ${saved ? `${out} still holds the ${saved} runs saved before` : 'no run was saved'}`)
    }
    saved = doc.runs.length
  }
  save()
  // A second stop signal exits at once (src/engine/last-resort.js): the runs so far stay saved, marked interrupted.
  const saveInterrupted = () => {
    doc.interrupted = true
    save()
  }
  const forget = out == null ? () => {} : atLastResort('results', saveInterrupted)
  return {
    doc,
    out,
    // The session has ended (finished, interrupted or failed): nothing more to save at exit.
    close: forget,
    // A session that failed before it saved a run: leave no empty results file that asks for --resume.
    discardIfEmpty () {
      if (out != null && !previous && saved === 0) fs.rmSync(out, { force: true })
    },
    add (record) {
      doc.runs.push(record)
      save()
    },
    // Records that took no time (unsupported cells, a cell's runs skipped after a time limit): one
    // save for them all, not one rewrite of a growing file each.
    addAll (records) {
      if (!records.length) return
      doc.runs.push(...records)
      save()
    },
    // Run numbers of a cell already in the document (resume skips them).
    finishedRuns (key, keyOf) {
      return new Set(doc.runs.filter((r) => keyOf(r) === key).map((r) => r.run))
    },
    interrupted (record) {
      doc.runs.push(record)
      doc.interrupted = true
      save()
    },
    complete () {
      doc.complete = true
      doc.env.finishedAt = new Date().toISOString()
      save()
    }
  }
}

function resumeDocument (previous, env) {
  return {
    ...previous,
    complete: false,
    interrupted: false,
    env: { ...previous.env, resumedAt: [...(previous.env.resumedAt ?? []), env.time] },
    runs: previous.runs.filter((r) => r.status !== 'interrupted')
  }
}
