import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import { payloadOfSize } from '../src/engine/message.js'
import { runOnce } from '../src/run/run-once.js'
import { encodeHistogram, gcFigures, newHistogram } from '../src/engine/costs.js'
import { joinMeasures } from '../src/engine/worker-measures.js'
import { adapterFile } from '../src/loggers/index.js'
import { ADAPTERS, tmpDir } from './helpers.js'

const heap = (usedHeapSize) => ({ heapStatistics: { usedHeapSize } })
const gc = (before, after, cost) => ({ gcType: 'Scavenge', cost, beforeGC: heap(before), afterGC: heap(after) })

describe('GC figures from V8\'s records', () => {
  it('sums the used heap\'s growth between collections, the pauses and the longest one', () => {
    const figures = gcFigures([gc(1500, 200, 300), gc(900, 100, 1200)], 1000, 400)
    assert.deepEqual(figures, { gcCount: 2, gcPauseMs: 1.5, gcMaxPauseMs: 1.2, allocBytes: 500 + 700 + 300 })
  })

  it('counts a stretch where the heap shrank (concurrent sweeping) as nothing allocated', () => {
    assert.equal(gcFigures([gc(500, 100, 10)], 1000, 50).allocBytes, 0)
    assert.equal(gcFigures([], 1000, 1500).allocBytes, 500)
  })

  it('per heap space where V8 gives them: a space swept while another filled does not cancel the allocation', () => {
    const spaces = (newSpace, oldSpace) => ({
      heapStatistics: { usedHeapSize: newSpace + oldSpace },
      heapSpaceStatistics: [{ spaceName: 'new_space', spaceUsedSize: newSpace }, { spaceName: 'old_space', spaceUsedSize: oldSpace }]
    })
    // From the start (new 0, old 5,000) to the collection: new filled by 1,000 while old was swept by 300.
    const stretch = [{ gcType: 'Scavenge', cost: 10, beforeGC: spaces(1000, 4700), afterGC: spaces(100, 4800) }]
    const [start, end] = [{ new_space: 0, old_space: 5000 }, { new_space: 600, old_space: 4800 }]
    assert.equal(gcFigures(stretch, start, end).allocBytes, 1000 + 500)
    // The whole heap alone reads the shrink as less allocated: 700, then 500.
    const wholeOnly = [{ ...stretch[0], beforeGC: heap(5700), afterGC: heap(4900) }]
    assert.equal(gcFigures(wholeOnly, 5000, 5400).allocBytes, 700 + 500)
  })
})

describe('joining the workers\' costs', () => {
  const histogramOf = (values) => {
    const h = newHistogram()
    for (const v of values) h.recordValue(v)
    return encodeHistogram(h)
  }
  const worker = (values, cpuMainThreadMs, cpuOtherThreadsMs, allocBytes) => ({
    gc: { gcCount: 1, gcPauseMs: 1, gcMaxPauseMs: cpuMainThreadMs / 10, allocBytes },
    cpu: { cpuMainThreadMs, cpuOtherThreadsMs },
    latency: { encoded: histogramOf(values), sampleEvery: 4, timerFloorNs: 40 }
  })

  it('merges the latency histograms before reading percentiles, adds CPU and bytes up per event', () => {
    const low = Array.from({ length: 990 }, () => 100)
    const joined = joinMeasures(
      [worker(low, 10, 30, 4000), worker(Array.from({ length: 10 }, () => 50_000), 20, 10, 6000)],
      { events: 100 }
    )
    assert.equal(joined.callLatencyNs.p50, 100)
    assert.ok(
      joined.callLatencyNs.p999 >= 49_000 && joined.callLatencyNs.max >= 49_000,
      JSON.stringify(joined.callLatencyNs)
    )
    assert.equal(joined.callLatencyNs.timed, 1000)
    assert.equal(joined.callLatencyNs.sampleEvery, 4)
    assert.equal(joined.allocBytesPerEvent, 50)
    assert.equal(joined.gcMaxPauseMs, 2)
    assert.deepEqual([joined.cpuMainThreadMs, joined.cpuOtherThreadsMs], [30, 40])
    assert.deepEqual(joined.nsCpuPerEvent, { mainThread: 150_000, otherThreads: 200_000 })
  })

  it('merges paced runs\' response histograms into p50 to p99.99 over every call, and leaves a tight loop\'s null', () => {
    const paced = (values) => ({ ...worker([100], 1, 1, 100), response: { encoded: histogramOf(values) } })
    const joined = joinMeasures([
      paced(Array.from({ length: 9_900 }, () => 2_000)),
      paced(Array.from({ length: 100 }, () => 20_000_000))
    ], { events: 10 })
    const response = joined.responseLatencyNs
    assert.equal(response.count, 10_000)
    assert.equal(response.p50, 2_000)
    assert.ok(response.p90 === 2_000 && response.p99 <= 2_001, JSON.stringify(response))
    for (const key of ['p999', 'p9999', 'max']) assert.ok(response[key] >= 19_990_000, `${key} ${response[key]}`)
    assert.equal(joinMeasures([worker([100], 1, 1, 100)], { events: 10 }).responseLatencyNs, null)
  })

  it('gives null, not zero, for a figure one worker did not report', () => {
    const joined = joinMeasures(
      [worker([100], 10, 1, 100), { gc: null, cpu: { cpuMainThreadMs: null, cpuOtherThreadsMs: null }, latency: null }],
      { events: 10 }
    )
    for (const key of ['allocBytesPerEvent', 'gcMaxPauseMs', 'cpuMainThreadMs', 'cpuOtherThreadsMs', 'nsCpuPerEvent', 'callLatencyNs']) assert.equal(joined[key], null, key)
    assert.equal(joinMeasures([], { events: 10 }).allocBytesPerEvent, null)
  })
})

const run = (adapter, transport, extra = {}) => runOnce({
  adapterFile: adapter,
  transport,
  cpus: 1,
  events: 20_000,
  payload: payloadOfSize(null),
  timeoutMs: 120_000,
  dir: tmpDir(),
  ...extra
})

describe('costs recorded by a run', () => {
  it('log4js, pino, pino:transport and raw on console and file: bytes, GC, call latency and CPU per thread', async () => {
    for (const transport of ['console', 'file']) {
      for (const [lib, variant] of [['log4js', 'default'], ['pino', 'default'], ['pino', 'transport'], ['raw', 'default']]) {
        const r = await run(adapterFile(lib), transport, { variant })
        const cell = `${lib}:${variant} ${transport}`
        assert.equal(r.ok, true, `${cell}: ${r.error}`)
        assert.ok(r.allocBytesPerEvent > 0, `${cell} alloc ${r.allocBytesPerEvent}`)
        if (lib !== 'raw') assert.ok(r.gcCount > 0, `${cell} gc ${r.gcCount}`)
        assert.ok(r.gcPauseMs >= r.gcMaxPauseMs && r.gcMaxPauseMs >= 0, `${cell} pauses ${r.gcPauseMs} ${r.gcMaxPauseMs}`)
        const { p50, p99, p999, max, timed } = r.callLatencyNs
        assert.ok(p50 <= p99 && p99 <= p999 && p999 <= max, `${cell} latency ${JSON.stringify(r.callLatencyNs)}`)
        assert.ok(timed > 0 && timed < 20_000, `${cell} timed ${timed}`)
        assert.ok(r.cpuMainThreadMs > 0 && r.cpuOtherThreadsMs >= 0, `${cell} cpu ${r.cpuMainThreadMs} ${r.cpuOtherThreadsMs}`)
        assert.ok(Math.abs(r.cpuMainThreadMs + r.cpuOtherThreadsMs - (r.cpuUserMs + r.cpuSystemMs)) < 1, `${cell} cpu split`)
        assert.equal(r.eventLoopDelayNs, null, cell)
      }
    }
  })

  it('measures the bytes a call allocates', async () => {
    const r = await run(path.join(ADAPTERS, 'allocating.js'), 'file', { verify: false })
    assert.equal(r.ok, true, r.error)
    // 125 elements of 8 bytes and the array's header, plus the message the loop builds.
    assert.ok(r.allocBytesPerEvent >= 1000 && r.allocBytesPerEvent < 1400, `${r.allocBytesPerEvent}`)
    assert.ok(r.gcCount > 0)
  })

  it('puts a worker thread\'s CPU on the other threads, not on the calling thread', async () => {
    const r = await run(path.join(ADAPTERS, 'thread-writer.js'), 'file', { verify: false })
    assert.equal(r.ok, true, r.error)
    assert.ok(r.cpuOtherThreadsMs >= 190, `other ${r.cpuOtherThreadsMs}`)
    assert.ok(r.cpuMainThreadMs < r.cpuOtherThreadsMs, `main ${r.cpuMainThreadMs} other ${r.cpuOtherThreadsMs}`)
  })

  it('times no call when told not to', async () => {
    const r = await run(adapterFile('noop'), 'file', { verify: false, callTiming: { sampleEvery: 0 } })
    assert.equal(r.ok, true, r.error)
    assert.equal(r.callLatencyNs, null)
  })
})
