import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { RunFailure, UsageError } from '../errors.js'
import { isExecutable } from './executable.js'

// CPU affinity, set with taskset (util-linux), which calls sched_setaffinity: http's placement of
// its server and load (src/http/placement.js) and run --cores (src/engine/cores.js) both use it.

const execFileAsync = promisify(execFile)
const TASKSET_PATHS = ['/usr/bin/taskset', '/bin/taskset', '/usr/sbin/taskset']
const MAX_CPU = 4095

// "0", "1-3", "0,2-3" (taskset's list form) → sorted distinct CPU numbers.
export function parseCpuList (text, option) {
  const value = String(text ?? '').trim()
  const cpus = new Set()
  for (const part of value.split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim())
    const from = match && Number(match[1])
    const to = match && (match[2] === undefined ? from : Number(match[2]))
    if (!match || to < from || to > MAX_CPU) {
      throw new UsageError(`--${option} must be a list of CPU numbers such as 1, 0-1 or 0,2-3 (as taskset -c takes them), got "${value}"`)
    }
    for (let cpu = from; cpu <= to; cpu++) cpus.add(cpu)
  }
  return [...cpus].sort((a, b) => a - b)
}

// Sorted CPU numbers → the shortest list form: [0, 1, 2, 5] → "0-2,5".
export function formatCpuList (cpus) {
  const parts = []
  for (let i = 0; i < cpus.length;) {
    let j = i
    while (j + 1 < cpus.length && cpus[j + 1] === cpus[j] + 1) j++
    parts.push(j === i ? String(cpus[i]) : `${cpus[i]}-${cpus[j]}`)
    i = j + 1
  }
  return parts.join(',')
}

// The CPUs this process may run on: the kernel's Cpus_allowed_list where there is one (a container
// or a taskset around log-bench narrows it), else every CPU the OS reports.
export function availableCpus (statusText = readStatus('self')) {
  const list = statusText && /^Cpus_allowed_list:\s*(\S+)/m.exec(statusText)?.[1]
  if (list) return parseCpuList(list, 'Cpus_allowed_list')
  return Array.from({ length: os.availableParallelism?.() ?? os.cpus().length }, (_, i) => i)
}

// The first taskset on PATH, as a shell would run it (a wrapper there is the one the user chose),
// else the standard places, for a PATH without the sbin directories.
export function findTaskset (env = process.env) {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'taskset'))
  return [...dirs, ...TASKSET_PATHS].find(isExecutable) ?? null
}

function readStatus (pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return null
  }
}

// The CPUs the kernel lets a process run on, as taskset lists them, or null where that is not known.
export function cpusOf (pid) {
  return /^Cpus_allowed_list:\s*(\S+)/m.exec(readStatus(pid) ?? '')?.[1] ?? null
}

// Sets the affinity of every thread of pid (threads it starts later inherit it) and returns the list
// the kernel then reports. A failure is a RunFailure: a run that could not be placed as planned
// would measure something else.
// taskset -a walks /proc/<pid>/task: a thread that ends between the listing and its turn (a V8 or
// libuv helper thread) fails the call with "No such process" while the process itself lives on, so
// that case is tried again, a few times, before it fails the run.
export async function pin (placement, pid, cpus, what, { attempts = 4 } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      await execFileAsync(placement.taskset, ['-a', '-p', '-c', cpus, String(pid)])
      break
    } catch (err) {
      const message = (err.stderr || err.message).toString().trim().split('\n')[0]
      if (attempt < attempts && /No such process/.test(message) && readStatus(pid) !== null) continue
      throw new RunFailure(`could not put ${what} on CPU ${cpus} with ${placement.taskset}: ${message}`)
    }
  }
  const observed = cpusOf(pid)
  if (observed !== null && observed !== cpus) throw new RunFailure(`${what} was put on CPU ${cpus}, but the kernel reports CPU ${observed}`)
  return observed ?? cpus
}

// One run on CPUs set for it (limit: { restore }, from limitToCores or pinPrimary): measure() runs,
// then restore() puts this process back, however measure() ended. A restore that fails (a
// container's CPU set that shrank while the run went on) fails this run with its reason instead of
// being thrown past it: the runs that finished stay in the results and the session goes on, each
// later run recording the CPUs it had (allowedCpus). An interrupt from measure() is thrown on as it
// came, after the restore.
export async function measureThenRestore (limit, measure) {
  let result
  // Whatever measure() threw, undefined and null too (a listener's throw), is thrown on.
  let threw = false
  let thrown
  try {
    result = await measure()
  } catch (err) {
    threw = true
    thrown = err
  }
  let problem = null
  try {
    await limit.restore()
  } catch (err) {
    if (!(err instanceof RunFailure)) throw err
    problem = err.message
  }
  if (threw) throw thrown
  if (!problem) return result
  const error = result.ok === false && result.error ? `${result.error}; then ${problem}` : problem
  return { ...result, ok: false, status: 'failed', error, failure: result.ok === false && result.failure ? result.failure : { kind: 'error' } }
}
