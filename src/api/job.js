import { EventEmitter } from 'node:events'

// What run() and http() return: an EventEmitter of the session's progress that is also a promise
// of the results document (as autocannon's instance is an emitter with a callback):
//   const job = run(options); job.on('run', ({ record }) => …); const doc = await job
// Events: 'start' { runs, estimateMs } (estimateMs: how long the runs take by src/runner/estimate.js's
// rule), 'run-start' { label, run, runs, timeoutMs }, 'live' { elapsedMs, arrived, bytes,
// rssBytes }, 'run' { label, run, detail, record }, 'skip' { label, runs, reason }, 'note' text,
// 'warning' text (about what is measured, e.g. a fallback reader, or run directories cleaned up), 'comparison' (run's
// baseline option: compare's result), 'done' document.
// `work(progress)` does the job; progress is the session's progress interface (src/runner/session.js).
export class Job extends EventEmitter {
  constructor (work) {
    super()
    const progress = {
      begin: (runs, { clock = null } = {}) => this.emit('start', { runs, estimateMs: clock ? Math.round(clock.totalMs()) : null }),
      runStart: ({ label, run, runs, timeoutMs = null }) => this.emit('run-start', { label, run, runs, timeoutMs }),
      live: (figures) => this.emit('live', figures),
      runEnd: (label, run, detail, { record = null } = {}) => this.emit('run', { label, run, detail, record }),
      skip: (label, runs, reason) => this.emit('skip', { label, runs, reason }),
      note: (text) => this.emit('note', text),
      warning: (text) => this.emit('warning', text),
      comparison: (result) => this.emit('comparison', result)
    }
    // Started on the next tick, so that listeners attached right after run() see every event.
    this.promise = new Promise((resolve) => setImmediate(resolve)).then(() => work(progress)).then((doc) => {
      this.emit('done', doc)
      return doc
    })
    // A job nobody awaits fails quietly instead of as an unhandled rejection; awaiting it rejects.
    this.promise.catch(() => {})
  }

  then (onResolved, onRejected) {
    return this.promise.then(onResolved, onRejected)
  }

  catch (onRejected) {
    return this.promise.catch(onRejected)
  }

  finally (onFinally) {
    return this.promise.finally(onFinally)
  }
}
