import fs from 'node:fs'
import path from 'node:path'
import { RunFailure } from '../errors.js'
import { loadNative, nativeAbsence } from '../native.js'
import { verifiedCounts } from './verifier.js'
import { arrivalIndex, verifyFiles, watchFiles, WATCH_EVERY_MS } from './verify-files.js'
import { slowReader, slowReading } from './slow-reader.js'

// console transport: each worker's stdout is a pipe whose other end only drains, as `cat > file`
// would, into a capture file in the run's directory; the lines are checked from that file after
// the run, like the file transport's. Checking while reading would let the pipe fill, and a logger
// writing to a full non-blocking pipe waits (pino's SonicBoom sleeps 100 ms on each EAGAIN): the
// run would then measure the harness, not the logger. `done` is still the last byte read from the
// pipe; memory stays flat (nothing is held, the capture goes to disk). The sampled events' arrivals
// (delivery latency) are timed by how many bytes had been read when: per read, within 1 ms, by
// either reader (a native reader built before it kept those times: by watching the capture files'
// sizes, within WATCH_EVERY_MS).
//
// The reader is native where it was built (native/pipe_reader.c: a real pipe(2), as a shell makes
// for `| cat`, drained by one thread per worker at kernel speed), else node's own stream reading of a
// socketpair, appending chunks to the capture file without looking at them
// (LOG_BENCH_PIPE_READER=node forces it).
// The pipe's buffer: the system's default (64 KiB on Linux) unless --pipe-bytes asks for more.
// That default is what `node app.js | cat` gets, so it is what a plain script is measured with: a
// larger buffer lets a logger run ahead of any reader (raw wrote 1,000,000 lines 4-5x faster into
// a 1 MiB pipe than into cat's), which would make the harness's figure better than the truth.
export const PIPE_MAX_BYTES_FILE = '/proc/sys/fs/pipe-max-size'

const pipeReaderSwitchedOff = () => process.env.LOG_BENCH_PIPE_READER === 'node'

export function nativePipeReader () {
  return loadNative('pipe_reader', { disabled: pipeReaderSwitchedOff() })
}

// Why the console is read by node's streams, or null when the native reader reads it.
export function pipeReaderAbsence () {
  return nativeAbsence('pipe_reader', { disabledBy: pipeReaderSwitchedOff() ? 'LOG_BENCH_PIPE_READER=node' : null })
}

// How the console transport is read, as the results and `log-bench list` record it.
export function pipeReaderName () {
  return nativePipeReader() ? 'native' : 'node'
}

// --receiver-rate and --receiver-stall: a slow consumer is node's stream reader, paused and resumed
// (slow-reader.js); the native reader drains at kernel speed and has no brake.
export function createPipeReceiver ({
  workers,
  events,
  payload,
  workload,
  dir,
  pipeBytes: wantedPipeBytes = 0,
  receiverRate = null,
  receiverStallMs = null
}) {
  const slow = slowReading({ receiverRate, receiverStallMs, events })
  const native = slow ? null : nativePipeReader()
  const captureOf = (workerId) => path.join(dir, `stdout-w${workerId}.log`)
  const readers = []
  const brakes = []
  let pipeBytes = null
  const captures = Array.from({ length: workers }, (_, workerId) => captureOf(workerId))
  const watch = native && !native.timesArrivals ? watchFiles(captures, WATCH_EVERY_MS) : null
  const arrivalIndexes = watch ? watch.indexes : captures.map(() => arrivalIndex())
  return {
    consumesStdout: true,
    doneMeans: 'the last byte read from the workers\' stdout pipes',
    target () { return {} },
    // The worker's stdout: a native pipe's write end (an fd the primary closes once forked), or 'pipe'.
    stdoutFor (workerId) {
      if (!native) return 'pipe'
      let settle
      const ended = new Promise((resolve) => { settle = resolve })
      const onEnd = (lastDataNs, bytes, error, arrivals) => {
        readers[workerId].end = { lastDataNs: lastDataNs || null, bytes, error }
        // The reader's own [bytes, ns] pairs (null: it could not keep them, nothing is timed).
        if (!watch) {
          arrivalIndexes[workerId] = arrivals && {
            sizes: arrivals.filter((_, i) => i % 2 === 0),
            times: arrivals.filter((_, i) => i % 2 === 1)
          }
        }
        settle(readers[workerId].end)
      }
      const [handle, writeFd, granted] = native.open(wantedPipeBytes, captureOf(workerId), onEnd)
      pipeBytes = granted
      readers[workerId] = { handle, writeFd, ended }
      return writeFd
    },
    forked (workerId) {
      const reader = readers[workerId]
      if (reader?.writeFd != null) {
        fs.closeSync(reader.writeFd)
        reader.writeFd = null
      }
    },
    attach (workerId, child) {
      if (native) return
      const fd = fs.openSync(captureOf(workerId), 'wx', 0o600)
      const reader = { fd, lastDataNs: null, bytes: 0, lines: 0, error: null, stallEndNs: null }
      const brake = slow ? slowReader(child.stdout, reader, slow) : null
      if (brake) brakes.push(brake)
      reader.ended = new Promise((resolve) => {
        child.stdout.on('data', (chunk) => {
          reader.lastDataNs = process.hrtime.bigint()
          reader.bytes += chunk.length
          arrivalIndexes[workerId].note(reader.bytes, Number(reader.lastDataNs))
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) reader.lines++
          try {
            fs.writeSync(fd, chunk)
          } catch (err) {
            reader.error ??= `writing the capture file: ${err.message}`
          }
          brake?.()
        })
        child.stdout.once('close', () => {
          fs.closeSync(fd)
          reader.end = reader
          resolve(reader)
        })
      })
      readers[workerId] = reader
    },
    progress () {
      let arrived = 0
      for (const reader of readers) {
        if (!reader) continue
        arrived += native ? native.stats(reader.handle)[1] : reader.lines
      }
      return { arrived }
    },
    // Why the capture failed, if it did (the disk under it full): a reader that stopped draining
    // closes its pipe, and its worker fails next with EPIPE. Waits a moment for readers to end.
    async failureCause () {
      const ends = readers.filter(Boolean).map((r) => r.ended)
      let timer
      await Promise.race([Promise.all(ends), new Promise((resolve) => { timer = setTimeout(resolve, 1000) })])
      clearTimeout(timer)
      const failed = readers.find((r) => r?.end?.error)
      return failed ? `the console capture failed: ${captureError(failed.end.error, dir)}` : null
    },
    async settle ({ sent }) {
      const ends = await Promise.all(readers.map((r) => r?.ended))
      watch?.stop()
      const failed = ends.find((end) => end?.error)
      if (failed) throw new RunFailure(`the console capture failed: ${captureError(failed.error, dir)}`)
      const verified = await verifyFiles(captures, { workers, events, payload, workload, arrivalIndexes })
      const lastArrivalNs = ends.reduce(
        (latest, end) => (end?.lastDataNs && (latest === null || end.lastDataNs > latest) ? end.lastDataNs : latest),
        null
      )
      const stallEnds = ends.map((end) => end?.stallEndNs).filter(Boolean)
      const lastStallEndNs = stallEnds.length ? stallEnds.reduce((a, b) => (b > a ? b : a)) : null
      return {
        ...verifiedCounts(sent, verified),
        lastArrivalNs,
        deliveryArrivals: verified.deliveryArrivals,
        consoleReader: native ? 'native' : 'node',
        pipeBytes: native ? pipeBytes : null,
        stdoutBytes: ends.reduce((sum, end) => sum + (end?.bytes ?? 0), 0),
        // From the end of the (last) stall to the last arrival: how long the logger took to catch up.
        afterStallMs: lastStallEndNs && lastArrivalNs
          ? Math.max(0, Number(lastArrivalNs - lastStallEndNs) / 1e6)
          : null,
        // When the (last) stall ended: what the workers logged during it (src/results/judge/overload.js).
        stallEndNs: lastStallEndNs
      }
    },
    release () {
      for (const brake of brakes) brake.release()
    },
    async stop () {
      watch?.stop()
      for (const brake of brakes) brake.release()
      for (const reader of readers) {
        if (!reader) continue
        if (native) {
          if (reader.writeFd != null) fs.closeSync(reader.writeFd)
          native.stop(reader.handle)
        }
      }
      await Promise.all(readers.map((r) => r?.ended))
    }
  }
}

// The reader's words, with where the capture was and what a full disk means for the run.
function captureError (error, dir) {
  const full = /No space left on device|ENOSPC/i.test(error)
  const quota = /Disk quota exceeded|EDQUOT/i.test(error)
  return full || quota ? `${error} (${full ? 'ENOSPC' : 'EDQUOT'}): the file system under ${path.dirname(dir)} is full; the capture holds every byte the workers write (give --dir a larger one)` : error
}
