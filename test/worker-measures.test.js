import { test } from 'node:test'
import assert from 'node:assert/strict'
import { newHistogram } from '../src/engine/costs.js'
import { invalidMeasures, joinMeasures, startMeasures, WORKER_MEASURES } from '../src/engine/worker-measures.js'

const context = (rate) => ({
  rate,
  sampleEvery: 4,
  floorNs: 30,
  histograms: { call: newHistogram(), response: rate ? newHistogram() : null, warmup: rate ? newHistogram() : null },
  pacing: { warmupEvents: 0, warmupNs: null, reachedRate: null },
  sampleHeap: () => process.memoryUsage().heapUsed
})

test('each measure is taken in the worker, passes its own check and joins into the run\'s fields', () => {
  const measures = startMeasures(context(1000))
  measures.heap(process.memoryUsage().heapUsed)
  const atUnblocked = measures.stop('unblocked')
  assert.deepEqual(Object.keys(atUnblocked), ['eventLoopDelayNs'])
  const costs = measures.stop('closed')
  assert.deepEqual(Object.keys(costs).sort(), WORKER_MEASURES.map((m) => m.name).sort())
  assert.equal(invalidMeasures(costs), null)
  const sent = JSON.parse(JSON.stringify(costs))
  const joined = joinMeasures([sent, sent], { events: 10, rate: 1000 })
  for (const field of ['allocBytesPerEvent', 'cpuMainThreadMs', 'syscallsWritePerEvent']) assert.equal(typeof joined[field], 'number', field)
  // Nothing was timed: the histograms are empty, so no percentiles.
  assert.equal(joined.callLatencyNs, null)
  assert.ok('eventLoopDelayNs' in joined && 'responseLatencyNs' in joined)
})

test('a tight loop has no event-loop delay or response time, and a worker that did not finish leaves every figure null', () => {
  const measures = startMeasures(context(null))
  measures.stop('unblocked')
  const costs = measures.stop('closed')
  assert.equal(costs.eventLoopDelayNs, null)
  assert.equal(costs.response, null)
  const joined = joinMeasures([], { events: 10 })
  assert.ok(Object.values(joined).every((v) => v === null), JSON.stringify(joined))
})

test('a measure\'s bad value is named by its own check', () => {
  assert.match(invalidMeasures({ io: { syscr: -1 } }), /"costs\.io\.syscr" is -1/)
  assert.match(invalidMeasures({ memory: 'lots' }), /"costs\.memory" is not an object/)
  assert.match(invalidMeasures({ response: { encoded: 'not base64 histogram' } }), /"costs\.response\.encoded" is not a compressed histogram/)
  assert.equal(invalidMeasures(null), null)
})
