import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { createProgress, describeLive, holdingOf, liveParts, observe, stallOf, STALL_QUIET_MS } from '../src/cli/progress.js'
import { ADAPTERS, leftovers, readJson, runCli, tmpDir, waitFor } from './helpers.js'

const GB = 1024 ** 3

function watchOver (samples) {
  let watch = null
  for (const s of samples) watch = observe(watch, s)
  return watch
}

test('live figures: arrivals with their rate and the workers\' memory', () => {
  const watch = watchOver([
    { elapsedMs: 0, arrived: 0, rssBytes: 0.1 * GB },
    { elapsedMs: 2000, arrived: 200_000, rssBytes: 0.2 * GB }
  ])
  assert.equal(describeLive(watch), '200,000 arrived (100,000/s), workers 205 MiB')
  assert.equal(stallOf(watch), null)
})

test('the rate never reads 0/s while the count moves: a trickle keeps its decimals, a count standing still says since when', () => {
  // 65,109 arrived in the first second, then one event every 4 s: 2 or 3 events in the 10 s window.
  const trickle = [{ elapsedMs: 0, arrived: 0, rssBytes: null }]
  for (let t = 500; t <= 20_000; t += 500) {
    trickle.push({ elapsedMs: t, arrived: 65_109 + Math.floor(t / 4000), rssBytes: null })
  }
  const text = describeLive(watchOver(trickle))
  assert.equal(text, '65,114 arrived (0.3/s)')
  // The receiving end's figure standing still for 12 s (its reader catching up), then moving again.
  const still = [{ elapsedMs: 0, arrived: 0, rssBytes: null }, { elapsedMs: 1000, arrived: 65_109, rssBytes: null }]
  for (let t = 1500; t <= 13_000; t += 500) still.push({ elapsedMs: t, arrived: 65_109, rssBytes: null })
  // From 10 s without an arrival the line leads with it.
  assert.equal(describeLive(watchOver(still)), 'nothing has arrived for 12.0 s; 65,109 arrived')
  assert.equal(describeLive(watchOver([...still, { elapsedMs: 13_500, arrived: 400_000, rssBytes: null }])), '400,000 arrived (33,489/s)')
  // A slow file: KiB per second, not "0 MiB/s".
  const slow = watchOver([
    { elapsedMs: 0, arrived: null, bytes: 0, rssBytes: null },
    { elapsedMs: 4000, arrived: null, bytes: 200 * 1024, rssBytes: null }
  ])
  assert.equal(describeLive(slow), '200 KiB written (50 KiB/s), arrivals counted after close')
})

test('a file run shows bytes written and says arrivals are counted after close', () => {
  const watch = watchOver([
    { elapsedMs: 0, arrived: null, bytes: 0, rssBytes: null },
    { elapsedMs: 1000, arrived: null, bytes: 10 * 1024 ** 2, rssBytes: null }
  ])
  assert.equal(describeLive(watch), '10 MiB written (10 MiB/s), arrivals counted after close')
})

test('nothing arriving for a long while with memory growing is flagged as stalled, with the figures', () => {
  const samples = []
  for (let t = 0; t <= STALL_QUIET_MS + 2000; t += 500) {
    samples.push({ elapsedMs: t, arrived: 0, rssBytes: GB + t * 100_000 })
  }
  const watch = watchOver(samples)
  assert.deepEqual(stallOf(watch), { quietMs: STALL_QUIET_MS + 2000, rssBytes: GB + (STALL_QUIET_MS + 2000) * 100_000 })
  assert.equal(describeLive(watch), 'nothing has arrived for 32.0 s; logger holds 4.0 GiB, 0 arrived, growing; 0 arrived, workers 4.0 GiB')
})

test('quiet with flat memory, or arrivals still coming, is not a stall', () => {
  const flat = []
  const moving = []
  for (let t = 0; t <= STALL_QUIET_MS + 2000; t += 500) {
    flat.push({ elapsedMs: t, arrived: 5, rssBytes: GB })
    moving.push({ elapsedMs: t, arrived: t, rssBytes: GB + t * 100_000 })
  }
  assert.equal(stallOf(watchOver(flat)), null)
  assert.equal(stallOf(watchOver(moving)), null)
})

test('without a terminal, a running run gets a line every interval, live figures or none (a counted or http run reports none)', async () => {
  const lines = []
  const stream = { isTTY: false, write: (text) => lines.push(text) }
  const progress = createProgress({ stream, logEveryMs: 20 })
  progress.begin(2)
  progress.runStart({ label: 'pino udp 1 cpu', run: 1, runs: 2 })
  progress.live({ elapsedMs: 500, arrived: 10, rssBytes: 50 * 1024 ** 2 })
  await waitFor(() => lines.length >= 2, 10_000)
  assert.match(lines[0], /^\[0\/2\] pino udp 1 cpu run 1: \d+\.\d s so far, 10 arrived, workers 50 MiB\n$/)
  progress.runEnd('pino udp 1 cpu', 1, 'done')
  lines.length = 0
  progress.runStart({ label: 'pino file 1 cpu (instructions)', run: 2, runs: 2 })
  await waitFor(() => lines.length >= 2, 10_000)
  assert.match(lines[0], /^\[1\/2\] pino file 1 cpu \(instructions\) run 2: \d+\.\d s so far\n$/)
  progress.end()
  const ended = lines.length
  await new Promise((resolve) => setTimeout(resolve, 100))
  assert.equal(lines.length, ended, 'no line after the session ended')
  const quiet = []
  const slow = createProgress({ stream: { isTTY: false, write: (text) => quiet.push(text) } })
  slow.begin(1)
  slow.runStart({ label: 'x', run: 1, runs: 1 })
  slow.live({ elapsedMs: 500, arrived: 10, rssBytes: 1 })
  slow.runEnd('x', 1, 'done')
  assert.deepEqual(quiet, ['[1/1] x run 1: done\n'], 'a short run prints only its end')
})

test('a run past the time limit: the rest of its cell is skipped with the reason, unless --retry-timeouts', async () => {
  const dir = tmpDir('lb-skip-')
  // hanging's close() never resolves: each of its runs lasts exactly its --timeout, 3 s as in
  // stuck-run.test.js (it counts from the start of logging, so a busy machine does not eat into it).
  const hanging = path.join(ADAPTERS, 'hanging.js')
  try {
    const out = path.join(dir, 'skip.json')
    const retried = path.join(dir, 'retry.json')
    // Two invocations at once, each with its own output and tag: hanging's runs only wait.
    const [ran, again] = await Promise.all([
      runCli(['run', '--lib', `${hanging},raw`, '--transport', 'file', '--events', '100', '--runs', '3', '--timeout', '3', '--out', out]),
      runCli(['run', '--lib', hanging, '--transport', 'file', '--events', '100', '--runs', '2', '--timeout', '3', '--retry-timeouts', '--out', retried])
    ])
    assert.equal(ran.code, 0, ran.stderr)
    assert.deepEqual(leftovers(ran.tag), [])
    const runs = readJson(out).runs.filter((r) => r.lib === 'hanging')
    assert.deepEqual(runs.map((r) => r.status), ['failed', 'skipped', 'skipped'])
    for (const r of runs.slice(1)) assert.equal(r.error, 'run 1 timed out after 3 s; --retry-timeouts runs them anyway')
    assert.match(ran.stderr, /hanging, Filesystem, 1 worker: runs 2, 3 skipped: run 1 timed out after 3 s/)
    assert.match(ran.stdout, /2 skipped after a time limit/)
    assert.equal(readJson(out).summary.find((s) => s.lib === 'hanging').skippedRuns, 2)
    assert.deepEqual(readJson(out).runs.filter((r) => r.lib === 'raw').map((r) => r.status), ['ok', 'ok', 'ok'])

    assert.equal(again.code, 0, again.stderr)
    assert.deepEqual(leftovers(again.tag), [])
    assert.deepEqual(readJson(retried).runs.map((r) => r.status), ['failed', 'failed'])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('memory that peaked and now only rises and falls below its peak is not growth: quiet, not stalled', () => {
  const samples = []
  // Grows to 1.5 GB over 20 s, then saw-tooths between 1.2 and 1.3 GB (a garbage collector) for a minute.
  for (let t = 0; t <= 20_000; t += 500) samples.push({ elapsedMs: t, arrived: 1, rssBytes: GB + t * 25_000 })
  for (let t = 20_500; t <= 80_000; t += 500) {
    samples.push({ elapsedMs: t, arrived: 1, rssBytes: 1.2 * GB + (t % 10_000) * 10_000 })
  }
  const watch = watchOver(samples)
  assert.equal(stallOf(watch), null)
  assert.equal(holdingOf(watch), null, 'a fifth more memory than at the last arrival is no hold')
  assert.equal(describeLive(watch), "nothing has arrived for 1m20s (workers' memory peaked at 1.5 GiB); 1 arrived, workers 1.2 GiB")
})

test('a busy machine: one line on stderr before the first run (LOG_BENCH_BUSY_LOAD sets the threshold), a bad threshold is one line and exit 2', async () => {
  const dir = tmpDir()
  const args = ['run', '--lib', 'noop', '--transport', 'file', '--events', '10', '--runs', '1', '--quiet']
  // The three at once, each into its own file: what they say depends on the threshold, not the load.
  const [busy, quiet, bad] = await Promise.all([['busy.json', '0'], ['quiet.json', 'off'], ['bad.json', '-1']].map(([file, threshold]) =>
    runCli([...args, '--out', path.join(dir, file)], { env: { LOG_BENCH_BUSY_LOAD: threshold } })))
  assert.equal(busy.code, 0, busy.stderr)
  assert.match(busy.stderr, /^log-bench: the machine is busy: load average \d+\.\d\d over the last minute on \d+ CPUs?, [\d.]+ GiB of memory available; times measured now are slower and spread more than on a quiet machine \(this warns from 0 per CPU; LOG_BENCH_BUSY_LOAD sets it\)\n$/)
  assert.equal(quiet.stderr, '')
  assert.equal(bad.code, 2)
  assert.equal(bad.stderr, 'log-bench: LOG_BENCH_BUSY_LOAD must be a load average per CPU such as 0.5 (0 warns always), or off, got "-1"\n')
  assert.equal(fs.existsSync(path.join(dir, 'bad.json')), false)
})

test('a stuck run says so first: its cell, the time left before --timeout and how long nothing has arrived within a 100-column line, and the memory the logger holds on a line of its own', async () => {
  // winston-syslog over UDP at 1,000,000 events: nothing arrives, the workers grow to 3.9 GB and stay there.
  const samples = []
  for (let t = 0; t <= 372_000; t += 500) {
    samples.push({ elapsedMs: t, arrived: 0, rssBytes: Math.min(3.9 * GB, 0.4 * GB + t * 50_000) })
  }
  const watch = watchOver(samples)
  assert.equal(stallOf(watch), null, 'no longer growing')
  const held = holdingOf(watch)
  assert.ok(held && held.rssBytes === 3.9 * GB && held.arrived === 0)
  assert.equal(liveParts(watch).lead, 'nothing has arrived for 6m12s; logger holds 3.9 GiB, 0 arrived')

  // Memory sampled apart from arrivals: a first figure without it still starts the stretch's memory.
  assert.ok(holdingOf(watchOver([{ elapsedMs: 0, arrived: 0, rssBytes: null }, ...samples.slice(1)])))

  const writes = []
  const stream = { isTTY: true, columns: 100, write: (text) => writes.push(text) }
  const progress = createProgress({ stream })
  progress.begin(5)
  progress.runStart({ label: 'winston, Syslog UDP, 8 workers', run: 1, runs: 5, timeoutMs: 600_000 })
  for (const figures of samples) progress.live(figures)
  progress.end()
  // Said once, whole, on a line of its own.
  const said = writes.filter((w) => w.includes('holding events in memory') && w.endsWith('\n'))
  assert.equal(said.length, 1)
  assert.match(said[0], /^winston, Syslog UDP, 8 workers run 1: the logger is holding events in memory: [\d.]+ GiB and growing, 0 arrived \(nothing has arrived for 30\.0 s while the workers' memory rose from 410 MiB\)\n$/)
  // The redrawn line: what matters first, cut to the terminal's width.
  const line = writes.filter((w) => w.includes('limit in')).at(-1).replace('\r\x1b[2K', '')
  assert.ok(line.length < 100, line)
  assert.match(line, /^1\/5 winston, Syslog UDP, 8 workers · limit in (9m5\ds|10m00s) · nothing has arrived for 30\.0 s; logger holds/)
  // Ten minutes in, the countdown and the hold still fit: the longest figures the line can have.
  const late = ['run 1/5 6m12s, limit in 3m48s', liveParts(watch).lead].join(' · ')
  assert.ok(late.length < 100, late)
})
