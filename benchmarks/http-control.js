// npm run bench:http-control [-- --runs N] [--duration S] [--alternate-only] [--keep FILE] [--quick]
//
// The HTTP page's control, measured both ways in one session: every library's route at 0 logs per
// request (it logs nothing, so each must read `same` against none), as the page runs it (one server
// per run, the runs in interleaved rounds, paired by round) and with --alternate (each run serves the
// app without logging beside the library's and turns the load between the two every 0.2 s, so each
// run is compared with its own baseline). Both groups are one scenario: their runs are interleaved in
// the same rounds, so the two designs see the same machine. Prints each control cell's interval and
// verdict, the A/A of the alternated group (none against its own baseline, run by run) and whether
// every control cell reads `same` within ±5%. Beside the control, a known cost measured both ways: one
// library at 5 logs per request, which must read slower in both designs and the same cost in each (an
// A/A alone cannot show that the alternated baseline is measured apart from the library's server: the
// two once shared a listening socket, and every logging cell read like none). --quick checks that
// every step works (1 round, 0.4 s of load a server: the least --alternate takes, two 0.2 s slices a
// side; a run of one server lasts a second anyway, autocannon's first sample).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { pairedShift } from '../src/stats.js'
import { formatChangePct, formatNoiseBand } from '../src/draw/labels.js'
import { REQ_PER_SEC_NOISE } from '../src/results/run-types/http.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const quick = process.argv.includes('--quick')
const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 ? process.argv[at + 1] : fallback
}
const runs = quick ? 1 : Number(option('runs', 6))
const load = quick ? { duration: 0.4, warmup: 0, connections: 4 } : { duration: Number(option('duration', 3)), warmup: 1, connections: 10 }
// --keep FILE: the results JSON, kept (it is written to a temporary directory and removed).
const keep = option('keep', null)
// --alternate-only: the alternated group alone (more rounds of it in the same time).
const designs = process.argv.includes('--alternate-only') ? [true] : [false, true]
const libs = quick ? ['none', 'pino'] : ['none', 'all']
// The known cost: 5 events of 20 characters per request, through winston (about a third fewer
// requests/s than none on the HTTP page).
const COST = { lib: quick ? 'pino' : 'winston', logsPerRequest: 5 }
const TARGET = 0.05

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-bench-http-control-'))
try {
  const scenario = path.join(dir, 'control.json')
  const out = path.join(dir, 'control-results.json')
  const group = { libs, transport: 'console', logsPerRequest: [0], sizes: [20], ...load, runs }
  const costGroup = { ...group, libs: ['none', COST.lib], logsPerRequest: [COST.logsPerRequest] }
  fs.writeFileSync(scenario, JSON.stringify({
    name: 'http-control',
    description: 'the HTTP control and a known cost, one server per run and --alternate, in the same rounds',
    http: designs.flatMap((alternate) => [group, costGroup].map((g) => (alternate ? { ...g, alternate: true } : g)))
  }))
  process.stderr.write(`the control at 0 logs per request, ${libs.join(', ')}; ${runs} round${runs > 1 ? 's' : ''} of ${load.duration} s (${quick ? '--quick: checks that it works; not its figures' : `about ${minutes(((designs.includes(false) ? 7 * (load.duration + 3) : 0) + 7 * (2 * load.duration + 4)) / 60)} a round`})\n`)
  execFileSync(process.execPath, [path.join(ROOT, 'bin', 'log-bench.js'), 'run', '--scenario', scenario, '--out', out, '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] })
  if (keep) fs.copyFileSync(out, keep)
  const doc = JSON.parse(fs.readFileSync(out, 'utf8'))
  const machine = `${os.cpus()[0]?.model.trim()}, ${os.cpus().length} CPUs, Node ${process.versions.node}`
  process.stdout.write(`${machine}; ${doc.runs.filter((r) => r.ok).length} finished runs of ${doc.runs.length}\n`)
  for (const alternated of designs) {
    const entries = doc.summary.filter((s) => s.type === 'http' && (s.alternate != null) === alternated && s.logsPerRequest === 0)
    const half = []
    const verdicts = []
    process.stdout.write(`\n${alternated ? '--alternate (each run against its own baseline)' : 'one server per run (paired by round)'}:\n`)
    for (const entry of entries.filter((s) => s.lib !== 'none')) {
      const c = entry.throughputVsBaseline
      if (!c) {
        process.stdout.write(`  ${entry.lib}: no comparison (${entry.status})\n`)
        verdicts.push(null)
        continue
      }
      const width = Math.max(c.ratio / c.ciLow, c.ciHigh / c.ratio) - 1
      half.push(width)
      verdicts.push({ within: c.ciLow >= 1 - TARGET && c.ciHigh <= 1 + TARGET, same: c.verdict === 'same' })
      process.stdout.write(`  ${entry.lib}: ${changeOf(c)}, ${c.paired ? `paired, ${c.pairs}` : 'unpaired'}; interval ±${(width * 100).toFixed(1)}%\n`)
    }
    if (alternated) {
      const none = doc.runs.filter((r) => r.ok && r.lib === 'none' && r.baseline && r.logsPerRequest === 0)
      const aa = pairedShift(none.map((r) => Math.log(r.reqPerSec.mean / r.baseline.reqPerSec.mean)))
      if (aa.estimate != null) process.stdout.write(`  A/A, none against its own baseline, ${none.length} runs: ${formatChangePct(Math.exp(aa.estimate))} [${formatChangePct(Math.exp(aa.low))}, ${formatChangePct(Math.exp(aa.high))}]\n`)
    }
    const design = `${alternated ? '--alternate' : 'one server per run'}, ${runs} rounds`
    const every = (check) => (verdicts.length > 0 && verdicts.every((v) => v && check(v)) ? 'met' : 'NOT MET')
    const largest = half.length ? ` (largest ±${(Math.max(...half) * 100).toFixed(1)}%)` : ''
    process.stdout.write(`${every((v) => v.within)}: ${design}: every control interval within ±${TARGET * 100}%${largest}\n`)
    process.stdout.write(`${every((v) => v.same)}: ${design}: every control cell reads same (${verdicts.filter((v) => v?.same).length} of ${verdicts.length}; noise ${formatNoiseBand(REQ_PER_SEC_NOISE)}, requests/s' own)\n`)
  }
  knownCost(doc)
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}

// The known cost in each design: its change against none, and whether it reads slower in each and the
// alternated estimate lies within the single-server interval (both measure one cost).
function knownCost (doc) {
  const costOf = (alternated) => doc.summary.find((s) => s.type === 'http' && s.lib === COST.lib &&
    s.logsPerRequest === COST.logsPerRequest && (s.alternate != null) === alternated)?.throughputVsBaseline ?? null
  const costs = designs.map((alternated) => [alternated, costOf(alternated)])
  process.stdout.write(`\nthe known cost, ${COST.lib} at ${COST.logsPerRequest} logs per request of 20 characters, requests/s against none:\n`)
  for (const [alternated, c] of costs) process.stdout.write(`  ${alternated ? '--alternate' : 'one server per run'}: ${c ? changeOf(c) : 'no comparison'}\n`)
  const slower = costs.every(([, c]) => c?.verdict === 'slower')
  process.stdout.write(`${slower ? 'met' : 'NOT MET'}: the known cost reads slower in ${designs.length > 1 ? 'both designs' : 'the alternated design'}\n`)
  const single = costOf(false)
  const alternated = costOf(true)
  if (single && alternated) {
    const within = alternated.ratio >= single.ciLow && alternated.ratio <= single.ciHigh
    process.stdout.write(`${within ? 'met' : 'NOT MET'}: the alternated cost lies within the single-server interval\n`)
  }
}

// A comparison against none: its change, interval and verdict.
function changeOf (c) {
  return `${formatChangePct(c.ratio)} [${formatChangePct(c.ciLow)}, ${formatChangePct(c.ciHigh)}] ${c.verdict}`
}

function minutes (m) {
  const whole = Math.max(1, Math.round(m))
  return `${whole} minute${whole === 1 ? '' : 's'}`
}
