import { randomBytes } from 'node:crypto'
import fs from 'node:fs'

// Processes an adapter starts (a helper, a `sleep 300`, detached or not, or one holding the worker's
// stdout) must not outlive the run: they would hold the console pipe open, keep measuring load on
// the machine, and outlive log-bench. node:cluster cannot put a worker in a process group of its
// own, so each run's workers carry a tag in their environment, which every process they start
// inherits; after the run, whatever still carries it is ended and named in the run's record.

export const TAG_VARIABLE = 'LOG_BENCH_RUN_TAG'

export function newRunTag () {
  return randomBytes(12).toString('hex')
}

// Kills (SIGKILL) every process of this user that carries the tag, except `spare` (pids the caller
// ends itself); returns what they were, as "pid command line", for the run's record.
export function endTagged (tag, spare = []) {
  const found = []
  let pids = []
  try { pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number) } catch { return found }
  const needle = Buffer.from(`\0${TAG_VARIABLE}=${tag}\0`)
  for (const pid of pids) {
    if (pid === process.pid || spare.includes(pid)) continue
    try {
      const environ = Buffer.concat([Buffer.from([0]), fs.readFileSync(`/proc/${pid}/environ`)])
      if (!environ.includes(needle)) continue
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0+$/, '').replace(/\0/g, ' ')
      process.kill(pid, 'SIGKILL')
      found.push(`${pid} ${cmdline.slice(0, 80)}`)
    } catch {
      // Gone meanwhile, or another user's: not ours.
    }
  }
  return found
}

// The run's failure, in words: what was left, as far as one line allows.
export function leftBehindReason (processes) {
  const n = processes.length
  return `the adapter left ${n} process${n > 1 ? 'es' : ''} running after its worker${n > 1 ? 's' : ''} (${processes.slice(0, 3).join('; ')}${n > 3 ? '; …' : ''}); log-bench ended ${n > 1 ? 'them' : 'it'}`
}
