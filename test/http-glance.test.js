import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { summarizeHttp } from '../src/results/http-summary.js'
import { cheapestAndDearest, controlOf, httpGlanceSection } from '../src/report/http/glance.js'
import { renderPage } from '../src/report/markdown.js'
import { markdownBlocks } from '../src/draw/table.js'
import { renderTerminal } from '../src/report/terminal.js'

// Synthetic http records: per run number, the libraries in one round (the order `http` writes them
// when it interleaves), requests per second from the factors given per (lib, logs).
const SPREAD = [1000, 1012, 991, 1006, 995, 1003]
const PINNED = { pinned: true, serverCpus: '1', loadCpus: '0', observed: { primary: '0', server: ['1'], load: '0' } }

function record ({ lib, mode = 'route', logs, size, run, reqPerSec, p99 = 10, placement = PINNED, ok = true, status = 'ok', middleware = null }) {
  return {
    type: 'http',
    lib,
    mode,
    middleware,
    transport: 'console',
    sink: 'pipe',
    cpus: 1,
    logsPerRequest: mode === 'route' ? logs : null,
    size,
    connections: 10,
    pipelining: 1,
    durationSeconds: 4,
    warmupSeconds: 1,
    serverCpus: placement.pinned ? placement.serverCpus : null,
    loadCpus: placement.pinned ? placement.loadCpus : null,
    run,
    ok,
    status,
    error: ok ? null : 'server worker 0 failed',
    placement,
    reqPerSec: ok
      ? {
          mean: reqPerSec,
          stddev: 10,
          min: reqPerSec - 20,
          max: reqPerSec + 20,
          p1: reqPerSec - 20,
          p2_5: reqPerSec - 20,
          p50: reqPerSec,
          p97_5: reqPerSec + 20
        }
      : null,
    bytesPerSec: ok ? { mean: reqPerSec * 200, stddev: 2000, min: 0, max: 0, p1: 0, p2_5: 0, p50: 0, p97_5: 0 } : null,
    latencyMs: ok ? { p2_5: 1, p50: 2, p97_5: 8, p99, mean: 2.5, stddev: 1, min: 0, max: 30 } : null,
    sent: lib === 'none' || !ok ? 0 : 100,
    received: lib === 'none' || !ok ? 0 : 100,
    dropRate: lib === 'none' || !ok ? null : 0
  }
}

// factor(lib, logs, size) → multiple of none's requests per second; the same spread for everyone,
// rotated per library so that no two sides are identical.
function records ({ runs = 6, libs = ['none', 'log4js', 'pino'], factor, placement = PINNED, middleware = true }) {
  const out = []
  for (let run = 1; run <= runs; run++) {
    for (const logs of [0, 5, 20]) {
      for (const size of [5, 20]) {
        libs.forEach((lib, i) => out.push(record({ lib, logs, size, run, placement, reqPerSec: SPREAD[(run - 1 + i) % SPREAD.length] * (lib === 'none' ? 1 : factor(lib, logs, size)) })))
      }
    }
    if (middleware) {
      out.push(record({ lib: 'none', mode: 'middleware', size: 20, run, placement, reqPerSec: SPREAD[run - 1] }))
      out.push(record({ lib: 'pino', mode: 'middleware', middleware: 'pino-http', size: 20, run, placement, reqPerSec: SPREAD[run % SPREAD.length] * 0.8, p99: 14 }))
      if (run === 1) out.push({ ...record({ lib: 'bunyan', mode: 'middleware', size: 20, run, placement, ok: false }), status: 'unsupported', error: 'bunyan has no express request logger' })
    }
  }
  return out
}

const costs = (lib, logs) => (logs === 0 ? 1 : { log4js: 0.9, pino: 0.95 }[lib] ** (logs / 5))
const render = (runs) => markdownBlocks(httpGlanceSection.render({ runs, summary: [] }).blocks)

describe('http At a glance: the control first, then the seed\'s grid', () => {
  it('publishes the grid, cheapest and most expensive, and the request loggers when every control cell reads same', () => {
    const runs = records({ factor: costs })
    const control = controlOf(summarizeHttp(runs))
    assert.equal(control.passed, true)
    assert.equal(control.cells.length, 4)
    const page = render(runs)
    assert.match(page, /^## At a glance\n\n### Console, 1 server worker\n/)
    assert.match(page, /6 finished runs per cell in interleaved rounds/)
    assert.match(page, /the server's workers on CPU 1; autocannon, log-bench's primary and the receiving end on CPU 0/)
    assert.match(page, /Every control cell does; their intervals reach/)
    assert.match(page, /must read `same` against `none` \(its whole interval within ±5%, the noise threshold for requests\/s\)/, 'the band requests/s are judged by')
    assert.match(page, /\| 5 chars +\| +[−+±][\d.]+% \[[^\]]+\] same \| +[−+±][\d.]+% \[[^\]]+\] same \|/)
    assert.match(page, /\| 5 × 5 +\| +1,001\.5 req\/s|\| 5 × 5 +\| +1,002 req\/s/)
    // −5% whose interval (±1.1%) reaches into requests/s' ±5% band: the runs cannot say slower.
    assert.match(page, /\| 5 × 20 +\| [^|]+\| +−10\.\d% slower \| +−[45]\.\d% not decided \|/)
    assert.match(page, /\| 20 × 5 +\| [^|]+\| +−34\.\d% slower \| +−18\.\d% slower \|/)
    // pino at −5% and log4js at −10% are 5.3% apart: at requests/s' ±5% the runs do not separate them.
    assert.match(page, /\| 5 +\| pino: −[45]\.\d% at 5, −[45]\.\d% at 20 chars \(not decided at every size\); not separated from pino: log4js: −10\.\d% at 5, −10\.\d% at 20 chars \(slower at every size\) +\|/)
    assert.match(page, /\| pino \(pino-http\) \| −20\.\d% \[[^\]]+\] slower \| +\+40\.0% slower \|/)
    assert.match(page, /\| bunyan +\| +unsupported \|/)
    assert.doesNotMatch(page, /Too noisy/)
  })

  it('under a fixed rate rests every verdict on the server\'s CPU per request, not on requests/s (the same for all)', () => {
    // Every library serves 200 requests/s; the CPU per request is what differs: pino +3% and log4js +30% at 5 logs.
    const runs = records({
      factor: (lib, logs) => (logs === 0 ? 1 : 1 / { log4js: 1.3, pino: 1.03 }[lib] ** (logs / 5)),
      middleware: false
    })
      .map((r) => ({
        ...r,
        rate: 200,
        durationSeconds: 5,
        serverCpuUsPerRequest: 400 * 1000 / r.reqPerSec.mean,
        reqPerSec: { ...r.reqPerSec, mean: 200 },
        serverCpuPct: 8
      }))
    const page = render(runs)
    assert.match(page, /### Console, 1 server worker, 200 requests\/s\n/)
    assert.doesNotMatch(page, /The server was not the bottleneck/, 'a fixed rate leaves the server idle by design')
    assert.match(page, /Every control cell does/)
    assert.match(page, /\(its whole interval within ±2%, the noise threshold for server CPU µs\/request\)/, '--noise\'s default for CPU time')
    assert.match(page, /\*\*Server CPU µs\/request against `none`\*\*/)
    assert.match(page, /\| 5 × 5 +\| +\d+\.\d µs \| +\+30\.\d% slower \(server CPU µs\/request\) \| +\+3\.\d% (not decided|slower) \(server CPU µs\/request\) \|/)
    // Cheapest is the least CPU per request.
    assert.match(page, /\| 5 +\| pino: \+3\.\d% at 5, \+3\.\d% at 20 chars [^|]*\| log4js: \+30\.\d% at 5, \+30\.\d% at 20 chars \(slower at every size\) +\|/)
  })

  it('names no cheapest where the runs do not separate the first two: "not separated", never "tie"', () => {
    const page = render(records({ factor: (lib, logs) => (logs === 0 ? 1 : 0.95 ** (logs / 5)) }))
    assert.match(page, /\| 5 +\| log4js: −[45]\.\d% at 5, −[45]\.\d% at 20 chars \(not decided at every size\); not separated from log4js: pino: −[45]\.\d% at 5, −[45]\.\d% at 20 chars \(not decided at every size\)/)
    assert.doesNotMatch(page, /\btie\b|do not separate them/)
  })

  it('ties the cheapest only with the libraries the runs do not separate from it, not with a chain of neighbours', () => {
    // Requests/s are judged at ±5%: pino and winston 5.3% apart, winston and log4js 5.6%: neither
    // pair's interval clears the band; pino and log4js, 11.1% apart, do.
    const factors = { none: 1, pino: 0.8, winston: 0.76, log4js: 0.72 }
    const runs = records({ libs: ['none', 'log4js', 'winston', 'pino'], factor: (lib, logs) => (logs === 0 ? 1 : factors[lib]), middleware: false })
    const page = render(runs)
    const row = page.split('\n').find((line) => /^\| 5 +\| /.test(line))
    const [cheapest, dearest] = row.split('|').slice(2, 4)
    assert.match(cheapest, /^ pino: [^;]+; not separated from pino: winston: [^;|]+$/)
    assert.doesNotMatch(cheapest, /log4js/, 'log4js is separated from pino, though not from winston')
    assert.match(dearest, /^ log4js: [^;]+; not separated from log4js: winston: [^;|]+$/)
    assert.doesNotMatch(dearest, /pino/)
  })

  it('says the machine was too noisy for the table, and publishes no differences, when a control cell does not read same', () => {
    const runs = records({ factor: (lib, logs, size) => (lib === 'pino' && logs === 0 && size === 20 ? 0.85 : costs(lib, logs)) })
    const control = controlOf(summarizeHttp(runs))
    assert.equal(control.passed, false)
    assert.deepEqual(control.failing.map((s) => [s.lib, s.size]), [['pino', 20]])
    const page = render(runs)
    assert.match(page, /1 of 4 do not\./)
    assert.match(page, /\*\*Too noisy for this table\.\*\* pino at 20 chars \(−15\.\d% \[[^\]]+\] slower\) differs from `none` although nothing is logged/)
    assert.doesNotMatch(page, /Logs × size|Cheapest|Request loggers/)
    // The terminal says it too, before the tables of each cell, and without markdown's marks.
    const text = renderTerminal({ runs, summary: [], env: {} })
    const noisy = text.indexOf('Too noisy for this table. pino at 20 chars')
    assert.ok(noisy > 0 && noisy < text.indexOf('| Latency'), text)
    assert.ok(text.indexOf('Control: 0 logs per request.') < noisy)
    assert.doesNotMatch(text, /\*\*|`/)
  })

  it('does not let a control that could not fail vouch for the table: 3 runs each cannot reach p < 0.05', () => {
    const page = render(records({ runs: 3, factor: costs }))
    assert.match(page, /The control cells have too few runs for that verdict to mean anything\./)
    assert.match(page, /\*\*Too few runs for the control\.\*\* With 3 finished runs per cell/)
    assert.doesNotMatch(page, /Logs × size/)
  })

  it('counts a failed control cell as not vouching, and says when no control was measured', () => {
    const runs = records({ factor: costs }).map((r) => (r.lib === 'log4js' && r.logsPerRequest === 0 && r.size === 5 ? { ...r, ok: false, status: 'failed', reqPerSec: null, latencyMs: null } : r))
    assert.match(render(runs), /Too noisy for this table\.\*\* log4js at 5 chars \(failed\)/)
    const withoutControl = records({ factor: costs }).filter((r) => r.logsPerRequest !== 0)
    assert.match(render(withoutControl), /\*\*No control\.\*\* No 0-logs-per-request cells were measured/)
  })

  it('gives the control\'s resolution, and says when the server was not the bottleneck', () => {
    const runs = records({ factor: costs })
    assert.match(render(runs), /Every control cell does; their intervals reach ±\d+(\.\d)?%, the resolution of this table/)
    assert.doesNotMatch(render(runs), /not the bottleneck/)
    const idle = runs.map((r) => ({ ...r, serverCpuPct: r.lib === 'none' ? 30 : 90 }))
    assert.match(render(idle), /\*\*The server was not the bottleneck\.\*\* Without logging \(`none`\) its workers used at most 30% of their CPU/)
    assert.match(render(idle), /not published as findings/)
    assert.doesNotMatch(render(idle), /Requests per second against `none`/)
    const busy = runs.map((r) => ({ ...r, serverCpuPct: 98 }))
    assert.doesNotMatch(render(busy), /not the bottleneck/)
    assert.match(render(busy), /Requests per second against `none`/)
  })

  it('says where the runs ran when they were not pinned, and when they were not interleaved', () => {
    const notPinned = { pinned: false, reason: 'taskset (util-linux) was not found, so CPU affinity could not be set' }
    const runs = records({ factor: costs, placement: notPinned })
    const blocked = [...runs].sort((a, b) => a.lib.localeCompare(b.lib) || a.run - b.run)
    const page = render(blocked)
    assert.match(page, /The runs were not pinned: taskset \(util-linux\) was not found/)
    assert.match(page, /one library after another \(not interleaved\)/)
  })

  it('judges the order from when each run started, not from the order the file lists them in', () => {
    const runs = records({ factor: costs }).map((r, i) => ({ ...r, startedAt: 1_000_000 + i * 1000 }))
    const planOrder = [...runs].sort((a, b) => a.lib.localeCompare(b.lib) || a.run - b.run)
    assert.match(render(planOrder), /6 finished runs per cell in interleaved rounds/)
    const blocked = planOrder.map((r, i) => ({ ...r, startedAt: 1_000_000 + i * 1000 }))
    assert.match(render(blocked), /one library after another \(not interleaved\)/)
  })

  it('says so when the kernel reported other CPUs than planned for a run', () => {
    const runs = records({ factor: costs })
    runs[3] = { ...runs[3], placement: { ...PINNED, observed: { ...PINNED.observed, load: '0-1' } } }
    assert.match(render(runs), /but for 1 of \d+ runs the kernel reported other CPUs for a process/)
  })

  it('ranks cheapest and most expensive only among libraries measured without loss at every size', () => {
    const summary = summarizeHttp(records({ factor: costs }).map((r) => (r.lib === 'pino' && r.logsPerRequest === 20 && r.size === 5 ? { ...r, received: 90, dropRate: 0.1 } : r)))
    const rows = cheapestAndDearest(summary.filter((s) => s.mode === 'route'), ['log4js', 'pino'])
    assert.deepEqual(rows.map((r) => [r.logs, r.cheapest.lib, r.dearest.lib]), [[5, 'pino', 'log4js']], '20 logs: pino lost events, one library left, no ranking')
  })

  it('opens the page and brings its own "How to read the numbers"', () => {
    const runs = records({ factor: costs })
    const env = { cpuModel: 'Test CPU', cpuCount: 2, memoryBytes: 2 ** 30, os: 'Linux', node: 'v20.0.0', commands: ['log-bench http'], firstTime: '2026-11-23T12:00:00Z', lastTime: '2026-11-23T12:30:00Z', libVersions: {} }
    const { markdown } = renderPage({ runs, summary: [], env, envs: [{ file: 'x.json', complete: true }], files: ['x.json'] }, { imageLink: (f) => f })
    const glance = markdown.indexOf('## At a glance')
    assert.ok(glance > 0 && glance < markdown.indexOf('## Hardware and Software'))
    const reading = markdown.slice(markdown.indexOf('## How to read the numbers'), markdown.indexOf('## HTTP route logging'))
    for (const term of ['_Req/s_', '_Latency_', '_vs none_', '_Control_', '_Drop_']) assert.ok(reading.includes(term), term)
    assert.doesNotMatch(reading, /unblocked|noop/)
  })
})

describe('http At a glance: two versions of one library', () => {
  it('get a column each, named with their versions (winston@2.4.7 beside winston@3.19.0), in the control and the grid', () => {
    const versioned = (version) => (r) => (r.lib === version.name ? { ...r, lib: 'winston', libRange: version.range, libVersion: version.version } : r)
    const runs = records({ libs: ['none', 'w2', 'w3'], factor: (lib, logs) => (logs === 0 ? 1 : lib === 'w2' ? 0.8 : 0.9), middleware: false })
      .map(versioned({ name: 'w2', range: '2', version: '2.4.7' }))
      .map(versioned({ name: 'w3', range: '3', version: '3.19.0' }))
    const page = render(runs)
    assert.match(page, /\| Size +\| +winston@2\.4\.7 \| +winston@3\.19\.0 \|/)
    assert.match(page, /\| Logs × size \| +none \| +winston@2\.4\.7 \| +winston@3\.19\.0 \|/)
    assert.match(page, /\| 5 × 20 +\| [^|]+\| +−20\.\d% slower \| +−10\.\d% slower \|/)
  })
})
