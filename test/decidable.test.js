import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { cellKey } from '../src/results/model.js'
import { fewestDecidingRuns, undecidableWarning } from '../src/runner/decidable.js'
import { run } from '../src/api/index.js'
import { runCli, tmpDir } from './helpers.js'

// Cells of runCells' shape: one per library, in one comparison group unless `transport` differs.
const cellsOf = (libs, runs, { measure = 'time', transport = 'file' } = {}) => libs.map((lib) => {
  const settings = { type: 'run', lib, variant: 'default', workload: 'string', transport, cpus: 1, events: 10, size: 13, measure }
  return { key: cellKey(settings), label: lib, settings, runs, unsupported: null }
})

test('a design that cannot decide is named before it runs: the fewest runs that could, in one line', () => {
  assert.equal(fewestDecidingRuns(), 4)
  assert.equal(fewestDecidingRuns(0.01), 5)
  // Counted: compared unpaired, 3 + 3 runs cannot go below p 0.1.
  assert.equal(
    undecidableWarning(cellsOf(['pino', 'raw'], 3, { measure: 'instructions' })),
    '3 runs a cell cannot decide a counted comparison (3 + 3 runs give p ≥ 0.1); 4 could'
  )
  assert.equal(undecidableWarning(cellsOf(['pino', 'raw'], 4, { measure: 'instructions' })), null)
  // Timed, in rounds: unpaired below 6 rounds, so 4 could decide and 6 pair.
  assert.equal(
    undecidableWarning(cellsOf(['pino', 'raw'], 2)),
    '2 runs a cell cannot decide a timed comparison (2 + 2 runs give p ≥ 0.33); 4 could, and 6 pair its rounds'
  )
  assert.equal(
    undecidableWarning(cellsOf(['pino', 'raw'], 1), { order: { mode: 'blocked' } }),
    '1 run a cell cannot decide a timed comparison (one run a side gives no test); 4 could'
  )
  assert.equal(undecidableWarning(cellsOf(['pino', 'raw'], 5)), null)
  // Nothing to compare: one library a group.
  assert.equal(undecidableWarning(cellsOf(['pino'], 1)), null)
  // At --alpha 0.01, 4 + 4 (0.029) cannot either.
  assert.match(undecidableWarning(cellsOf(['pino', 'raw'], 4), { alpha: 0.01 }), /^4 runs a cell cannot decide a timed comparison \(4 \+ 4 runs give p ≥ 0\.029\); 5 could/)
  // Several groups: still one line, saying how many of the groups.
  assert.equal(
    undecidableWarning([...cellsOf(['pino', 'raw'], 3, { measure: 'instructions' }), ...cellsOf(['pino', 'raw'], 6, { transport: 'console' })]),
    '3 runs a cell cannot decide a counted comparison (3 + 3 runs give p ≥ 0.1); 4 could (1 of 2 comparison groups)'
  )
})

test('log-bench run with too few runs to decide says so once on stderr, before the first run, and runs; the API says it as a warning event', async () => {
  const out = path.join(tmpDir(), 'r.json')
  const ran = await runCli(['run', '--lib', 'noop,raw', '--transport', 'file', '--events', '10', '--runs', '3', '--out', out])
  assert.equal(ran.code, 0, ran.stderr)
  const lines = ran.stderr.split('\n')
  const warned = lines.findIndex((l) => l === 'log-bench: 3 runs a cell cannot decide a timed comparison (3 + 3 runs give p ≥ 0.1); 4 could, and 6 pair its rounds')
  assert.ok(warned >= 0, ran.stderr)
  assert.equal(lines.filter((l) => /cannot decide/.test(l)).length, 1, ran.stderr)
  const firstRun = lines.findIndex((l) => l.startsWith('[1/6] '))
  assert.ok(firstRun > warned, ran.stderr)
  const warnings = []
  const job = run({ libs: ['noop', 'raw'], transports: ['file'], events: 10, runs: 2 })
  job.on('warning', (text) => warnings.push(text))
  const doc = await job
  assert.equal(doc.runs.length, 4)
  assert.deepEqual(warnings.filter((w) => /cannot decide/.test(w)), ['2 runs a cell cannot decide a timed comparison (2 + 2 runs give p ≥ 0.33); 4 could, and 6 pair its rounds'])
})
