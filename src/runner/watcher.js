import { Interrupted, RunFailure } from '../errors.js'

// Waits for conditions on a run's state, failing on a reported failure, the run's time limit, or an
// interrupt. One watcher per run, for `run` and `http` alike: a failure reported while nothing is
// waited for is kept and rejects the next wait.
export function watcher (signal, timeoutMs) {
  let waiter = null
  let failure = null
  // Whether the caller threw, apart from what: a listener may throw undefined or null.
  let threw = false
  let thrown
  let phase = 'starting'
  const check = () => {
    if (!waiter) return
    if (threw) return waiter.reject(thrown)
    if (signal?.aborted) return waiter.reject(new Interrupted(signal.reason ?? 'SIGINT'))
    if (failure) return waiter.reject(new RunFailure(failure.message, failure.kind))
    if (waiter.condition()) waiter.resolve()
  }
  const onTimeout = () => {
    const limitS = timeoutMs / 1000
    failure ??= { message: `timed out after ${limitS} s while ${typeof phase === 'function' ? phase() : phase}`, kind: { kind: 'timeout', limitS } }
    check()
  }
  let timer = setTimeout(onTimeout, timeoutMs)
  const onAbort = () => check()
  signal?.addEventListener('abort', onAbort)
  return {
    poke: check,
    // reason: the sentence; kind: what kind of failure it was (see RunFailure).
    fail (reason, kind = { kind: 'error' }) { failure ??= { message: reason, kind }; check() },
    // An error that is not the run's but its caller's (a 'live' listener that threw, from a timer):
    // the wait rejects with it as it is, so the run is ended and the job rejects with it, as it does
    // when any other listener throws.
    throw (err) {
      if (!threw) [threw, thrown] = [true, err]
      check()
    },
    until (condition, name) {
      phase = name
      return new Promise((resolve, reject) => {
        waiter = { condition, resolve, reject }
        check()
      }).finally(() => { waiter = null })
    },
    race (promise, name) {
      phase = name
      return new Promise((resolve, reject) => {
        waiter = { condition: () => false, resolve () {}, reject }
        check()
        promise.then(resolve, reject)
      }).finally(() => { waiter = null })
    },
    // A new limit, counted from now (a run's setup has its own: see SETUP_LIMIT_MS in src/run/run-once.js).
    restart (limitMs) {
      timeoutMs = limitMs
      clearTimeout(timer)
      timer = setTimeout(onTimeout, timeoutMs)
    },
    dispose () {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
  }
}
