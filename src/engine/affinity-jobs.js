import { UsageError } from '../errors.js'

// A process has one CPU affinity, and the jobs of the API (run() and http() in one process) share it:
// a job whose runs set it (run's cores, http's placement of its load) would narrow every other job's
// runs to its CPUs, and a second job's cores would be checked against the CPUs the first had narrowed
// it to. So a job that sets it runs alone in its process: it is refused while another job runs, and
// every job is refused while one that sets it runs, each with one line. A job joins before it plans,
// so that its checks see the process's own CPUs, and leaves when it ends, however it ends.
const jobs = new Set()

const SETS_AFFINITY = 'sets this process\'s CPU affinity for its runs, which every job in the process would share'

export function joinJob (command) {
  const holder = [...jobs].find((job) => job.holds)
  if (holder) throw new UsageError(`${command}() cannot start while ${holder.holds} runs in this process: that job ${SETS_AFFINITY}; await it first`)
  const job = { holds: null }
  jobs.add(job)
  return {
    // Once planned: whether its runs set the affinity (a cell's settings name taskset: run's cores,
    // http's placement).
    claim (cells) {
      const setting = cells.find((cell) => cell.settings?.taskset)?.settings
      if (!setting) return
      const what = setting.coresCpus ? `${command}() with cores` : `${command}() placing its server and load (taskset)`
      if (jobs.size > 1) throw new UsageError(`${what} ${SETS_AFFINITY}: it cannot run while another run() or http() job runs in this process; await that job first`)
      job.holds = what
    },
    leave () {
      jobs.delete(job)
    }
  }
}
