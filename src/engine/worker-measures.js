import hdr from 'hdr-histogram-js'
import { describeValue } from '../escape.js'
import { amount, object } from './checks.js'
import { maxOf, minOf } from '../stats.js'
import {
  encodeHistogram, latencyFigures, mergedHistogram, responseFigures, startCpuRecord, startGcRecord, startIoRecord,
  startLoopDelay, startMemoryRecord, warmupFigures, worstLoopDelay
} from './costs.js'

// Every measure a run worker takes besides time, declared once; the worker (src/run/worker.js), the
// check of its message (src/engine/messages.js) and the join of a run's workers (src/run/run-once.js)
// all read this list. A new measure is an entry here, the code that measures it (costs.js) and its
// fields in the results schema. An entry:
// - name: its key in the `costs` of the worker's last message
// - start(context): in the worker, at its first call; returns { stop() }, whose stop() gives what
//   the worker sends (null: not measured). context: { rate, sampleEvery, floorNs, histograms:
//   { call, response }, sampleHeap } (the histograms the loop fills; sampleHeap reads the heap)
// - stopsAt: 'unblocked' (right after the last call) or 'closed' (the default: after close(), or
//   when the worker ends by --ending)
// - check(value): in the primary, why a worker's value (never null here) is not valid, or null
// - join(values, { events, rate }): the run's fields from every worker's value, in worker order; a
//   figure is null unless every worker reported it (values is empty when a worker did not finish)
// Measures start in the reverse of this order and stop in it, so that each one's window holds the
// ones before it and none counts another's start: the I/O record is the innermost.

// A figure of the join: null unless every worker gave one.
const everyOne = (values, pick) => values.length > 0 && values.every((v) => v != null && pick(v) != null)
const sumOf = (values, pick) => (everyOne(values, pick) ? values.reduce((total, v) => total + pick(v), 0) : null)
const perEvent = (total, sent) => (total != null && sent > 0 ? total / sent : null)

// A measure whose value is an object of figures, each a finite number >= 0 or null.
const figuresCheck = (name, keys) => (value) => {
  if (!object(value)) return `its "costs.${name}" is not an object`
  const bad = keys.find((key) => value[key] != null && !amount(value[key]))
  return bad ? `its "costs.${name}.${bad}" is ${describeValue(value[bad])}, not a finite number >= 0` : null
}
const decodes = (name, encoded) => {
  try {
    hdr.decodeFromCompressedBase64(encoded)
    return null
  } catch {
    return `its "costs.${name}.encoded" is not a compressed histogram`
  }
}

export const WORKER_MEASURES = Object.freeze([
  {
    name: 'io',
    start: () => startIoRecord(),
    check: figuresCheck('io', ['syscr', 'syscw', 'wchar']),
    join (values, { events }) {
      const sent = events * values.length
      return {
        syscallsReadPerEvent: perEvent(sumOf(values, (v) => v.syscr), sent),
        syscallsWritePerEvent: perEvent(sumOf(values, (v) => v.syscw), sent),
        bytesWrittenPerEvent: perEvent(sumOf(values, (v) => v.wchar), sent)
      }
    }
  },
  {
    name: 'gc',
    start: () => startGcRecord(),
    check: figuresCheck('gc', ['allocBytes', 'gcMaxPauseMs']),
    join: (values, { events }) => ({
      allocBytesPerEvent: perEvent(sumOf(values, (v) => v.allocBytes), events * values.length),
      gcMaxPauseMs: everyOne(values, (v) => v.gcMaxPauseMs) ? maxOf(values.map((v) => v.gcMaxPauseMs)) : null
    })
  },
  {
    name: 'cpu',
    start: () => startCpuRecord(),
    check: figuresCheck('cpu', ['cpuMainThreadMs', 'cpuOtherThreadsMs']),
    join (values, { events }) {
      const sent = events * values.length
      const main = sumOf(values, (v) => v.cpuMainThreadMs)
      const other = sumOf(values, (v) => v.cpuOtherThreadsMs)
      return {
        cpuMainThreadMs: main,
        cpuOtherThreadsMs: other,
        nsCpuPerEvent: main != null && sent > 0
          ? { mainThread: (main * 1e6) / sent, otherThreads: (other * 1e6) / sent }
          : null
      }
    }
  },
  {
    name: 'memory',
    start: ({ sampleHeap }) => startMemoryRecord(sampleHeap),
    check: figuresCheck('memory', ['heapRiseBytes', 'rssRiseBytes']),
    // Read per worker by the overload rules (src/results/judge/overload.js), not joined into the run's fields.
    join: () => ({})
  },
  {
    // The workers' histograms are merged before their percentiles are read.
    name: 'latency',
    start: ({ sampleEvery, floorNs, histograms }) => ({
      stop: () => (sampleEvery > 0
        ? { encoded: encodeHistogram(histograms.call), sampleEvery, timerFloorNs: floorNs }
        : null)
    }),
    check (value) {
      const shaped = object(value) && typeof value.encoded === 'string' &&
        Number.isSafeInteger(value.sampleEvery) && value.sampleEvery >= 1 && amount(value.timerFloorNs)
      return shaped ? decodes('latency', value.encoded) : 'its "costs.latency" is not { encoded, sampleEvery, timerFloorNs }'
    },
    join: (values) => ({
      callLatencyNs: everyOne(values, (v) => v.encoded)
        ? latencyFigures(mergedHistogram(values.map((v) => v.encoded)), {
          sampleEvery: values[0].sampleEvery,
          timerFloorNs: maxOf(values.map((v) => v.timerFloorNs))
        })
        : null
    })
  },
  {
    // Under --rate: the steady state's response times, the warm-up's apart (src/engine/pacing.js), and
    // the rate the pacer reached.
    name: 'response',
    start: ({ histograms, pacing }) => ({
      stop: () => (histograms.response
        ? {
            encoded: encodeHistogram(histograms.response),
            warmup: {
              encoded: encodeHistogram(histograms.warmup), events: pacing.warmupEvents, durationNs: pacing.warmupNs
            },
            reachedRate: pacing.reachedRate
          }
        : null)
    }),
    check (value) {
      if (!object(value) || typeof value.encoded !== 'string') return 'its "costs.response" is not { encoded }'
      const warmup = value.warmup
      if (warmup != null && (!object(warmup) || typeof warmup.encoded !== 'string' || !(Number.isSafeInteger(warmup.events) && warmup.events >= 0) || (warmup.durationNs != null && !amount(warmup.durationNs)))) return 'its "costs.response.warmup" is not { encoded, events, durationNs }'
      if (value.reachedRate != null && !amount(value.reachedRate)) return `its "costs.response.reachedRate" is ${describeValue(value.reachedRate)}, not a finite number >= 0`
      return decodes('response', value.encoded) ?? (warmup == null ? null : decodes('response.warmup', warmup.encoded))
    },
    join: (values) => ({
      responseLatencyNs: everyOne(values, (v) => v.encoded)
        ? responseFigures(mergedHistogram(values.map((v) => v.encoded)))
        : null,
      responseWarmupNs: everyOne(values, (v) => v.warmup?.encoded)
        ? warmupFigures(values.map((v) => v.warmup))
        : null,
      reachedRate: everyOne(values, (v) => v.reachedRate) ? minOf(values.map((v) => v.reachedRate)) : null
    })
  },
  {
    // Under --rate only; stopped when the last call returns, before close().
    name: 'eventLoopDelayNs',
    start: ({ rate }) => (rate ? startLoopDelay() : { stop: () => null }),
    stopsAt: 'unblocked',
    check: figuresCheck('eventLoopDelayNs', ['p50', 'p99', 'max']),
    // The worker whose event loop waited longest (by p99) speaks for the run.
    join: (values, { rate }) => ({ eventLoopDelayNs: rate ? worstLoopDelay(values) : null })
  }
])

// In the worker: every measure started; heap(bytes) hands each a heap reading; stop(stage) stops
// those of that stage ('unblocked' or 'closed') and returns every value taken so far, keyed by
// name: the message's `costs`.
export function startMeasures (context) {
  const recorders = new Map()
  for (const measure of [...WORKER_MEASURES].reverse()) recorders.set(measure, measure.start(context))
  const costs = {}
  return {
    // A heap reading of the worker's (its 100 ms samples and the last one), for the records that follow the heap.
    heap (heapBytes) {
      for (const recorder of recorders.values()) recorder.heap?.(heapBytes)
    },
    stop (stage) {
      for (const measure of WORKER_MEASURES) {
        if ((measure.stopsAt ?? 'closed') === stage) costs[measure.name] = recorders.get(measure).stop()
      }
      return costs
    }
  }
}

// In the primary: why a worker's costs are not valid, or null.
export function invalidMeasures (costs) {
  if (costs == null) return null
  for (const measure of WORKER_MEASURES) {
    const value = costs[measure.name]
    const why = value == null ? null : measure.check(value)
    if (why) return why
  }
  return null
}

// In the primary: the run's fields from every worker's costs (empty when a worker did not finish).
export function joinMeasures (costs, { events, rate = null }) {
  const joined = WORKER_MEASURES.map((measure) =>
    measure.join(costs.map((c) => c?.[measure.name] ?? null), { events, rate }))
  return Object.assign({}, ...joined)
}
