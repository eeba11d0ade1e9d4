import { compareWithBaseline } from '../report/compare.js'
import { runSession } from '../runner/session.js'
import { runTypes } from './run-types.js'
import { Interrupted } from '../errors.js'

// A prepared plan ({ cells, out, env, previous, order, retryTimeouts, comparison, release }, from
// prepareRun or prepareHttp), run to its results document; see runSession. The output's lock is
// released however it ends.
export async function runPrepared (prepared, { signal = null, progress = {} } = {}) {
  const { cells, out, env, previous, order, retryTimeouts, release, comparison } = prepared
  // A signal aborted before the session begins: nothing has run, so nothing is written (no document,
  // as when aborted while a version installs); the session would record an interrupted run.
  if (signal?.aborted) {
    release()
    throw new Interrupted(typeof signal.reason === 'string' ? signal.reason : 'abort')
  }
  try {
    const alpha = comparison?.alpha
    return await runSession({ cells, runTypes, out, env, previous, order, retryTimeouts, signal, progress, alpha })
  } finally {
    release()
  }
}

// A job of the API claims this process's CPU affinity where its runs set it (joinJob's claim); a
// refused job releases the output it had locked, as a job that ends does.
export function claimOrRelease (job, prepared) {
  try {
    job.claim(prepared.cells)
  } catch (err) {
    prepared.release()
    throw err
  }
}

// --baseline's comparison of a finished document (compare's rows), or null without --baseline.
export function baselineComparison (doc, prepared) {
  const { comparison } = prepared
  return comparison ? compareWithBaseline(doc, comparison.baseline, comparison) : null
}
