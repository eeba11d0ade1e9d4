import { availableCpus, cpusOf, findTaskset, formatCpuList, pin } from './affinity.js'

// run --cores N: the whole run on N CPUs, the way the 2019 article took CPUs offline (echo 0 >
// /sys/devices/system/cpu/cpuN/online) but without root: log-bench's own process is limited with
// sched_setaffinity (taskset -a, every thread) before the run starts its receiving end and workers,
// which inherit the limit (the embedded sink, rsyslogd, every worker and the threads each starts),
// and is put back where it was when the run ends, however it ends: the API may run inside a user's
// process. The CPUs are the first N of those log-bench may use (CPUs 0 to N-1 on a machine it has
// to itself).

// "Every core": a run without --cores, on every CPU log-bench may use, recorded as cores null (and
// a record from before the field has none). The one reading of it, for the plan and every page.
export const EVERY_CORE = null
export const coresOf = (record) => record.cores ?? EVERY_CORE
// A record's cores in words: "on every core", "on 1 core", the cell's words and a glance row's.
export const coresLabel = (cores) => (cores === EVERY_CORE ? 'on every core' : `on ${cores} core${cores === 1 ? '' : 's'}`)
// Core limits in order, fewest first and every core last (a page that puts every core first turns it).
const rankOf = (cores) => (cores === EVERY_CORE ? Infinity : cores)
export const fewestCoresFirst = (a, b) => rankOf(a) - rankOf(b)

// The --cores values (parseCores, src/api/option-tables.js) where given, else every core alone.
export const checkCores = (cores) => cores ?? [EVERY_CORE]

// What one cell's runs need beside the record's `cores`: the CPU list and taskset's path.
export function coresSettings (cores, { available = availableCpus(), taskset = findTaskset() } = {}) {
  if (cores === EVERY_CORE) return {}
  return { coresCpus: formatCpuList(available.slice(0, cores)), taskset }
}

// Limits this process (and so everything it starts from now on) to settings.coresCpus for one run;
// resolves to { restore }, which puts it back on the CPUs it had. Without coresCpus, nothing to do.
// A limit that cannot be set fails the run (a RunFailure from pin): it would measure every CPU.
export async function limitToCores (settings) {
  if (!settings.coresCpus) return { restore: async () => {} }
  const before = cpusOf(process.pid)
  await pin(settings, process.pid, settings.coresCpus, 'log-bench\'s process (--cores)')
  return {
    restore: async () => {
      if (before) await pin(settings, process.pid, before, 'log-bench\'s process (after --cores)')
    }
  }
}
