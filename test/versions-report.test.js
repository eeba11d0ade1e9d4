import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { versionsSection } from '../src/report/versions-section.js'
import { markdownBlocks, terminalBlocks } from '../src/draw/table.js'

// Runs as `run` records them, with only what the section reads.
function runs ({ lib, libVersion, libRange = null, runtime = 'node 20.20.2', transport = 'file', cpus = 1, done }) {
  return done.map((doneMs, i) => ({ type: 'run', lib, libVersion, libRange, runtime, transport, sink: transport, cpus, events: 1000, size: 13, run: i + 1, ok: true, status: 'ok', dropRate: 0, doneMs }))
}

const render = (runList, env = { node: 'v20.20.2' }) => markdownBlocks(versionsSection.render({ runs: runList, summary: [], env }).blocks)

describe('At a glance: versions and runtimes', () => {
  it('says nothing where neither versions nor runtimes vary (other pages are unchanged)', () => {
    assert.equal(render(runs({ lib: 'pino', libVersion: '10.4.0', done: [10, 11, 12] })), '')
  })

  it('compares each newer version with the oldest, in the same cell, with the ratio, interval and verdict', () => {
    const markdown = render([
      ...runs({ lib: 'pino', libVersion: '5.17.0', libRange: '5', done: [200, 205, 210, 202, 208] }),
      ...runs({ lib: 'pino', libVersion: '10.4.0', libRange: '10', done: [100, 102, 104, 101, 103] }),
      ...runs({ lib: 'winston', libVersion: '3.2.1', libRange: '3.2.1', done: [300, 310, 305, 302, 308] }),
      ...runs({ lib: 'winston', libVersion: '3.19.0', libRange: '3', done: [301, 309, 306, 303, 307] })
    ])
    assert.match(markdown, /## At a glance: versions and runtimes/)
    const pino = markdown.split('\n').find((l) => l.startsWith('| pino '))
    assert.match(pino, /\| 5\.17\.0 +\| 10\.4\.0 +\|/)
    // A ratio of times under 1 is worded as how many times faster, never "0.50× faster".
    assert.match(pino, /\| +[12]\.\d\d× \[[\d.]+, [\d.]+\] \*\*faster\*\* \(p 0\.\d+\) \|/)
    const winston = markdown.split('\n').find((l) => l.startsWith('| winston '))
    // 5 runs a side spread ±2%: the interval reaches past the ±2% band, so not `same` but unclear.
    assert.match(winston, /\*\*not decided\*\*/)
  })

  it('says which side lost events instead of comparing times that did not deliver', () => {
    const lossy = runs({ lib: 'winston', libVersion: '3.2.1', libRange: '3.2.1', done: [90, 95, 92, 91] }).map((r) => ({ ...r, dropRate: 0.25 }))
    const markdown = render([...lossy, ...runs({ lib: 'winston', libVersion: '3.19.0', libRange: '3', done: [300, 310, 305, 302] })])
    assert.match(markdown, /\| winston 3\.2\.1 lost events in every run \(25\.0% on average\): not compared \|/)
  })

  it('compares each runtime with the Node running log-bench, and names what cannot run', () => {
    const markdown = render([
      ...runs({ lib: 'pino', libVersion: '10.4.0', runtime: 'node 20.20.2', done: [100, 101, 102, 103, 104] }),
      ...runs({ lib: 'pino', libVersion: '10.4.0', runtime: 'bun 1.4.5', done: [150, 151, 152, 153, 154] }),
      { type: 'run', lib: 'pino', libVersion: '10.4.0', runtime: 'deno 2.9.6', transport: 'file', sink: 'file', cpus: 1, events: 1000, size: 13, run: 1, ok: false, status: 'unsupported', error: 'deno cannot' }
    ])
    assert.match(markdown, /\| Library \| +Transport \| +Workers \| node 20\.20\.2 \(baseline\) \| +bun 1\.4\.5 \| +deno 2\.9\.6 \|/)
    const row = markdown.split('\n').find((l) => l.startsWith('| pino '))
    assert.match(row, /152 ms, 1\.\d\d× \[[\d.]+, [\d.]+\] \*\*slower\*\* \(p 0\.\d+\)/)
    assert.match(row, /\| unsupported \|$/)
  })

  it('a runtime\'s paired ratio that reads otherwise than its medians says it is the per-round estimate', () => {
    const node = [100, 110, 120, 130, 140, 150]
    const bun = [101, 111, 121, 131, 230, 250]
    const markdown = render([
      ...runs({ lib: 'pino', libVersion: '10.4.0', runtime: 'node 20.20.2', done: node }),
      ...runs({ lib: 'pino', libVersion: '10.4.0', runtime: 'bun 1.4.5', done: bun })
    ], { node: 'v20.20.2', order: { mode: 'interleaved', seed: 0 } })
    const row = markdown.split('\n').find((l) => l.startsWith('| pino '))
    assert.match(row, /126 ms, 1\.29× the time .*\*\*not decided\*\* \(per round\)/)
    assert.match(markdown, /the estimate of their ratio within a round \(marked _per round_ where it reads otherwise than the ratio of the medians beside it\)/)
    // The terminal shows the legend too (a text block, not page-only markdown).
    assert.match(terminalBlocks(versionsSection.render({ runs: [...runs({ lib: 'pino', libVersion: '10.4.0', runtime: 'node 20.20.2', done: node }), ...runs({ lib: 'pino', libVersion: '10.4.0', runtime: 'bun 1.4.5', done: bun })], summary: [], env: { node: 'v20.20.2', order: { mode: 'interleaved', seed: 0 } } }).blocks, { width: 1000 }), /marked per round where it reads otherwise/)
  })

  it('compares each library with none under http, in requests per second', () => {
    const http = (lib, libVersion, libRange, rates, logsPerRequest = 5) => rates.map((mean, i) => ({ type: 'http', lib, libVersion, libRange, runtime: 'node 20.20.2', mode: 'route', middleware: null, transport: 'console', sink: 'pipe', cpus: 1, logsPerRequest, size: 20, connections: 10, pipelining: 1, durationSeconds: 5, warmupSeconds: 1, run: i + 1, ok: true, dropRate: 0, reqPerSec: { mean } }))
    const measured = [
      ...http('none', null, null, [5000, 5100, 5050, 4950, 5020]),
      ...http('winston', '2.4.7', '2', [2000, 2100, 2050, 1990, 2020]),
      ...http('pino', '10.4.0', null, [4000, 4100, 4050, 3990, 4020])
    ]
    // Without a control (0 logs per request) the table decides nothing.
    const alone = render(measured).split('\n').find((l) => l.startsWith('| winston@2.4.7 '))
    assert.match(alone, /\| +5,020 \| +2,020 \| not decided: no control \(0 logs per request\) was measured with this table \| every event/)
    // With a control that reads same, the verdict is given.
    const same = [5000, 5001, 5002, 5003, 5004, 5005]
    const markdown = render([...measured, ...http('none', null, null, same, 0), ...http('winston', '2.4.7', '2', same, 0), ...http('pino', '10.4.0', null, same, 0)])
    const winston = markdown.split('\n').find((l) => l.startsWith('| winston@2.4.7 ') && l.includes('5 × 20'))
    assert.match(winston, /\| +5,020 \| +2,020 \| 0\.40× the requests\/s \[[\d.]+, [\d.]+[^\]]*\] \(p 0\.\d+\) \*\*slower\*\* \| every event/)
    assert.ok(markdown.split('\n').some((l) => l.startsWith('| pino ')))
  })
})
