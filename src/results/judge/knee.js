// A library's knee in one cell (every dimension but the rate): the highest paced rate (--rate) at
// which it sustained response times a latency-sensitive service can live with. The response time is
// the steady state's (responseLatencyNs: the calls after the warm-up, src/engine/pacing.js): a service
// runs warm, and the calls queued behind a cold start would otherwise set the p99 of a short run.
// Whether every event arrived is said beside it (a logger that keeps its calls fast by dropping is
// named so, not ranked apart). The knee is the highest rate sustained below the first rate that was
// not, so a lucky run at a higher rate does not hide a failure; a rate the runs did not decide, or
// that the instrument could not resolve, stops the walk as well and is named as such.
//
// The bound is 1 ms: a service that answers in tens of milliseconds at p99 can give a log call a
// few per cent of that. A rate is judged only where the pacer's own floor (noop's steady p99 at
// that rate, in the same cell) is at most a fifth of the bound: nearer, the floor and not the
// logger would decide it (docs/costs.md, "The knee"). A threshold on the runs, not a comparison of
// two cells: comparisons go through src/results/judge/verdict.js.
import { STEADY_MIN_CALLS } from '../../engine/pacing.js'

export const KNEE_BOUND_NS = 1e6
export const KNEE_FLOOR_SHARE = 5

// What a rate came to, in the order a reader needs them:
// sustained: every run finished and every run's p99 (or the interval of their median, where it
//   reaches 95% coverage) is under the bound;
// exceeded: every run's p99 (or that interval) is over it, or a run failed (a rate not reached
//   fails its run, src/run/run-once.js);
// undecided: the runs straddle the bound;
// unresolved: noop's p99 at that rate, in the same cell, is over a fifth of the bound, or noop was
//   not measured there;
// unrecorded: no run recorded a response time.
export const RATE_STATES = ['sustained', 'exceeded', 'undecided', 'unresolved', 'unrecorded']

// entries: the summary entries of one cell but for the rate (tight-loop entries are left out);
// floorAt(rate): noop's median steady p99 at that rate in the same cell, or null where noop was not
// measured. Returns { knee, tried, stop }: tried, every rate with its p99 (median over runs), the
// runs' range, the fewest steady calls of a run, and its state; knee { rate, responseP99Ns, calls,
// keptEvery } (keptEvery: no run lost an event; null where nothing is counted, as for noop), or null
// where no rate below the first not sustained was; stop: the first rate not sustained, or null.
export function kneeOf (entries, { boundNs = KNEE_BOUND_NS, floorAt = () => null } = {}) {
  const paced = entries.filter((e) => e.rate != null).sort((a, b) => a.rate - b.rate)
  const tried = paced.map((e) => ({
    rate: e.rate,
    responseP99Ns: e.responseP99Ns?.median ?? null,
    lowNs: e.responseP99Ns?.min ?? null,
    highNs: e.responseP99Ns?.max ?? null,
    calls: e.responseCalls?.min ?? null,
    floorNs: floorAt(e.rate),
    state: stateOf(e, boundNs, floorAt(e.rate))
  }))
  const stopAt = tried.findIndex((t) => t.state !== 'sustained')
  const held = stopAt === -1 ? tried : tried.slice(0, stopAt)
  const knee = held.at(-1) ?? null
  const entry = knee && paced.find((e) => e.rate === knee.rate)
  return {
    knee: knee && {
      rate: knee.rate,
      responseP99Ns: knee.responseP99Ns,
      calls: knee.calls,
      keptEvery: entry.dropRate?.max == null ? null : entry.dropRate.max === 0
    },
    tried,
    stop: stopAt === -1 ? null : tried[stopAt]
  }
}

// Whether a p99 rests on enough calls to be one (a p99.9 on at least 10 calls beyond it).
export const enoughCalls = (calls) => calls != null && calls >= STEADY_MIN_CALLS

function stateOf (entry, boundNs, floorNs) {
  const p99 = entry.responseP99Ns
  if (entry.okRuns < entry.runs && entry.okRuns != null) return 'exceeded'
  if (!(entry.okRuns > 0) || p99?.median == null) return 'unrecorded'
  if (floorNs == null || floorNs > boundNs / KNEE_FLOOR_SHARE) return 'unresolved'
  const decisive = p99.ciCoverage != null && p99.ciCoverage >= 0.95
  if (p99.max <= boundNs || (decisive && p99.ciHigh <= boundNs)) return 'sustained'
  if (p99.min > boundNs || (decisive && p99.ciLow > boundNs)) return 'exceeded'
  return 'undecided'
}
