import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { limitsBlock, pageLimits } from '../src/report/limits.js'
import { renderPage } from '../src/report/markdown.js'
import { runSection } from '../src/report/run/section.js'

// What limits what a page can say, said above its Summary (issue 58): an interrupted design, a busy
// machine at the start, a receiver that dropped events even from raw.

const run = ({ lib, transport = 'file', cpus = 1, doneMs, run = 1, sent = 1000, received = sent, ...rest }) => ({
  type: 'run',
  lib,
  libVersion: '1.0.0',
  transport,
  sink: transport,
  cpus,
  events: sent / cpus,
  size: 13,
  run,
  ok: true,
  status: 'ok',
  error: null,
  sent,
  received,
  dropRate: 1 - received / sent,
  doneMs,
  unblockedMs: doneMs / 2,
  eventsPerSec: sent / (doneMs / 1000),
  ...rest
})
const env = { cpuCount: 2, cpuModel: 'Test CPU', node: 'v20.20.2', loadAverage: [0.2, 0.3, 0.4], time: '2026-11-27T10:00:00.000Z', firstTime: '2026-11-27T10:00:00.000Z', memoryBytes: 2 ** 34, os: 'Test OS (Linux 6.1.0 x64)', commands: [] }
const dataset = (runs, { envOf = {}, complete = true, interrupted = false } = {}) => ({
  runs, summary: [], files: ['x.json'], env: { ...env, ...envOf }, envs: [{ file: 'x.json', env: { ...env, ...envOf }, complete, interrupted }]
})
const rounds = (lib, times, extra = {}) => times.map((doneMs, i) => run({ lib, doneMs, run: i + 1, ...extra }))

describe('the conditions above the Summary', () => {
  it('says nothing on a complete page measured on a quiet machine', () => {
    const quiet = dataset([...rounds('pino', [100, 101, 102, 103, 104]), ...rounds('winston', [200, 201, 202, 203, 204])])
    assert.deepEqual(pageLimits(quiet), [])
    assert.deepEqual(limitsBlock([]), [])
  })

  it('an interrupted file: how far it got, that its comparisons are unpaired, and which first places are undecided', () => {
    const cut = dataset([...rounds('pino', [100, 90, 110, 105, 95]), ...rounds('bunyan', [104, 96, 112, 100, 99]), ...rounds('winston', [200, 201, 202, 203, 204])], { complete: false, interrupted: true })
    const [limit] = pageLimits(cut)
    assert.equal(limit.label, 'Incomplete')
    assert.match(limit.text, /^`x\.json` was interrupted; every cell has its first 5 runs .*\. So no comparison pairs its runs by round .*, and 1 of 1 first places are not decided \(Filesystem\)\.$/)
  })

  it('a load at the start or while the runs went on at or above half the cores, with the median and maximum of the samples', () => {
    const runs = [...rounds('pino', [100, 101, 102, 103, 104]), ...rounds('winston', [200, 201, 202, 203, 204])]
    assert.deepEqual(pageLimits(dataset(runs, { envOf: { loadAverage: [0.99, 1, 1] } })), [])
    const [busy] = pageLimits(dataset(runs, { envOf: { loadAverage: [6.59, 6.16, 5.24] } }))
    assert.equal(busy.label, 'Busy machine')
    assert.match(busy.text, /began at load average 6\.59 on 2 cores, at or above half of them; the load while they ran was not recorded\./)
    // A quiet start does not hide busy runs: the samples' median at or above half the cores.
    const loadSamples = [[0, 0.5], [10, 2.5], [20, 1.5]]
    const [sampled] = pageLimits(dataset(runs, { envOf: { loadAverage: [0.5, 0.5, 0.5], loadSamples } }))
    assert.match(sampled.text, /began at load average 0\.50 on 2 cores; while they ran the load stayed at or above half the cores: median 1\.50, maximum 2\.50 \(3 samples of the 1-minute load average; the runs' own processes count in it\)\./)
    assert.deepEqual(pageLimits(dataset(runs, { envOf: { loadAverage: [0.5, 0.5, 0.5], loadSamples: [[0, 0.5], [10, 0.9], [20, 2]] } })), [], 'a median below half the cores')
  })

  it('a merged file: each shard\'s load at its own start, named with its shard and machine', () => {
    const runs = [...rounds('pino', [100, 101, 102, 103, 104]), ...rounds('winston', [200, 201, 202, 203, 204])]
    const shards = [
      { shard: '1/2', cpuModel: 'Quiet CPU', cpuCount: 2, loadAverage: [0.3, 0.4, 0.5], time: '2026-11-29T09:25:00.000Z' },
      { shard: '2/2', cpuModel: 'Busy CPU', cpuCount: 2, loadAverage: [1.4, 1.2, 1], loadSamples: [[0, 1.4], [10, 2]], time: '2026-11-30T09:25:00.000Z' }
    ]
    // The merged env's own load is its first shard's: quiet; the second shard began busy.
    const [busy, ...rest] = pageLimits(dataset(runs, { envOf: { shards } }))
    assert.deepEqual(rest, [])
    assert.equal(busy.label, 'Busy machine')
    assert.match(busy.text, /^`x\.json`, shard 2\/2 \(Busy CPU\): its runs began at load average 1\.40 on 2 cores.*: median 1\.70, maximum 2\.00/)
    const page = dataset(runs, { envOf: { shards } })
    const { markdown } = renderPage(page, { imageLink: (file) => file, sections: [runSection] })
    assert.match(markdown, /\| Load at start, shard 1\/2 \(2026-11-29 09:25 UTC\) +\| load average 0\.30, 0\.40, 0\.50 /)
    assert.match(markdown, /\| Load at start, shard 2\/2 \(2026-11-30 09:25 UTC\) +\| load average 1\.40, 1\.20, 1\.00 /)
  })

  it('a merged file whose shards were all busy: one line, each shard\'s load, and the shards that began right after another ended', () => {
    const runs = [...rounds('pino', [100, 101, 102, 103, 104]), ...rounds('winston', [200, 201, 202, 203, 204])]
    const shard = (k, load, samples, time, finishedAt) => ({ shard: `${k}/3`, cpuModel: 'Some CPU', cpuCount: 2, loadAverage: [load, 1, 1], loadSamples: samples, time, finishedAt })
    const shards = [
      shard(1, 0.2, [[0, 0.2], [10, 3], [20, 4]], '2026-12-02T07:00:00.000Z', '2026-12-02T07:40:00.000Z'),
      // 20 s after shard 1 ended: it began at the load shard 1 left.
      shard(2, 3.5, [[0, 3.5], [10, 5]], '2026-12-02T07:40:20.000Z', '2026-12-02T08:00:00.000Z'),
      // Ten minutes after: its own start.
      shard(3, 1.5, [[0, 1.5], [10, 2.5]], '2026-12-02T08:10:00.000Z', '2026-12-02T08:30:00.000Z')
    ]
    const limits = pageLimits(dataset(runs, { envOf: { shards } }))
    assert.equal(limits.length, 1, limits.map((l) => l.text).join('\n'))
    assert.equal(limits[0].text, '`x.json`, shards 1/3, 2/3 and 3/3 (Some CPU, 2 cores), each at or above half the cores when it began or while it ran: ' +
      'their runs began at load average 0.20, 3.50 and 1.50 (2/3 within a minute of another shard\'s end, so at the load it left); ' +
      'while they ran, median 3.00, 4.25 and 2.00 by shard, maximum 5.00 (7 samples of the 1-minute load average; the runs\' own processes count in it). ' +
      'So times may be slower and more spread than on an idle machine, and a difference needs more runs to be decided.')
  })

  it('a receiver that dropped events even from raw: where, the granted buffer where recorded, and each sender\'s pace', () => {
    const udp = (lib, list, extra = {}) => list.map(([doneMs, lost], i) =>
      run({ lib, transport: 'udp', cpus: 8, doneMs, run: i + 1, received: 1000 - lost, receiverSocketDrops: lost, ...extra }))
    const runs = [...udp('pino', [[130, 0], [131, 0], [129, 0]]), ...udp('log4js', [[90, 100], [95, 80], [120, 0]]), ...udp('raw', [[50, 57], [51, 1], [49, 2]])]
    const [limit] = pageLimits(dataset(runs))
    assert.equal(limit.label, 'Receiver dropped events')
    assert.match(limit.text, /^Syslog UDP, 8 workers: the receiving end lost events even from raw, the plainest sender \(2\.00% pooled, 0\.10%–5\.70% by run\); every lost event was dropped at the receiving socket, on the same machine as the senders, and the receive buffer the kernel granted that socket was not recorded\. pino lost none, at its own pace: .* Events sent per second until done \(medians\): pino 7,692, raw 20,000, log4js 10,526\.$/)
    const granted = runs.map((r) => ({ ...r, receiveBufferBytes: 212992 }))
    assert.match(pageLimits(dataset(granted))[0].text, /the kernel granted that socket 208\.0 KiB of receive buffer/)
    // Every library losing where the receiver's counter holds none of it is the libraries' finding.
    const sdk = [...udp('pino', [[130, 10], [131, 10]], { receiverSocketDrops: 0 }), ...udp('winston', [[130, 10], [131, 10]], { receiverSocketDrops: 0 })]
    assert.deepEqual(pageLimits(dataset(sdk)), [])
  })

  it('stands above the Summary, and the old Incomplete line below it is gone', () => {
    const cut = dataset([...rounds('pino', [100, 90, 110, 105, 95]), ...rounds('winston', [200, 201, 202, 203, 204])], { complete: false, interrupted: true, envOf: { loadAverage: [3, 3, 3] } })
    const { markdown } = renderPage(cut, { imageLink: (file) => file, sections: [runSection] })
    const top = markdown.indexOf('> **Read this first.**')
    assert.ok(top > 0 && top < markdown.indexOf('## Summary'), markdown.slice(0, 600))
    assert.match(markdown, /> - \*\*Incomplete:\*\* `x\.json` was interrupted/)
    assert.match(markdown, /> - \*\*Busy machine:\*\* The runs began at load average 3\.00/)
    assert.equal(markdown.match(/Incomplete/g).length, 1)
  })
})

describe('what run and http print when they finish', () => {
  it('says the conditions, and what limits the results first, as the page does, without the page\'s markdown', async () => {
    const { renderTerminal } = await import('../src/report/terminal.js')
    const runs = [...rounds('pino', [100, 101, 102, 103, 104]), ...rounds('winston', [200, 201, 202, 203, 204])]
    // A document as run writes it: one env, no envs.
    const doc = (envOf) => ({ runs, summary: [], env: { ...env, ...envOf }, complete: true })
    const busy = renderTerminal(doc({ loadAverage: [6.59, 6.16, 5.24], loadSamples: [[0, 6.59], [10, 7]] }), { width: 1000, file: 'r.json' })
    assert.match(busy, /^Read this first\. What limits what these results can say:\n- Busy machine: The runs began at load average 6\.59 on 2 cores/m)
    assert.match(busy, /^Conditions: Test CPU, 2 cores, VM or not: not recorded; load during the runs median 6\.80, maximum 7\.00 \(2 samples/m)
    assert.ok(!/[`\\]/.test(busy), 'no markdown marks on a terminal')
    const quiet = renderTerminal(doc({}), { width: 1000 })
    assert.ok(!quiet.includes('Read this first'))
    assert.match(quiet, /^Conditions: Test CPU, 2 cores/m)
    // Words the page escapes read as they are: a CPU model with markdown's characters, a file name
    // with a backtick in its code span.
    const marked = renderTerminal({ ...doc({ cpuModel: 'Test <CPU>_1' }), complete: false }, { width: 1000, file: 'r`*.json' })
    assert.match(marked, /^Conditions: Test <CPU>_1, 2 cores/m)
    assert.match(marked, /^- Incomplete: r`\*\.json was not finished/m)
  })
})
