import fs from 'node:fs'
import { Session } from 'node:inspector'

// run --profile, in the worker process: V8's CPU profiler (node:inspector's Profiler domain) on the
// thread that calls log(), and through the inspector's NodeWorker domain on each worker thread the
// process has (a pino.transport() thread), from the barrier to close(). Each profile is written as
// a .cpuprofile (the format Chrome DevTools and speedscope load) into the run's directory; the
// primary summarises them and moves them beside the results file (src/run/profiles.js).
//
// A session connected to its own thread answers synchronously, so the main thread's profiler
// starts before the first log() call. A worker thread's profiler is started by a message that
// thread handles when it next turns, and must be stopped before close() is called: close() ends a
// transport's thread, and a thread that has ended cannot return its profile. So a worker thread is
// profiled from the barrier (or from when the process learnt of it, for a thread started during
// the logging) to the close() call; its last flush inside close() is not in its profile, and the
// record says so.

// Node's --cpu-prof default: one sample per millisecond (V8's sampler interrupts the thread).
export const SAMPLING_INTERVAL_US = 1000
const THREAD_STOP_LIMIT_MS = 10_000
const MAX_THREADS = 63

// A worker thread the logger started while it was built registers with the inspector a moment
// later (its own start-up): the worker waits this long before it reports ready, so that such a
// thread is profiled from the barrier. One started later is profiled from when it registered
// (fromMs in the record).
const THREADS_SETTLE_MS = 100

export async function openProfiler () {
  const session = new Session()
  session.connect()
  const post = (method, params = {}) => {
    let answer = null
    session.post(method, params, (err, result) => { answer = { err, result } })
    if (!answer) throw new Error(`the inspector did not answer ${method} at once`)
    if (answer.err) throw answer.err
    return answer.result
  }
  post('Profiler.enable')
  post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US })
  const threads = new Map()
  let started = false
  let startNs = null
  let nextId = 0
  const waiting = new Map()
  session.on('NodeWorker.attachedToWorker', ({ params }) => {
    const title = String(params.workerInfo?.title ?? `thread ${params.workerInfo?.workerId}`).slice(0, 200)
    const thread = { sessionId: params.sessionId, title, startedAtNs: null, ended: false, profile: null, note: null }
    threads.set(params.sessionId, thread)
    if (started) startThread(thread)
  })
  session.on('NodeWorker.detachedFromWorker', ({ params }) => {
    const thread = threads.get(params.sessionId)
    if (thread) thread.ended = true
    for (const [id, pending] of waiting) {
      if (pending.sessionId === params.sessionId) {
        waiting.delete(id)
        pending.resolve({ error: { message: 'the thread ended' } })
      }
    }
  })
  session.on('NodeWorker.receivedMessageFromWorker', ({ params }) => {
    let message
    try { message = JSON.parse(params.message) } catch { return }
    const pending = waiting.get(message.id)
    if (!pending) return
    waiting.delete(message.id)
    pending.resolve(message)
  })
  const toThread = (thread, method, params = {}) => new Promise((resolve) => {
    const id = ++nextId
    waiting.set(id, { sessionId: thread.sessionId, resolve })
    session.post('NodeWorker.sendMessageToWorker', { sessionId: thread.sessionId, message: JSON.stringify({ id, method, params }) })
  })
  function startThread (thread) {
    thread.startedAtNs = process.hrtime.bigint()
    toThread(thread, 'Profiler.enable')
    toThread(thread, 'Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US })
    toThread(thread, 'Profiler.start')
  }
  post('NodeWorker.enable', { waitForDebuggerOnStart: false })
  await new Promise((resolve) => setTimeout(resolve, THREADS_SETTLE_MS))

  return {
    // At the barrier, right before the first call.
    start () {
      started = true
      for (const thread of threads.values()) startThread(thread)
      // Starting takes V8 a while (it records every compiled function first): the worker's first
      // call, and fromMs's zero, come after.
      post('Profiler.start')
      startNs = process.hrtime.bigint()
    },
    // Before close(): each worker thread's profile, while the thread is still there.
    async stopThreads () {
      await Promise.all([...threads.values()].filter((t) => t.startedAtNs !== null).map(async (thread) => {
        if (thread.ended) {
          thread.note = 'not profiled: the thread ended before close() was called, and its profile with it'
          return
        }
        let timer
        const answer = await Promise.race([
          toThread(thread, 'Profiler.stop'),
          new Promise((resolve) => { timer = setTimeout(() => resolve({ error: { message: `no answer in ${THREAD_STOP_LIMIT_MS} ms` } }), THREAD_STOP_LIMIT_MS) })
        ])
        clearTimeout(timer)
        if (answer.result?.profile) thread.profile = answer.result.profile
        else thread.note = `not profiled: ${answer.error?.message ?? 'the inspector returned no profile'}`
      }))
    },
    // After close() resolved: the main thread's profile, then every profile written under
    // filePrefix; returns what the worker reports ({ thread, file, samples, until } or a note), for
    // at most MAX_THREADS threads (the primary's message check allows 64 entries in all).
    finish (filePrefix) {
      const main = post('Profiler.stop').profile
      session.disconnect()
      const reports = [writeProfile(main, `${filePrefix}-main.cpuprofile`, { thread: 'main', until: 'closed', fromMs: 0 })]
      let index = 0
      for (const thread of [...threads.values()].slice(0, MAX_THREADS)) {
        const fromMs = thread.startedAtNs === null ? null : Math.max(0, Number(thread.startedAtNs - startNs) / 1e6)
        if (thread.startedAtNs === null) {
          reports.push({ thread: thread.title, file: null, note: 'not profiled: the thread was not seen while logging' })
        } else if (!thread.profile) {
          reports.push({ thread: thread.title, file: null, fromMs, note: thread.note ?? 'not profiled: the thread started after close() was called' })
        } else {
          reports.push(writeProfile(thread.profile, `${filePrefix}-thread${++index}.cpuprofile`, { thread: thread.title, until: 'close-called', fromMs }))
        }
      }
      return reports
    }
  }
}

function writeProfile (profile, file, report) {
  fs.writeFileSync(file, JSON.stringify(profile), { flag: 'wx' })
  return { ...report, file, samples: profile.samples?.length ?? 0 }
}
