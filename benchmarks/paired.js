// npm run bench:paired -- [--events 200000] [--rounds 5,8,10] [--quick]
//
// What pairing by round buys on a machine that changes under the runs: pino to a file against an
// identical second adapter (test/fixtures/adapters/pino-twin.js, an A/A) and against pino with 300 ns
// of busy work per call (pino-busy.js, an A/B), in sessions of 5, 8 and 10 interleaved rounds, each
// measured twice: quiet, and with a load step (two busy loops, started when half of the session's
// runs have finished, left running to its end). For each session the interval of each comparison
// with its half-width (the larger side, relative to the ratio), unpaired (Mann–Whitney/Hodges–Lehmann)
// and paired (signed-rank/Hodges–Lehmann on the per-round ratios; shown at 5 rounds too, where it
// cannot reach p < 0.05 and log-bench itself stays unpaired).
// Under the step the A/A must not read faster or slower, its paired interval should stay within
// ±10%, and the A/B must read slower paired: each is checked and printed; exit code 1 where one is
// not met in the full measurement. --quick: 2,000 events, sessions of 6 rounds, a step of one busy
// loop (a test runs it: it checks that every step works, not its figures).
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { run } from '../src/api/index.js'
import { compareRuns, pairedShift } from '../src/stats.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const TWIN = path.join(root, 'test/fixtures/adapters/pino-twin.js')
const BUSY = path.join(root, 'test/fixtures/adapters/pino-busy.js')

function fail (message) {
  process.stderr.write(`bench:paired: ${message}\n`)
  process.exit(2)
}

let values
try {
  ({ values } = parseArgs({
    options: {
      events: { type: 'string' },
      rounds: { type: 'string' },
      quick: { type: 'boolean', default: false }
    }
  }))
} catch (err) {
  fail(err.message)
}
const events = Number(values.events ?? (values.quick ? 2000 : 200000))
if (!Number.isSafeInteger(events) || events < 1) fail(`--events must be a whole number of events, got "${values.events}"`)
const rounds = (values.rounds ?? (values.quick ? '6' : '5,8,10')).split(',').map(Number)
if (rounds.some((n) => !Number.isSafeInteger(n) || n < 2 || n > 50)) fail(`--rounds must list whole numbers of rounds from 2 to 50 (5,8,10), got "${values.rounds}"`)

// Two busy loops, one per core of the machine this was written for: the step of load the issue saw
// (--quick: one, which starts and stops the same way and burns half the CPU).
function loadStep () {
  const loops = Array.from({ length: values.quick ? 1 : 2 }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }))
  return () => loops.forEach((loop) => loop.kill('SIGKILL'))
}

async function session (n, step) {
  const job = run({ libs: ['pino', TWIN, BUSY], transports: ['file'], events, runs: n, cpus: [1] })
  let finished = 0
  let stop = null
  job.on('run', () => {
    finished++
    if (step && !stop && finished >= (3 * n) / 2) stop = loadStep()
  })
  try {
    return await job
  } finally {
    stop?.()
  }
}

// Half-width of an interval around its ratio, relative to it: the larger side.
const halfWidth = (ratio, low, high) => Math.max(ratio / low, high / ratio) - 1
const pct = (v) => `±${(v * 100).toFixed(1)}%`
const fixed = (v) => v.toFixed(3)

function analyse (doc, lib) {
  const doneOf = (name) => new Map(doc.runs.filter((r) => r.ok && r.lib === name).map((r) => [r.run, r.doneMs]))
  const base = doneOf('pino')
  const cell = doneOf(lib)
  const pairs = [...cell].filter(([round]) => base.has(round)).map(([round, done]) => [base.get(round), done])
  const unpaired = compareRuns([...base.values()], [...cell.values()])
  const paired = compareRuns([...base.values()], [...cell.values()], { pairs })
  const shift = pairedShift(pairs.map(([b, v]) => Math.log(v / b)))
  return {
    pairs: pairs.length,
    unpaired,
    paired,
    pairedRatio: Math.exp(shift.estimate),
    pairedLow: Math.exp(shift.low),
    pairedHigh: Math.exp(shift.high),
    pairedCoverage: shift.coverage
  }
}

const rows = []
const checks = []
for (const step of [false, true]) {
  for (const n of rounds) {
    process.stderr.write(`bench:paired: ${n} rounds, ${step ? 'load step halfway' : 'quiet'}, ${events.toLocaleString('en-US')} events\n`)
    const doc = await session(n, step)
    for (const [lib, name] of [['pino-twin', 'identical (A/A)'], ['pino-busy', '+300 ns per call']]) {
      const a = analyse(doc, lib)
      const u = a.unpaired
      const verdictPaired = a.paired.paired ? a.paired.verdict : `${a.paired.verdict} (unpaired: ${n} rounds)`
      rows.push(`| ${step ? 'step' : 'quiet'} | ${n} | ${name} | ${fixed(u.ratio)} [${fixed(u.ciLow)}, ${fixed(u.ciHigh)}] | ${pct(halfWidth(u.ratio, u.ciLow, u.ciHigh))} | ${u.verdict} | ${fixed(a.pairedRatio)} [${fixed(a.pairedLow)}, ${fixed(a.pairedHigh)}] ${(a.pairedCoverage * 100).toFixed(1)}% | ${pct(halfWidth(a.pairedRatio, a.pairedLow, a.pairedHigh))} | ${verdictPaired} |`)
      if (!step) continue
      if (lib === 'pino-twin') {
        checks.push([`A/A under the step, ${n} rounds: neither faster nor slower`, !['faster', 'slower'].includes(a.paired.verdict) && !['faster', 'slower'].includes(u.verdict)])
        checks.push([`A/A under the step, ${n} rounds: paired interval within ±10%`, halfWidth(a.pairedRatio, a.pairedLow, a.pairedHigh) <= 0.1])
      } else if (a.paired.paired) {
        checks.push([`+300 ns under the step, ${n} rounds: slower, paired`, a.paired.verdict === 'slower'])
      }
    }
  }
}

const out = [
  `pino to a file, ${events.toLocaleString('en-US')} events, 1 worker: each library against pino, in sessions of ${rounds.join(', ')} interleaved rounds${values.quick ? ' (--quick: checks that it works; not its figures)' : ''}`,
  '',
  '| machine | rounds | against pino | unpaired ratio [interval] | half-width | verdict | paired ratio [interval] coverage | half-width | verdict |',
  '|---|---:|---|---:|---:|---|---:|---:|---|',
  ...rows,
  '',
  ...checks.map(([what, ok]) => `${ok ? 'met' : 'NOT MET'}: ${what}`),
  ''
]
process.stdout.write(out.join('\n'))
if (!values.quick && checks.some(([, ok]) => !ok)) process.exitCode = 1
