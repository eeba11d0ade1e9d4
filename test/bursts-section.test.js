import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { burstsSection } from '../src/report/run/bursts-section.js'
import { summarize } from '../src/results/model.js'
import { syntheticRun } from './helpers.js'

const ctx = { image: (file, alt) => `![${alt}](${file})`, conditions: 'a machine' }
const env = { cpuModel: 'x', cpuCount: 2, node: 'v20' }

// unblocked over 1,000 events: 50 ms is 50,000 ns per event.
function cell (lib, unblocked, extra = {}) {
  return unblocked.map((unblockedMs, i) =>
    syntheticRun({ lib, run: i + 1, doneMs: unblockedMs * 2, unblockedMs, ...extra }))
}

describe('the burst size on the page', () => {
  it('is not shown where no run logged in bursts', () => {
    const runs = [...cell('pino', [10, 11, 12, 13]), ...cell('winston', [20, 21, 22, 23])]
    assert.deepEqual(burstsSection.render({ env, runs, summary: summarize(runs) }, ctx), { blocks: [], charts: [] })
  })

  it('per transport and events: each library\'s time per event at each burst size, its judged multiple of the fastest there, and a chart against the burst size', () => {
    const runs = [
      ...cell('pino', [10, 11, 12, 13], { burst: 10 }), ...cell('winston', [30, 31, 32, 33], { burst: 10 }),
      ...cell('pino', [20, 21, 22, 23]), ...cell('winston', [21, 22, 23, 24]),
      ...cell('raw', [1, 1, 1, 1], { burst: 10 })
    ]
    const { blocks, charts } = burstsSection.render({ env, runs, summary: summarize(runs) }, ctx)
    assert.equal(blocks[0].heading, 'Does the burst size change the answer?')
    assert.equal(blocks[2].heading, 'Filesystem, 1,000 events per worker')
    const table = blocks[3]
    const row = (lib) => table.rows.find((r) => r[0] === lib)
    assert.equal(row('pino')[1], '11,500 ns, fastest')
    // winston at bursts of 10: judge()'s estimate, interval and verdict; in one loop, not separated.
    assert.match(row('winston')[1], /^31,500 ns, 2\.7\d× \[[\d.]+, [\d.]+(; \d+%)?\] slower \(4 \+ 4 runs, unpaired\)$/)
    assert.match(row('winston')[2], /^22,500 ns, 1\.0\d× .*(not decided|same)/)
    assert.equal(row('raw')[1], '1,000 ns', 'a baseline is shown, never ranked')
    assert.equal(charts.length, 1)
    const pino = charts[0].config.data.datasets.find((d) => d.label === 'pino')
    assert.deepEqual(pino.data, [{ x: 10, y: 11_500 }, { x: 1000, y: 21_500 }], 'every event in one loop sits at the events per worker')
  })
})
