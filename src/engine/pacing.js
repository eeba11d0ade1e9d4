// What pacing (--rate, in run and http) means by a warm-up, a steady state and a rate reached.
// A paced run's warm-up and how many calls its steady state needs (docs/costs.md, "Warm-up and the
// steady state"). The warm-up is the events due in the pacer's first WARMUP_MS, the same for every
// logger: an end found from the response times themselves would let a logger that never settles
// pick its own start, and would cut a periodic stall out of the steady state if one fell at the
// start. At most half the events, so that a short run still has a steady state to report.
export const WARMUP_MS = 1000

// A steady state's percentile rests on enough calls where its p99.9 has at least 10 calls beyond
// it: 10,000 calls. Fewer, and the page says on how many calls the p99 rests instead of printing a
// p99 (src/results/judge/knee.js).
export const STEADY_MIN_CALLS = 10_000

export function warmupEventsOf (events, rate) {
  return Math.min(Math.ceil((rate * WARMUP_MS) / 1000), Math.floor(events / 2))
}

// Under --rate the figures are "at N events (or requests)/s": a run that reached less than this
// share of the rate measured another load, and fails (reached 24,410 of 10,000,000 events/s);
// autocannon's own pacing reaches 199.6-201.4 of 200 requests/s.
export const REACHED_RATE_SHARE = 0.95
