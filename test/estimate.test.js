import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { prepareRun } from '../src/api/run.js'
import { argvFromApi } from '../src/api/options.js'
import { RUN_OPTIONS } from '../src/api/option-tables.js'
import { scheduleRuns } from '../src/runner/orchestrator.js'
import { createPlanClock, runEstimateMs, SETUP_MS } from '../src/runner/estimate.js'
import { createProgress } from '../src/cli/progress.js'
import { planRatesSource, RATES_MODULE } from '../scripts/plan-rates.js'

// The issue's plan: --rate 1000,10000 --events 50000, here 4 libraries and 3 runs: 24 runs, of
// which the 12 at 1,000/s log for 50 s each and the 12 at 10,000/s for 5 s.
async function issuePlan () {
  const prepared = await prepareRun(argvFromApi(RUN_OPTIONS, { lib: 'pino,winston,bunyan,log4js', rate: [1000, 10000], events: 50_000, runs: 3 }, 'run'))
  prepared.release()
  return { cells: prepared.cells, schedule: scheduleRuns(prepared.cells, { mode: 'interleaved', seed: 1 }) }
}

// What such a plan takes on a machine: the paced time and half a second to a second of set-up.
const TAKES_MS = 12 * 50_000 + 12 * 5_000 + 24 * 800

test('the plan\'s estimate: a paced run lasts events ÷ rate, within a factor of two of what the plan takes', async () => {
  const { schedule } = await issuePlan()
  assert.equal(schedule.length, 24)
  const clock = createPlanClock(schedule)
  assert.equal(clock.runs(), 24)
  const total = clock.totalMs()
  assert.ok(total >= TAKES_MS / 2 && total <= TAKES_MS * 2, `${total} ms for a plan that takes about ${TAKES_MS} ms`)
  assert.equal(total, 12 * (50_000 + SETUP_MS) + 12 * (5_000 + SETUP_MS))
  // A tight loop from the committed pages' events per second: pino on the console at one worker
  // logs 100,000 events in well under 10 s, and 8 workers' 8 times as many take longer.
  const tight = runEstimateMs({ type: 'run', lib: 'pino', transport: 'console', cpus: 1, events: 100_000 })
  assert.ok(tight > SETUP_MS && tight < SETUP_MS + 10_000, String(tight))
  assert.ok(runEstimateMs({ type: 'run', lib: 'pino', transport: 'console', cpus: 8, events: 100_000 }) > tight)
})

test('the time left updates per cell kind: two fast runs at 10,000/s say nothing of the runs at 1,000/s', async () => {
  const { schedule } = await issuePlan()
  let now = 0
  const clock = createPlanClock(schedule, { now: () => now })
  const fast = schedule.filter(({ cell }) => cell.settings.rate === 10_000).map(({ cell }) => cell)
  const slow = schedule.filter(({ cell }) => cell.settings.rate === 1000).map(({ cell }) => cell)
  for (const cell of fast.slice(0, 2)) {
    clock.started(cell)
    now += 5_000
    clock.finished(cell, 5_000)
  }
  const left = clock.leftMs(now)
  // The issue's line read "~2m04s left" here; 12 runs of 50 s remain, and 10 of 5 s.
  const remains = 12 * 50_000 + 10 * 5_000
  assert.ok(left >= remains && left <= remains * 2, `${left} ms left of about ${remains}`)
  // The fast runs' kind learnt they take 5 s, not the rule's 6 s; the slow ones keep the rule.
  assert.equal(left, 12 * (50_000 + SETUP_MS) + 10 * 5_000)
  // A slow run that took 80 s: its cell's other runs take 80 s, and the other libraries' cells at
  // 1,000/s (its kind) the rule times 80/51.
  clock.started(slow[0])
  now += 80_000
  clock.finished(slow[0], 80_000)
  const sameCell = slow.filter((c) => c === slow[0]).length - 1
  const others = 11 - sameCell
  assert.equal(Math.round(clock.leftMs(now)), Math.round(sameCell * 80_000 + others * 80_000 + 10 * 5_000))
  // Under way: the current run's time so far comes off its estimate.
  clock.started(slow[1])
  now += 30_000
  assert.equal(Math.round(clock.leftMs(now)), Math.round(10 * 80_000 + 50_000 + 10 * 5_000))
  clock.dropped(slow[1], 1)
  assert.equal(clock.runs(), 21 - 1)
})

test('the live line at 100 columns leads with the run\'s place, its cell and the time left for the plan; a long plan says its time first', async () => {
  const { schedule } = await issuePlan()
  const writes = []
  const stream = { isTTY: true, columns: 100, write: (text) => writes.push(text) }
  const progress = createProgress({ stream })
  const clock = createPlanClock(schedule)
  progress.begin(clock.runs(), { clock })
  assert.match(writes.join(''), /^\r\x1b\[2Kthis plan: 24 runs, about 11m24s by log-bench's estimate \(a paced run lasts --events ÷ --rate, a tight loop .* results\/seed-article\.json .*\)\n$/)
  const { cell } = schedule[0]
  clock.started(cell)
  progress.runStart({ label: cell.label, run: 1, runs: 3, timeoutMs: 600_000 })
  progress.live({ elapsedMs: 0, arrived: 0, rssBytes: 70 * 1024 ** 2 })
  progress.live({ elapsedMs: 1000, arrived: 1000, rssBytes: 75 * 1024 ** 2 })
  // The line is redrawn every 0.5 s.
  await new Promise((resolve) => setTimeout(resolve, 700))
  progress.end()
  const line = writes.filter((w) => w.startsWith('\r\x1b[2K1/24')).at(-1).replace('\r\x1b[2K', '')
  assert.ok(line.length < 100, line)
  const label = cell.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  assert.match(line, new RegExp(`^1/24 ${label} · 11m2\\ds left · limit in (9m5\\ds|10m00s) · 1,000 arrived \\(1,000\\/s\\)`))
  assert.match(cell.label, /^(pino|winston|bunyan|log4js), Console, 1 worker, 1?0?,000\/s$/)
  // A short plan says nothing before it starts.
  const quiet = []
  const short = createProgress({ stream: { isTTY: false, write: (text) => quiet.push(text) } })
  short.begin(2, { clock: createPlanClock(schedule.slice(0, 2).filter(({ cell }) => cell.settings.rate === 10_000)) })
  assert.deepEqual(quiet, [])
})

test('src/runner/plan-rates.js is what scripts/plan-rates.js makes of the committed pages', () => {
  assert.equal(fs.readFileSync(RATES_MODULE, 'utf8'), planRatesSource(), 'run node scripts/plan-rates.js')
})
