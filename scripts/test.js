#!/usr/bin/env node
// The test suite, every file of test/ in exactly one of three lists (test/test-lists.test.js fails on
// a file in none, in two, or on a list naming a file that is gone, so a new test file must be placed):
//
// QUICK, the unit layer: in-process, no forked workers, no rsyslogd, no browser, no real run, no
//   benchmark script and no compiler (test/types.test.js's tsc is minutes on a busy machine);
//   `npm run test:quick` runs it, two files at a time, in under 3 minutes on 2 cores.
// SIDE_BY_SIDE: process-heavy files whose assertions hold whatever runs beside them (their own
//   temporary directories, ports the system chooses, processes found by their own tag, no figure or
//   verdict of a real run asserted): two at a time.
// ALONE: process-heavy files that assert what a real run's timing decides (a verdict, a run that
//   finishes inside its --timeout, an exit within seconds of a signal, a quiet period), load the
//   machine themselves, or drive a browser: one at a time, with nothing beside them. A file with
//   cases of both kinds is split, so that only its timed cases wait for a core of their own
//   (run-errors and run-signals, hostile-processes and hostile-processes-timed, alternate-failures
//   and alternate); a lower bound of time (a stalled reader holds a run back at least so long) is
//   no reason to run alone, as a busy machine only lengthens it.
//
// `node scripts/test.js` (what `npm test` runs after the lint) runs all three; `node scripts/test.js
// quick` the unit layer only. Any further arguments go to `node --test` (e.g. --test-reporter=spec).
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const QUICK = [
  'recorded-paths',
  'bursts-section', 'cell-words', 'ci-formats', 'conditions', 'estimate', 'contradictions', 'costs-report', 'destinations', 'durability-report', 'errors',
  'fits-terminal', 'help', 'http-counted-report', 'http-glance', 'http-placement', 'http-units', 'http-verifier',
  'http-versions', 'knee', 'latency-section', 'layers', 'limits', 'links', 'rank', 'readme', 'receivers', 'record-schema',
  'report', 'run-dir', 'run-types', 'scale', 'scorecard', 'stats', 'syslog-parse', 'table',
  'test-lists', 'transports', 'udp-drops', 'verdict', 'verifier', 'version', 'versions-report', 'winston-close',
  'worker-measures'
]

export const SIDE_BY_SIDE = [
  'adapter-modules', 'adapters-popular', 'alternate-failures', 'api', 'bad-input', 'bunyan-sys', 'cell-key', 'compare', 'console-reader',
  'cores', 'costs', 'decidable', 'delivery', 'delivery-latency', 'docs-hold', 'durability-plain', 'endings', 'fallback-reader', 'faults',
  'gate', 'hostile', 'hostile-documents', 'hostile-processes', 'hostile-round4', 'hostile-round5', 'inputs', 'instructions', 'local-lib',
  'options', 'order', 'outputs', 'package', 'pages', 'pr-workflow', 'profile-summary', 'raw', 'receiver-limits', 'report-workflow',
  'run', 'run-errors', 'runner', 'runs-auto', 'scenario', 'shards', 'sink', 'sink-death', 'stuck-run', 'summary', 'syslog-libs', 'syslog-rsyslog', 'types',
  'unblocked', 'versions', 'vocabulary', 'worker-messages', 'workloads'
]

export const ALONE = [
  'alternate', 'answer', 'benchmarks', 'hostile-processes-timed', 'html', 'http', 'overload',
  'profile', 'progress', 'rate', 'run-signals'
]

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const files = (names) => names.map((name) => path.join('test', `${name}.test.js`))

function nodeTest (names, concurrency, extra) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...extra, ...files(names)], { cwd: ROOT, stdio: 'inherit' })
    // Ctrl-C reaches the runner's whole process group; the exit code says how it ended.
    child.on('close', (code, signal) => resolve(code ?? 128 + (signal === 'SIGINT' ? 2 : 15)))
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  if (args[0] === 'quick') {
    process.exitCode = await nodeTest(QUICK, 2, args.slice(1))
  } else {
    // The long files first: two at a time, the last pair's ends are the quick layer's short files, so
    // one slot does not idle while the other finishes a minute-long file.
    const paired = await nodeTest([...SIDE_BY_SIDE, ...QUICK], 2, args)
    const alone = await nodeTest(ALONE, 1, args)
    process.exitCode = paired || alone
  }
}
