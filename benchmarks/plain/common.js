// Shared by the plain scripts: arguments, the seed's message loop, and the figures each script
// reports on stderr as one JSON line. Nothing of log-bench is imported: these are the plain
// programs log-bench's numbers are checked against (npm run bench:truth).
//   node benchmarks/plain/<lib>.js console <events>        | cat > /dev/null
//   node benchmarks/plain/<lib>.js file <events> <path>
import fs from 'node:fs'

export function args () {
  const [transport, eventsText, file] = process.argv.slice(2)
  const events = Number(eventsText)
  if (!['console', 'file'].includes(transport) || !Number.isSafeInteger(events) || events < 1 || (transport === 'file' && !file)) {
    process.stderr.write('usage: node <script> console <events> | node <script> file <events> <path>\n')
    process.exit(2)
  }
  return { transport, events, file }
}

// For a library with no file output: `file` is refused with one line on stderr and exit 2
// (bench:truth skips such cells as unsupported without running them).
export function consoleOnly (lib, transport, why) {
  if (transport === 'console') return
  process.stderr.write(`${lib}: no ${transport} transport: ${why}\n`)
  process.exit(2)
}

// The seed's loop, timed from the first call: loopReturned when it returns, unblocked when the event
// loop is next free (a setImmediate after it, as log-bench's worker measures: the work the logger
// deferred to process.nextTick and promises runs first), done when close() resolved. Between the
// first call and done, as log-bench's worker records them: the process's CPU time (user and system,
// every thread) and its write syscalls (/proc/self/io's syscw, every thread; null where there is no
// /proc), so that a gap in time can be told apart from a gap in work.
// PLAIN_ENDING (benchmarks/durability.js) ends the process another way right after the last call,
// as log-bench's --ending does: return, exit, uncaught, sigterm, sigterm-recipe (a SIGTERM handler
// that awaits close() then exits), sigkill. Figures are reported for close only.
// The seed's payload, or PLAIN_PAYLOAD_BYTES bytes of it padded as log-bench's --size pads it
// (src/engine/message.js, copied: nothing of log-bench is imported here).
const SEED_PAYLOAD = 'Hello, world!'
const PAYLOAD = payloadOfSize(process.env.PLAIN_PAYLOAD_BYTES ? Number(process.env.PLAIN_PAYLOAD_BYTES) : null)
function payloadOfSize (size) {
  if (size == null) return SEED_PAYLOAD
  if (size <= SEED_PAYLOAD.length) return SEED_PAYLOAD.slice(0, size)
  return SEED_PAYLOAD + ' ' + 'x'.repeat(size - SEED_PAYLOAD.length - 1)
}

export async function measure (events, log, close) {
  const ending = process.env.PLAIN_ENDING || 'close'
  if (ending === 'sigterm-recipe') process.once('SIGTERM', () => close().then(() => process.exit(0)))
  // log-bench's workers log only once their logger is built and the start barrier released them, many
  // turns of the event loop later: a destination opened asynchronously (pino.destination(file)) is
  // open by then. Ended early, a script that logged at once would lose what log-bench cannot see.
  if (ending !== 'close') await new Promise((resolve) => setTimeout(resolve, 100))
  const ioBefore = writeSyscalls()
  const cpuBefore = process.cpuUsage()
  const startNs = process.hrtime.bigint()
  for (let seq = 0; seq < events; seq++) log('w0 ' + seq + ': ' + PAYLOAD)
  const loopReturnedNs = process.hrtime.bigint()
  if (ending !== 'close') return end(ending)
  await new Promise(setImmediate)
  const unblockedNs = process.hrtime.bigint()
  await close()
  const doneNs = process.hrtime.bigint()
  const cpu = process.cpuUsage(cpuBefore)
  const ioAfter = writeSyscalls()
  const ms = (ns) => Number(ns - startNs) / 1e6
  process.stderr.write(JSON.stringify({
    loopReturnedMs: ms(loopReturnedNs),
    unblockedMs: ms(unblockedNs),
    doneMs: ms(doneNs),
    cpuUserMs: cpu.user / 1000,
    cpuSystemMs: cpu.system / 1000,
    syscallsWrite: ioBefore == null || ioAfter == null ? null : ioAfter - ioBefore,
    maxRssKiB: process.resourceUsage().maxRSS
  }) + '\n')
}

function writeSyscalls () {
  try {
    return Number(/^syscw: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'))[1])
  } catch {
    return null
  }
}

// process.stdout.write's callback for an empty write comes after everything queued before it.
export function stdoutWritten () {
  return new Promise((resolve, reject) => process.stdout.write('', (err) => (err ? reject(err) : resolve())))
}

function end (ending) {
  if (ending === 'return') return
  if (ending === 'exit') process.exit(0)
  if (ending === 'uncaught') throw new Error('plain script: an uncaught exception right after the last call')
  if (ending === 'sigterm' || ending === 'sigterm-recipe') return process.kill(process.pid, 'SIGTERM')
  if (ending === 'sigkill') return process.kill(process.pid, 'SIGKILL')
  process.stderr.write(`PLAIN_ENDING: unknown ending "${ending}" (close, return, exit, uncaught, sigterm, sigterm-recipe, sigkill)\n`)
  process.exit(2)
}
