import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { RunFailure, UsageError } from '../errors.js'
import { isExecutable } from './executable.js'

// --measure instructions: a worker process counted whole (every thread) by a CPU simulator
// (valgrind's cachegrind) or, where the kernel exposes them, hardware counters (perf stat). Both
// count from the process's start to its end; what the logging costs between the start barrier and
// done is the difference between a pass of 2N events and a pass of N events (src/run/counted.js).
// docs/costs.md "Method and limits" has the method and what it does not count.

export const MEASURES = ['time', 'instructions']
export const DEFAULT_MEASURE = 'time'
export const INSTALL_VALGRIND = 'apt-get install valgrind'

// V8 without its background threads (compilation, GC helpers) and with GC at fixed points: without
// the two flags the same pino loop's count wandered by 8%; with them, two tries were 0.1% apart.
// And with fixed seeds: V8 draws its hash seed at random on every start, and both what deriving the
// hash secrets from it costs (a search for primes: 3.7 to 13.7 million instructions in one start)
// and how often property names collide in V8's hash tables follow the draw; that alone moved a
// 20,000-event difference by up to 1.5%. `node -e 1` counts within 500 instructions of 510 million
// with the seeds fixed, within 2.7 million without. The same seed for every library: one layout of
// the hash tables, the same for all.
export const COUNTED_NODE_FLAGS = ['--single-threaded', '--predictable-gc-schedule', '--hash-seed=1', '--random-seed=1']

// A counted http server, beside those, collects only as its allocation says, never as the event
// loop's tasks happen to run: V8's incremental marking goes in steps posted as tasks and keeps the
// write barrier on while it lasts, and its scavenge task runs when the loop gets to it, so how much of
// either fell between request N and 2N followed the simulator's pace (marking alone came to 74,000 to
// 126,000 instructions per request over ten runs of one app). And its old generation is not
// collected while it serves (its limit 1 GiB from the start) but once, fully, when it stops
// (collectEverything in src/http/server-worker.js), in the run of N and of 2N requests alike: an
// atomic mark-compact of the whole heap between request N and 2N, or none, was a step of up to 9% of
// a request's count. The difference holds what the N more requests left in the old generation, in
// proportion (docs/costs.md, "Collections that follow allocation"). `run`'s tight loops keep V8's
// incremental marking and limit: with them pino's counts repeat to a few tenths of a per cent, and an atomic
// mark-compact in one pass and not the other moved pino-hash's count by 4%.
export const COUNTED_SERVER_NODE_FLAGS = ['--no-incremental-marking', '--no-minor-gc-task', '--initial-old-space-size=1024']

// --vgdb=no: valgrind's gdbserver (on by default) makes two FIFOs and a shared-memory file in the
// temporary directory per process, removed at its exit: a worker killed (SIGKILL, a run's --timeout)
// left them behind. The count is the guest's instructions, the same without the gdbserver.
const VALGRIND_ARGS = ['--tool=cachegrind', '--cache-sim=no', '--smc-check=all-non-file', '--vgdb=no', '--quiet']

// The first executable of that name on PATH, or null.
export function onPath (name, env = process.env) {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue
    const file = path.join(dir, name)
    if (isExecutable(file)) return file
  }
  return null
}

// Whether perf can count user-space instructions here: the kernel exposes the counter to this user
// (a VM often does not: "<not supported>").
function perfCounts (perf) {
  const probe = spawnSync(perf, ['stat', '-x,', '-e', 'instructions:u', '--', 'true'], { encoding: 'utf8', timeout: 10_000 })
  if (probe.status !== 0) return false
  return /^\d+,/m.test(probe.stderr ?? '')
}

// Which counter runs: valgrind where installed (the same count on any machine, the anchor of the
// comparisons), else perf where the kernel exposes the counter. Neither: a UsageError that says how
// to install valgrind. The fields are a cell's settings' (the method is also its records'), and the
// functions below read them from the settings as they are.
export function instructionsMethod (env = process.env) {
  const valgrind = onPath('valgrind', env)
  if (valgrind) return { instructionsMethod: 'valgrind', instructionsTool: valgrind }
  const perf = onPath('perf', env)
  if (perf && perfCounts(perf)) return { instructionsMethod: 'perf', instructionsTool: perf }
  throw new UsageError(`--measure instructions needs valgrind (not found on PATH${perf ? '; perf is there but this kernel does not expose the instructions counter' : ''}): install it with \`${INSTALL_VALGRIND}\``)
}

// Why a runtime cannot be counted, or null: the flags above are Node's (V8's).
export function countingUnsupported (runtime) {
  return runtime.name === 'node' ? null : `--measure instructions runs Node workers only (the V8 flags ${COUNTED_NODE_FLAGS.join(' ')} keep the count stable); ${runtime.label} is not Node`
}

// The runtime a counted worker is forked under (see forkWorker): the counter's binary, which starts
// Node with the worker file appended, writing its count to outFile.
export function countingRuntime (runtime, counter, outFile, nodeFlags = []) {
  const node = runtime?.execPath ?? process.execPath
  const nodeArgs = [...COUNTED_NODE_FLAGS, ...nodeFlags, ...(runtime?.execArgv ?? [])]
  const toolArgs = counter.instructionsMethod === 'valgrind'
    ? [...VALGRIND_ARGS, `--cachegrind-out-file=${outFile}`]
    : ['stat', '-x,', '-e', 'instructions:u', '-o', outFile, '--']
  return { name: 'node', label: runtime?.label ?? 'node', execPath: counter.instructionsTool, execArgv: [...toolArgs, node, ...nodeArgs] }
}

// V8's optimizing and baseline compilers (TurboFan, Maglev, Sparkplug): a function whose demangled
// name mentions one of their namespaces runs only while code is compiled (std:: containers
// instantiated for the compiler's types included). The C library's functions they call (memset,
// malloc) are not told apart: cachegrind keeps no call graph.
const COMPILER_FUNCTION = /v8::internal::(?:compiler|maglev|baseline)::/

// The count a finished counted process left in outFile.
export function readCount (counter, outFile) {
  const text = countText(counter, outFile)
  const match = counter.instructionsMethod === 'valgrind' ? /^summary: (\d+)/m.exec(text) : /^(\d+),[^,]*,instructions/m.exec(text)
  if (!match) throw new RunFailure(`the ${counter.instructionsMethod} output holds no instruction count`)
  return Number(match[1])
}

// How many of the instructions in outFile V8's compilers executed (COMPILER_FUNCTION), from
// cachegrind's per-function counts ("fn=<name>" then "<line> <count>" lines); null for perf, which
// counts the process as one number.
export function readCompilerCount (counter, outFile) {
  if (counter.instructionsMethod !== 'valgrind') return null
  const text = countText(counter, outFile)
  let compiler = false
  let total = 0
  let start = 0
  while (start < text.length) {
    let end = text.indexOf('\n', start)
    if (end === -1) end = text.length
    if (text.startsWith('fn=', start)) compiler = COMPILER_FUNCTION.test(text.slice(start + 3, end))
    else if (compiler) {
      const code = text.charCodeAt(start)
      if (code >= 48 && code <= 57) {
        // "<line> <Ir> [<other events>…]": the first count is the instructions.
        const fields = text.slice(start, end).split(' ')
        if (fields.length > 1) total += Number(fields[1])
      }
    }
    start = end + 1
  }
  if (!Number.isFinite(total)) throw new RunFailure(`the ${counter.instructionsMethod} output's per-function counts are unreadable`)
  return total
}

function countText (counter, outFile) {
  try {
    return fs.readFileSync(outFile, 'utf8')
  } catch (err) {
    throw new RunFailure(`the ${counter.instructionsMethod} count was not written (${err.code ?? err.message}): did the worker end normally?`)
  }
}
