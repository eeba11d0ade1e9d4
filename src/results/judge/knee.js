// A library's knee on one transport: the highest paced rate (--rate) at which it sustained response
// times a latency-sensitive service can live with. Sustained at a rate means: every run finished and
// the median over the cell's runs of the response time's p99 (responseLatencyNs, from each event's
// intended time) is at most the bound. Whether every event arrived there is said beside it (a logger
// that keeps its calls fast by dropping is named so, not ranked apart). The knee is the highest rate
// below the first rate not sustained, so a lucky run at a higher rate does not hide a failure.
//
// The bound is 1 ms: a service that answers in tens of milliseconds at p99 can give a log call a
// few per cent of that, and 1 ms is still far above the pacer's own floor (noop at the same rate,
// docs/costs.md), so what exceeds it is the logger's. A threshold on a median, not a comparison of
// two cells: comparisons go through src/results/judge/verdict.js.
export const KNEE_BOUND_NS = 1e6

// entries: the summary entries of one library on one transport (any rates; tight-loop entries are
// left out). Returns { knee, tried }: knee { rate, responseP99Ns, keptEvery } (keptEvery: no run lost
// an event; null where nothing is counted, as for noop), or null where even the lowest rate was not
// sustained; tried: every rate with its p99 and whether it was sustained.
export function kneeOf (entries, { boundNs = KNEE_BOUND_NS } = {}) {
  const paced = entries.filter((e) => e.rate != null).sort((a, b) => a.rate - b.rate)
  const tried = paced.map((e) => ({
    rate: e.rate,
    responseP99Ns: e.responseP99Ns?.median ?? null,
    sustained: sustained(e, boundNs)
  }))
  const firstFailed = tried.findIndex((t) => !t.sustained)
  const held = firstFailed === -1 ? tried : tried.slice(0, firstFailed)
  const knee = held.at(-1) ?? null
  const entry = knee && paced.find((e) => e.rate === knee.rate)
  return {
    knee: knee && {
      rate: knee.rate,
      responseP99Ns: knee.responseP99Ns,
      keptEvery: entry.dropRate?.max == null ? null : entry.dropRate.max === 0
    },
    tried
  }
}

function sustained (entry, boundNs) {
  if (!(entry.okRuns > 0) || entry.okRuns < entry.runs) return false
  return entry.responseP99Ns?.median != null && entry.responseP99Ns.median <= boundNs
}
