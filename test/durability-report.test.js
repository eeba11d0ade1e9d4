import { test } from 'node:test'
import assert from 'node:assert/strict'
import { durabilitySection } from '../src/report/run/durability-section.js'
import { markdownBlocks } from '../src/draw/table.js'

const run = (lib, transport, ending, received, extra = {}) => ({ type: 'run', lib, variant: 'default', transport, cpus: 1, events: 100, sent: 100, received, ok: true, status: 'ok', error: null, ending, run: 1, doneMs: 10, unblockedMs: 5, ...extra })
const ctx = { image: (file, alt) => `![${alt}](${file})`, conditions: 'test machine' }
const render = (runs) => markdownBlocks(durabilitySection.render({ runs, summary: [] }, ctx).blocks)

test('the durability section says per library what exit, uncaught and SIGTERM cost it, and whether its recipe fixes SIGTERM', () => {
  const runs = []
  for (const transport of ['console', 'file']) {
    for (const ending of ['close', 'exit', 'uncaught', 'sigterm', 'sigterm-recipe']) runs.push(run('raw', transport, ending, 100))
  }
  runs.push(run('lossy', 'file', 'close', 100), run('lossy', 'file', 'exit', 0), run('lossy', 'file', 'uncaught', 100), run('lossy', 'file', 'sigterm', 40), run('lossy', 'file', 'sigterm', 60, { run: 2 }), run('lossy', 'file', 'sigterm-recipe', 100))
  runs.push(run('lossy', 'console', 'exit', 100), run('lossy', 'console', 'return', 100, { keptAlive: true }))
  const page = render(runs)
  assert.match(page, /- \*\*lossy\*\*: on process\.exit\(\) it loses logs on Filesystem \(kept 0 of 100: nothing\); on an uncaught exception it keeps every event \(Filesystem\); on SIGTERM it loses logs on Filesystem \(kept 40–60 of 100\); its shutdown recipe on SIGTERM \(the flush it documents, then exit\) keeps every event \(Filesystem\); without close\(\) its process never ends by itself on Console/)
  assert.match(page, /`raw` kept every event under every ending on Console, Filesystem: it writes each line before its call returns/)
  assert.match(page, /\| lossy +\| +100 of 100 \| +— \| +\*\*0 of 100\*\* \|/)
  assert.match(page, /100 of 100, never ended/)
})

test('the durability section shows nothing where every run ended by close() at full speed', () => {
  assert.deepEqual(durabilitySection.render({ runs: [run('pino', 'file', 'close', 100), { ...run('raw', 'file', 'close', 100), ending: undefined }], summary: [] }, ctx), { blocks: [], charts: [] })
})

test('a stalled receiving end is set beside the same cell at full speed, with its catch-up', () => {
  const timeseries = [
    { tMs: 0, rssBytes: 50e6, heapBytes: 1e6, cpuPct: 10 },
    { tMs: 100, rssBytes: 80e6, heapBytes: 2e6, cpuPct: 90 }
  ]
  const runs = [run('pino', 'console', 'close', 100, { maxRssBytes: 50 * 1024 * 1024, maxHeapBytes: 1024 * 1024 }), run('pino', 'console', 'close', 100, { receiverStallMs: 2000, unblockedMs: 7, maxRssBytes: 80 * 1024 * 1024, maxHeapBytes: 2 * 1024 * 1024, afterStallMs: 12.5, timeseries })]
  const part = durabilitySection.render({ runs, summary: [] }, ctx)
  const page = markdownBlocks(part.blocks)
  assert.match(page, /Console: a receiving end that stops reading for 2,000 ms/)
  assert.match(page, /\| pino +\| +2,000 \| +5\.0 → 7\.0 \| +50 MiB → 80 MiB \| +1\.0 MiB → 2\.0 MiB \| +100 of 100 \| +13 \|/)
  assert.equal(part.charts.length, 1)
  assert.equal(part.charts[0].file, 'console/stall-memory.png')
})
