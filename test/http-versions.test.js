import assert from 'node:assert/strict'
import { test } from 'node:test'
import { comparisonTable, latencyTable, medianRuns } from '../src/report/http/tables.js'

// Two versions of one library in one http cell (--lib none,winston@2,winston@3) are two rows, each
// with its own runs: never one median over both.
const run = (lib, libVersion, libRange, reqPerSec, i) => ({
  type: 'http',
  lib,
  libVersion,
  libRange,
  mode: 'route',
  transport: 'console',
  cpus: 1,
  logsPerRequest: 5,
  size: 20,
  run: i + 1,
  ok: true,
  reqPerSec: { mean: reqPerSec },
  bytesPerSec: {},
  latencyMs: { p2_5: 1, p50: 1, p97_5: 8, p99: reqPerSec / 1000, mean: 2, stddev: 1, max: 30 }
})

test('http tables: two versions of one library in a cell are two rows with their own runs', () => {
  const runs = [
    ...[4000, 4100, 4200].map((v, i) => run('winston', '2.4.7', '2', v, i)),
    ...[1000, 1100, 1200].map((v, i) => run('winston', '3.19.0', '3', v, i)),
    ...[5000, 5100, 5200].map((v, i) => run('none', '20.20.2', null, v, i))
  ]
  const chosen = medianRuns(runs)
  assert.deepEqual(chosen.map((r) => `${r.lib}@${r.libVersion} ${r.reqPerSec.mean}`).sort(), ['none@20.20.2 5100', 'winston@2.4.7 4100', 'winston@3.19.0 1100'])
  assert.deepEqual(latencyTable(chosen).rows.map((row) => row[0]).sort(), ['none', 'winston@2.4.7', 'winston@3.19.0'])
  const summary = [
    { lib: 'winston', libVersion: '2.4.7', libRange: '2', runs: 3, okRuns: 3, errors: [] },
    { lib: 'winston', libVersion: '3.19.0', libRange: '3', runs: 3, okRuns: 3, errors: [] }
  ]
  assert.deepEqual(comparisonTable(summary).rows.map((row) => row[0]), ['winston@2.4.7', 'winston@3.19.0'])
})
