import { UsageError } from '../errors.js'
import { availableCpus, cpusOf, findTaskset, formatCpuList, parseCpuList, pin } from '../engine/affinity.js'

export { availableCpus, cpusOf, findTaskset, formatCpuList, parseCpuList, pin }

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

// Puts this process (and so what it starts from now on: the receiving end, autocannon, the server's
// workers until they are moved) on the load's CPUs for one run. restore() puts it back where it was.
// placement: a cell's settings (src/http/matrix.js), pinned where they name taskset.
export async function pinPrimary (placement) {
  if (!placement?.taskset) return { restore: async () => {} }
  const before = cpusOf(process.pid)
  await pin(placement, process.pid, placement.loadCpus, 'log-bench\'s primary process')
  return {
    restore: async () => {
      if (before) await pin(placement, process.pid, before, 'log-bench\'s primary process (after the run)')
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
