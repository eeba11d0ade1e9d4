import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { RunFailure, UsageError } from '../errors.js'
import { isExecutable } from '../engine/executable.js'

// Where the server and its load run. On a machine with few cores, a server and autocannon sharing
// them measure each other: a logger that costs the server CPU also slows the load generator, and a
// busy load generator looks like a slow server. So the server's workers get CPUs of their own and
// everything else (autocannon, the primary that reads and verifies what the server logged, the
// receiving end's processes) runs on the others. The receiving end goes with the load rather than the
// server because its work grows with what a library writes: on the server's CPUs it would be charged
// to the library a second time, and on the load's CPUs it uses headroom autocannon leaves (a server
// on one CPU answers a few thousand requests per second; autocannon needs a fraction of a CPU for
// that). Affinity is set with taskset (util-linux), which calls sched_setaffinity; where taskset is
// missing the runs are recorded as not pinned, with the reason.

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

export function findTaskset (env = process.env) {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'taskset'))
  return [...TASKSET_PATHS, ...dirs].find(isExecutable) ?? null
}

// The load's share when the CPUs are not named: a quarter of them, at least one; the server gets the rest.
function defaultLoadShare (count) {
  return Math.max(1, Math.floor(count / 4))
}

// Decides the placement once, before any run: { pinned: true, serverCpus, loadCpus, taskset } with the
// lists as taskset writes them, or { pinned: false, serverCpus: null, loadCpus: null, reason }.
// serverCpus / loadCpus are the option strings (or null: chosen here). Throws UsageError for CPUs
// that are not available, overlapping lists or nothing left for one side.
export function planPlacement ({
  serverCpus = null,
  loadCpus = null,
  available = availableCpus(),
  taskset = findTaskset()
} = {}) {
  const given = { 'server-cpus': serverCpus == null ? null : parseCpuList(serverCpus, 'server-cpus'), 'load-cpus': loadCpus == null ? null : parseCpuList(loadCpus, 'load-cpus') }
  for (const [option, cpus] of Object.entries(given)) {
    const missing = cpus?.filter((cpu) => !available.includes(cpu)) ?? []
    if (missing.length) throw new UsageError(`--${option} names CPU ${formatCpuList(missing)}, which log-bench may not use here: it may use CPUs ${formatCpuList(available)}`)
  }
  let server = given['server-cpus']
  let load = given['load-cpus']
  const overlap = server && load ? server.filter((cpu) => load.includes(cpu)) : []
  if (overlap.length) throw new UsageError(`--server-cpus and --load-cpus share CPU ${formatCpuList(overlap)}: give them disjoint lists, e.g. --server-cpus ${formatCpuList(available.slice(1)) || 1} --load-cpus ${available[0]}`)
  if (!server && !load) {
    if (available.length < 2) return notPinned(`only CPU ${formatCpuList(available)} is available, so the server and the load share it`)
    load = available.slice(0, defaultLoadShare(available.length))
  }
  const rest = (taken) => available.filter((cpu) => !taken.includes(cpu))
  server ??= rest(load)
  load ??= rest(server)
  if (!server.length || !load.length) throw new UsageError(`--${server.length ? 'server' : 'load'}-cpus takes every CPU log-bench may use (${formatCpuList(available)}): leave at least one for the ${server.length ? 'load' : 'server'}`)
  if (!taskset) return notPinned('taskset (util-linux) was not found, so CPU affinity could not be set')
  return { pinned: true, serverCpus: formatCpuList(server), loadCpus: formatCpuList(load), taskset }
}

function notPinned (reason) {
  return { pinned: false, serverCpus: null, loadCpus: null, reason }
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

// Puts this process (and so what it starts from now on: the receiving end, autocannon, the server's
// workers until they are moved) on the load's CPUs for one run. restore() puts it back where it was.
// placement: a cell's settings (src/http/matrix.js), pinned where they name taskset.
export async function pinPrimary (placement) {
  if (!placement?.taskset) return { restore: async () => {} }
  const before = cpusOf(process.pid)
  await pin(placement, process.pid, placement.loadCpus, 'log-bench\'s primary process')
  return {
    restore: async () => {
      if (before) await pin(placement, process.pid, before, 'log-bench\'s primary process').catch(() => {})
    }
  }
}

// What a run records about where it ran: the planned lists and the ones the kernel reported for each
// process, or why nothing was pinned. placement: a cell's settings ({ serverCpus, loadCpus, taskset }
// pinned, { notPinned } not).
export function placementRecord (placement, observed = {}) {
  if (!placement?.taskset) return { pinned: false, reason: placement?.notPinned ?? 'not asked for' }
  return { pinned: true, serverCpus: placement.serverCpus, loadCpus: placement.loadCpus, observed }
}
