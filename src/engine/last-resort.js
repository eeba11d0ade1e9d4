// What a second stop signal does before log-bench exits at once (src/cli/session.js): the first
// signal stops the current run and saves the results in order, which can take a while (a run's
// processes ending, its partial count); a second one is not kept waiting, yet it leaves no process
// of the run running, no run directory behind, and a valid results document with the runs finished
// so far, marked interrupted. Each part registers its own synchronous step; they run in this order.
const ORDER = ['processes', 'directories', 'results']
const steps = new Map(ORDER.map((kind) => [kind, new Set()]))

// Registers step (synchronous) under kind; returns what unregisters it.
export function atLastResort (kind, step) {
  steps.get(kind).add(step)
  return () => steps.get(kind).delete(step)
}

// Runs every registered step, each whatever the one before it did.
export function lastResort () {
  for (const kind of ORDER) {
    for (const step of steps.get(kind)) {
      try {
        step()
      } catch {
        // The process exits next whatever happens: the next step still gets its chance.
      }
    }
  }
}
