// Descriptive statistics over the runs of one cell. Inputs are plain arrays of numbers; nulls are dropped.

export function clean (values) {
  return values.filter((v) => typeof v === 'number' && Number.isFinite(v))
}

export function mean (values) {
  const xs = clean(values)
  if (xs.length === 0) return null
  return xs.reduce((a, b) => a + b, 0) / xs.length
}

export function median (values) {
  const xs = clean(values).sort((a, b) => a - b)
  if (xs.length === 0) return null
  const mid = xs.length >> 1
  return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2
}

// Sample standard deviation (n - 1); 0 for a single value, so one run never looks noisy.
export function stddev (values) {
  const xs = clean(values)
  if (xs.length === 0) return null
  if (xs.length === 1) return 0
  const m = mean(xs)
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1))
}

// The largest and smallest of any number of values: Math.max(...values) passes each value as an
// argument and overflows the stack at about 100,000 of them.
export function maxOf (values, start = -Infinity) {
  let most = start
  for (const v of values) if (v > most) most = v
  return most
}

export function minOf (values, start = Infinity) {
  let least = start
  for (const v of values) if (v < least) least = v
  return least
}

// Everything a reader needs to judge one cell's runs: centre, spread, the median's 95% interval
// (with the coverage actually achieved: few runs cannot reach 95%) and the outliers.
export function describe (values) {
  const xs = clean(values)
  if (xs.length === 0) return null
  const m = mean(xs)
  const sd = stddev(xs)
  const interval = medianInterval(xs)
  return {
    n: xs.length,
    mean: m,
    median: median(xs),
    stddev: sd,
    min: minOf(xs),
    max: maxOf(xs),
    cv: m === 0 ? 0 : sd / Math.abs(m),
    ciLow: interval.low,
    ciHigh: interval.high,
    ciCoverage: interval.coverage,
    outliers: outliers(xs).length
  }
}

export const CONFIDENCE = 0.95

// Distribution-free interval for the median from order statistics: [x(j), x(n+1-j)] covers the true
// median with probability 1 − 2·P(B ≤ j − 1), B ~ Binomial(n, 1/2), whatever the distribution of the
// runs. j is the largest with coverage ≥ 95%; below 6 runs no pair reaches 95%, so the interval is
// [min, max] and `coverage` says what it achieves (3 runs: 75%, 5 runs: 93.75%; 1 run: 0).
export function medianInterval (values, level = CONFIDENCE) {
  const xs = clean(values).sort((a, b) => a - b)
  const n = xs.length
  if (n === 0) return { low: null, high: null, coverage: null }
  if (n === 1) return { low: xs[0], high: xs[0], coverage: 0 }
  // P(B ≤ k), summed once upwards in one pass (linear in n) with each term in log space: 0.5 ** n
  // underflows to 0 past n = 1074, which made every j look like full coverage.
  let logTerm = -n * Math.LN2
  let below = Math.exp(logTerm)
  let j = 1
  while (j + 1 <= n / 2) {
    logTerm += Math.log((n - j + 1) / j)
    const next = below + Math.exp(logTerm)
    if (1 - 2 * next < level) break
    below = next
    j++
  }
  return { low: xs[j - 1], high: xs[n - j], coverage: 1 - 2 * below }
}

// How far a cell's median interval reaches from the median, relative to it (0.05 = ±5%): the larger
// side. null without an interval.
export function relativeHalfWidth (d) {
  if (!d || d.ciLow == null || !d.median) return null
  return Math.max(d.median - d.ciLow, d.ciHigh - d.median) / Math.abs(d.median)
}

// About how many runs would narrow the median's interval to ±target: the interval of a median shrinks
// as 1/√n, its half-width about 1.96 × 1.2533 σ/√n for roughly normal runs; at least 6 runs, the
// fewest whose interval can reach 95%.
export function runsForHalfWidth (d, target = 0.05) {
  if (!d || d.cv == null) return null
  return Math.max(6, Math.ceil((1.96 * 1.2533 * d.cv / target) ** 2))
}

// Outliers as hyperfine flags them: modified z-score (x − median) / MAD, an outlier beyond 10 robust
// standard deviations (|z| > 1.4826 × 10, 1.4826 turning the MAD into a standard deviation for normal
// data). Returns the outlying values. A MAD of 0 (over half the runs identical) makes every other
// value an outlier, as in hyperfine.
export const OUTLIER_THRESHOLD = 1.4826 * 10

export function outliers (values) {
  const xs = clean(values)
  if (xs.length < 3) return []
  const centre = median(xs)
  const mad = median(xs.map((x) => Math.abs(x - centre)))
  return xs.filter((x) => x !== centre && (mad === 0 || Math.abs(x - centre) / mad > OUTLIER_THRESHOLD))
}

export const DEFAULT_NOISE = 0.02
export const DEFAULT_ALPHA = 0.05

// The verdicts --fail-on can name: slower and faster (times and rates), unclear (an interval too wide
// to call, where the statistics give that verdict), higher and lower (measures without a better
// direction, such as memory).
export const GATE_VERDICTS = ['slower', 'faster', 'unclear', 'higher', 'lower']

// The one comparison of two sets of runs (a cell against its baseline, or before against after),
// for every module that compares. Returns:
// - ratio: median(runs) / median(baselineRuns) (paired: the estimate of the per-round ratio, below);
// - ciLow, ciHigh: a distribution-free 95% interval for that ratio, the Hodges–Lehmann/Moses
//   interval of the Mann–Whitney test on the logarithms (order statistics of the n·m pairwise
//   ratios run/baseline run), with `coverage` the level achieved (below 95% with few runs: 3 + 3
//   runs reach 90%, 2 + 2 67%);
// - p: two-sided Mann–Whitney U test (the same test the interval inverts, so they agree);
// - verdict, no stronger than the data: `slower`/`faster` for a time (`better: 'lower'`) or a rate
//   (`better: 'higher'`), `higher`/`lower` for a measure without a better direction, only where the
//   difference is significant (p < alpha) and its whole interval lies beyond ±noise; `same` only where
//   the whole interval lies inside ±noise (as criterion.rs); `unclear` otherwise (benchstat's `~`):
//   the runs cannot tell, and `runsToDecide` estimates how many runs a side would (null when none
//   would: the interval's centre sits on the threshold);
// - paired, pairs: with `pairs` given (each [baseline, run] of one round, where the two cells ran
//   interleaved in rounds), the comparison rests on the rounds once there are enough of them to
//   reach p < alpha (at 0.05: PAIRED_MIN_ROUNDS): ratio, interval and p from the per-round ratios
//   (pairedShift), so drift common to a round cancels. Fewer rounds stay unpaired. `pairs` counts
//   the complete rounds (both values finite; null without pairs), `paired` says which analysis the
//   row used. `minPairs` pairs from that many complete rounds instead (a --runs auto group's looks
//   test their rounds as pairs whatever alpha: src/results/sequential.js). `higherIn` counts the
//   complete rounds in which the run's value was the higher (null without pairs): where it is 0 or
//   `pairs`, every round ordered the two the same way, which a sentence says even where the rounds
//   are too few to decide.
// Values that are not all positive (a drop rate of 0) have no ratio: the same on differences
// (ratio null; difference, diffLow, diffHigh in the measure's own unit).
export function compareRuns (baselineRuns, runs, { alpha = DEFAULT_ALPHA, noise = DEFAULT_NOISE, better = 'lower', pairs = null, minPairs = null } = {}) {
  const xs = clean(baselineRuns)
  const ys = clean(runs)
  const complete = pairs == null ? null : pairs.filter(([x, y]) => clean([x, y]).length === 2)
  const result = {
    n: ys.length,
    nBaseline: xs.length,
    median: median(ys),
    baselineMedian: median(xs),
    ratio: null,
    ciLow: null,
    ciHigh: null,
    difference: null,
    diffLow: null,
    diffHigh: null,
    coverage: null,
    p: null,
    verdict: null,
    runsToDecide: null,
    paired: false,
    pairs: complete?.length ?? null,
    higherIn: complete == null ? null : complete.filter(([x, y]) => y > x).length
  }
  if (xs.length === 0 || ys.length === 0) return result
  result.difference = result.median - result.baselineMedian
  const onRatios = [...xs, ...ys].every((v) => v > 0)
  const transform = onRatios ? Math.log : (v) => v
  if (complete && (minPairs == null ? smallestSignedRankP(complete.length) < alpha : complete.length >= minPairs)) {
    const paired = pairedShift(complete.map(([x, y]) => transform(y) - transform(x)))
    result.paired = true
    if (onRatios) result.ratio = Math.exp(paired.estimate)
    else result.difference = paired.estimate
    putInterval(result, paired, onRatios)
    result.p = paired.p
  } else {
    const shift = shiftInterval(xs.map(transform), ys.map(transform))
    if (onRatios) result.ratio = result.median / result.baselineMedian
    putInterval(result, shift, onRatios)
    const test = xs.length >= 2 && ys.length >= 2 ? mannWhitneyU(xs, ys) : null
    result.p = test?.p ?? null
  }
  result.verdict = verdictOf(result, { alpha, noise, better, onRatios })
  if (result.verdict === 'unclear') result.runsToDecide = runsToDecide(result, { noise, onRatios })
  return result
}

function putInterval (result, shift, onRatios) {
  if (onRatios) {
    result.ciLow = Math.exp(shift.low)
    result.ciHigh = Math.exp(shift.high)
  } else {
    result.diffLow = shift.low
    result.diffHigh = shift.high
  }
  result.coverage = shift.coverage
}

// The fewest complete rounds whose pairs can reach p < alpha two-sided (signed-rank: 2 / 2^n; at 0.05,
// 6 rounds: 0.031, where 5 give no less than 0.0625).
export function pairedMinRounds (alpha = DEFAULT_ALPHA) {
  let n = 1
  while (smallestSignedRankP(n) >= alpha) n++
  return n
}
export const PAIRED_MIN_ROUNDS = pairedMinRounds()

// The paired comparison of per-round differences d (logarithms of the per-round ratios, or
// differences): the Wilcoxon signed-rank test (whether the d lie symmetrically about 0), the
// Hodges–Lehmann estimate (the median of the Walsh averages (d_i + d_j) / 2, i ≤ j) and the
// distribution-free interval that inverts the test: the k-th smallest and k-th largest Walsh average,
// k from the exact distribution of the signed-rank statistic (normal approximation beyond
// EXACT_MAX_RUNS pairs); `coverage` the level it achieves (5 pairs: 93.75%, 6: 96.9%).
export function pairedShift (differences, level = CONFIDENCE) {
  const d = clean(differences)
  const n = d.length
  if (n === 0) return { estimate: null, low: null, high: null, coverage: null, p: null }
  const walsh = []
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) walsh.push((d[i] + d[j]) / 2)
  walsh.sort((a, b) => a - b)
  const m = walsh.length
  const tail = (1 - level) / 2
  let k = 1
  let coverage
  if (n <= EXACT_MAX_RUNS) {
    const cdf = signedRankCdf(n)
    while (k + 1 <= (m + 1) / 2 && cdf[k] <= tail) k++
    coverage = 1 - 2 * cdf[k - 1]
  } else {
    const sd = Math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    k = Math.max(1, Math.floor(m / 2 - 1.959963984540054 * sd))
    coverage = 1 - 2 * normalCdf((k - 1 + 0.5 - m / 2) / sd)
  }
  if (n === 1) coverage = 0
  return {
    estimate: median(walsh),
    low: walsh[k - 1],
    high: walsh[m - k],
    coverage,
    p: n >= 2 ? signedRankTest(d).p : null
  }
}

// Wilcoxon signed-rank test, two-sided, on differences: zeros dropped (Wilcoxon's rule), ranks of
// |d| with ties sharing their mean rank. Exact distribution without ties or zeros up to
// EXACT_MAX_RUNS pairs, else the normal approximation with tie and continuity corrections.
export function signedRankTest (differences) {
  const d = clean(differences).filter((v) => v !== 0)
  const n = d.length
  if (n === 0) return { t: 0, p: 1, exact: false }
  const sorted = d.map((v) => ({ size: Math.abs(v), positive: v > 0 })).sort((a, b) => a.size - b.size)
  let t = 0
  const tieSizes = []
  for (let i = 0; i < n;) {
    let j = i
    while (j + 1 < n && sorted[j + 1].size === sorted[i].size) j++
    const rank = (i + j) / 2 + 1
    for (let k = i; k <= j; k++) if (sorted[k].positive) t += rank
    if (j > i) tieSizes.push(j - i + 1)
    i = j + 1
  }
  const total = n * (n + 1) / 2
  const tMin = Math.min(t, total - t)
  const exact = tieSizes.length === 0 && n <= EXACT_MAX_RUNS && clean(differences).length === n
  if (exact) return { t, p: Math.min(1, 2 * signedRankCdf(n)[tMin]), exact: true }
  const variance = n * (n + 1) * (2 * n + 1) / 24 - tieSizes.reduce((sum, s) => sum + (s ** 3 - s), 0) / 48
  if (variance === 0) return { t, p: 1, exact: false }
  const z = (Math.abs(t - total / 2) - 0.5) / Math.sqrt(variance)
  return { t, p: Math.min(1, 2 * (1 - normalCdf(Math.max(0, z)))), exact: false }
}

// P(T ≤ t) for t = 0 … n(n+1)/2, T the signed-rank statistic of n pairs under the null: each rank's
// sign a fair coin, so the distribution of the sum of a random subset of 1 … n, built up one rank at
// a time in probabilities (counts would pass 2^53 at 54 pairs).
const signedRankCdfs = new Map()
function signedRankCdf (n) {
  if (signedRankCdfs.has(n)) return signedRankCdfs.get(n)
  let probabilities = [1]
  for (let rank = 1; rank <= n; rank++) {
    const next = new Array(probabilities.length + rank).fill(0)
    probabilities.forEach((q, s) => {
      next[s] += q / 2
      next[s + rank] += q / 2
    })
    probabilities = next
  }
  const cdf = []
  let below = 0
  for (const q of probabilities) cdf.push((below += q))
  signedRankCdfs.set(n, cdf)
  return cdf
}

// The smallest two-sided p the signed-rank test can give with n pairs: every difference of one sign,
// 2 / 2^n (5 pairs 0.0625, 6 pairs 0.031, 8 pairs 0.0078, 10 pairs 0.0020).
export function smallestSignedRankP (n) {
  return Math.min(1, 2 / 2 ** n)
}

// The smallest p a comparison's test could give with its runs: paired on its rounds, or unpaired.
export function smallestP (comparison) {
  return comparison.paired
    ? smallestSignedRankP(comparison.pairs)
    : smallestMannWhitneyP(comparison.nBaseline, comparison.n)
}

// The interval and the noise band on one scale: logarithms of the ratio, or the difference with the
// band relative to the baseline's median. A baseline median of 0 (a drop rate of 0) leaves no band:
// losing events where the baseline lost none is a finding however small, once the test says it is
// not chance.
function onScale (result, { noise, onRatios }) {
  if (onRatios) {
    return {
      low: Math.log(result.ciLow),
      high: Math.log(result.ciHigh),
      centre: Math.log(result.ratio),
      band: Math.log(1 + noise)
    }
  }
  return {
    low: result.diffLow,
    high: result.diffHigh,
    centre: result.difference,
    band: noise * Math.abs(result.baselineMedian)
  }
}

function verdictOf (result, { alpha, noise, better, onRatios }) {
  // One run a side has no test and no interval worth the name: nothing is known.
  if (result.p == null) return 'unclear'
  const { low, high, band } = onScale(result, { noise, onRatios })
  if (low >= -band && high <= band) return 'same'
  const beyond = low > band || high < -band
  if (result.p >= alpha || !beyond) return 'unclear'
  const up = low > band
  if (better === 'lower') return up ? 'slower' : 'faster'
  if (better === 'higher') return up ? 'faster' : 'slower'
  return up ? 'higher' : 'lower'
}

// About how many runs a side (paired: rounds) would decide an `unclear` comparison: the interval narrows as 1/√n, so
// with n runs and half-width h it would take n·(h/gap)² for the interval to clear the threshold (its
// centre beyond the band) or to fit inside it (its centre inside). At least one run more than now;
// null where the centre sits on the threshold (no number of runs decides).
export function runsToDecide (result, { noise = DEFAULT_NOISE, onRatios = result.ratio != null } = {}) {
  const { low, high, centre, band } = onScale(result, { noise, onRatios })
  const half = (high - low) / 2
  const gap = Math.abs(Math.abs(centre) - band)
  if (!(gap > 0) || !(half > 0)) return null
  const n = Math.max(2, result.paired ? result.pairs : Math.min(result.n, result.nBaseline))
  return Math.max(n + 1, Math.ceil(n * (half / gap) ** 2))
}

// Interval for the shift (ys − xs) from the order statistics of all pairwise differences: the k-th
// smallest and k-th largest, k from the Mann–Whitney U distribution (exact without ties up to
// EXACT_MAX_RUNS runs, the normal approximation beyond). When even k = 1 falls short of the level,
// the widest interval (k = 1) and its coverage.
function shiftInterval (xs, ys, level = CONFIDENCE) {
  const differences = []
  for (const x of xs) for (const y of ys) differences.push(y - x)
  differences.sort((a, b) => a - b)
  const m = differences.length
  const tail = (1 - level) / 2
  let k = 1
  let coverage
  if (xs.length + ys.length <= EXACT_MAX_RUNS) {
    const cdf = uCdf(xs.length, ys.length)
    while (k + 1 <= (m + 1) / 2 && cdf[k] <= tail) k++
    coverage = 1 - 2 * cdf[k - 1]
  } else {
    const sd = Math.sqrt(xs.length * ys.length * (xs.length + ys.length + 1) / 12)
    k = Math.max(1, Math.floor(m / 2 - 1.959963984540054 * sd))
    coverage = 1 - 2 * normalCdf((k - 1 + 0.5 - m / 2) / sd)
  }
  if (m === 1) coverage = 0
  return { low: differences[k - 1], high: differences[m - k], coverage }
}

// mulberry32: a small, fast generator of numbers in [0, 1) whose whole state is the seed, for orders
// that must repeat from a recorded seed.
export function seededRandom (seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// Mann–Whitney U test (Wilcoxon rank-sum), two-sided: whether one side's runs tend to be larger than
// the other's, a test of location that fits medians and needs no normal distribution (benchstat's
// default). Exact distribution of U when there are no ties and the sides are small (the usual case:
// a few runs each); otherwise the normal approximation with tie and continuity corrections.
// Returns null when either side is empty.
export function mannWhitneyU (a, b) {
  const xs = clean(a)
  const ys = clean(b)
  if (xs.length === 0 || ys.length === 0) return null
  const all = [...xs.map((v) => ({ v, x: true })), ...ys.map((v) => ({ v, x: false }))].sort((p, q) => p.v - q.v)
  let rankSumX = 0
  const tieSizes = []
  for (let i = 0; i < all.length;) {
    let j = i
    while (j + 1 < all.length && all[j + 1].v === all[i].v) j++
    const rank = (i + j) / 2 + 1
    for (let k = i; k <= j; k++) if (all[k].x) rankSumX += rank
    if (j > i) tieSizes.push(j - i + 1)
    i = j + 1
  }
  const n1 = xs.length
  const n2 = ys.length
  const u = rankSumX - (n1 * (n1 + 1)) / 2
  const uMin = Math.min(u, n1 * n2 - u)
  if (tieSizes.length === 0 && n1 + n2 <= EXACT_MAX_RUNS) {
    return { u, p: Math.min(1, 2 * exactUCdf(uMin, n1, n2)), exact: true }
  }
  const n = n1 + n2
  const tieTerm = tieSizes.reduce((sum, t) => sum + (t ** 3 - t), 0) / (n * (n - 1))
  const variance = (n1 * n2 / 12) * ((n + 1) - tieTerm)
  if (variance === 0) return { u, p: 1, exact: false }
  const z = (Math.abs(u - (n1 * n2) / 2) - 0.5) / Math.sqrt(variance)
  return { u, p: Math.min(1, 2 * (1 - normalCdf(Math.max(0, z)))), exact: false }
}

// Up to this many runs in all, the exact distribution of U is counted (a few thousand steps).
const EXACT_MAX_RUNS = 60

// P(U <= u) for u = 0 … n1·n2, sizes n1, n2 without ties: counts of rank arrangements by U, built
// up one value at a time.
const uCdfs = new Map()
function uCdf (n1, n2) {
  const key = `${n1},${n2}`
  if (uCdfs.has(key)) return uCdfs.get(key)
  // counts[i][j] is the distribution of U over i values on one side and j on the other.
  let previous = Array.from({ length: n2 + 1 }, () => [1])
  for (let i = 1; i <= n1; i++) {
    const current = [[1]]
    for (let j = 1; j <= n2; j++) {
      // The largest value is on side one (adds j to U) or on side two (adds nothing).
      const withX = previous[j]
      const withY = current[j - 1]
      const length = Math.max(withX.length + j, withY.length)
      const counts = new Array(length).fill(0)
      withX.forEach((c, k) => { counts[k + j] += c })
      withY.forEach((c, k) => { counts[k] += c })
      current.push(counts)
    }
    previous = current
  }
  const counts = previous[n2]
  const total = counts.reduce((sum, c) => sum + c, 0)
  const cdf = []
  let below = 0
  for (const c of counts) cdf.push((below += c) / total)
  uCdfs.set(key, cdf)
  return cdf
}

function exactUCdf (u, n1, n2) {
  const cdf = uCdf(n1, n2)
  return cdf[Math.min(cdf.length - 1, Math.floor(u))]
}

// The smallest two-sided p the exact Mann–Whitney test can give for n1 and n2 runs: both orders of
// complete separation, 2 / C(n1 + n2, n1). With 3 + 3 runs it is 0.1.
export function smallestMannWhitneyP (n1, n2) {
  let arrangements = 1
  for (let k = 1; k <= n1; k++) arrangements = (arrangements * (n2 + k)) / k
  return Math.min(1, 2 / arrangements)
}

// Standard normal cumulative distribution (Abramowitz and Stegun 7.1.26 for erf, error below 1.5e-7).
function normalCdf (z) {
  const x = Math.abs(z) / Math.SQRT2
  const t = 1 / (1 + 0.3275911 * x)
  const polynomial = ((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592
  const erf = 1 - polynomial * t * Math.exp(-x * x)
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2
}
