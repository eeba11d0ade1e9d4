#!/usr/bin/env node
// npm run bench:startup -- [--reps 5] [--quick]
//
// How long log-bench takes to answer --version and --help (top-level and per command) beside a bare
// `node -e 0`: the commands a user types first, which should start as fast as node itself plus the
// command line's parser, not load the report's charts or the result model. Each command runs --reps
// times (5), interleaved in rounds so that a slow moment of the machine falls on every command alike;
// the table gives each one's median wall time and its difference from node's, against the goal (within
// GOAL_MS of node). --quick: one round, so a test can check that it works; its figures say nothing.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { figureColumns, terminalTable } from '../src/draw/table.js'
import { median } from '../src/stats.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const BIN = path.join(ROOT, 'bin', 'log-bench.js')
const GOAL_MS = 250
const BARE = { label: 'node -e 0', args: ['-e', '0'] }
const COMMANDS = [
  BARE,
  { label: 'log-bench --version', args: [BIN, '--version'] },
  { label: 'log-bench --help', args: [BIN, '--help'] },
  { label: 'log-bench run --help', args: [BIN, 'run', '--help'] },
  { label: 'log-bench http --help', args: [BIN, 'http', '--help'] },
  { label: 'log-bench report --help', args: [BIN, 'report', '--help'] }
]

const { values } = parseArgs({ options: { reps: { type: 'string' }, quick: { type: 'boolean', default: false } } })
const reps = Number(values.reps ?? (values.quick ? 1 : 5))
if (!Number.isSafeInteger(reps) || reps < 1) {
  process.stderr.write(`bench:startup: --reps must be a positive integer, got "${values.reps}"\n`)
  process.exit(2)
}

function timeOnce ({ label, args }) {
  const began = process.hrtime.bigint()
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  const ms = Number(process.hrtime.bigint() - began) / 1e6
  if (result.status !== 0) {
    process.stderr.write(`bench:startup: ${label} exited with ${result.status ?? result.signal}: ${result.stderr.trim().split('\n')[0]}\n`)
    process.exit(1)
  }
  return ms
}

process.stderr.write(`bench:startup: ${COMMANDS.length} commands, ${reps} round${reps > 1 ? 's' : ''}${values.quick ? ' (--quick: checks that it works; not its figures)' : ''}\n`)
const times = new Map(COMMANDS.map((c) => [c.label, []]))
for (let round = 0; round < reps; round++) {
  for (const command of COMMANDS) times.get(command.label).push(timeOnce(command))
}

const bare = median(times.get(BARE.label))
const ms = (v) => v.toLocaleString('en-US', { maximumFractionDigits: 0 })
const rows = COMMANDS.map(({ label }) => {
  const mid = median(times.get(label))
  if (label === BARE.label) return [label, ms(mid), '', '']
  const over = mid - bare
  return [label, ms(mid), `${over >= 0 ? '+' : ''}${ms(over)}`, over <= GOAL_MS ? 'yes' : '**no**']
})
process.stdout.write(`start-up, median wall time of ${reps} in ms, beside node -e 0\n`)
process.stdout.write(terminalTable({ columns: figureColumns(['command', 'median ms', 'beyond node', `within ${GOAL_MS} ms`]), rows }) + '\n')
