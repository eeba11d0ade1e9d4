// Descriptive statistics over the runs of one cell. Inputs are plain arrays of numbers; nulls are dropped.

function clean (values) {
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

export function describe (values) {
  const xs = clean(values)
  if (xs.length === 0) return null
  const m = mean(xs)
  const sd = stddev(xs)
  return {
    n: xs.length,
    mean: m,
    median: median(xs),
    stddev: sd,
    min: minOf(xs),
    max: maxOf(xs),
    cv: m === 0 ? 0 : sd / Math.abs(m)
  }
}

// Welch's two-sample t-test (unequal variances), two-sided: a test of the means (`compare --test welch`).
// Returns null when either side has fewer than 2 values: no spread, no test.
export function welchTTest (a, b) {
  const xs = clean(a)
  const ys = clean(b)
  if (xs.length < 2 || ys.length < 2) return null
  const va = stddev(xs) ** 2 / xs.length
  const vb = stddev(ys) ** 2 / ys.length
  const diff = mean(xs) - mean(ys)
  // Both sides constant: the difference is exact, not a matter of chance.
  if (va + vb === 0) return { t: diff === 0 ? 0 : Math.sign(diff) * Infinity, df: xs.length + ys.length - 2, p: diff === 0 ? 1 : 0 }
  const t = diff / Math.sqrt(va + vb)
  const df = (va + vb) ** 2 / (va ** 2 / (xs.length - 1) + vb ** 2 / (ys.length - 1))
  return { t, df, p: regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5) }
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

// P(U <= u) for sizes n1, n2 without ties: counts of rank arrangements by U, built up one value at a time.
function exactUCdf (u, n1, n2) {
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
  let below = 0
  for (let k = 0; k <= Math.floor(u) && k < counts.length; k++) below += counts[k]
  return below / total
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
  const erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x)
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2
}

// Lanczos approximation (g = 7, n = 9) of ln Γ(x) for x > 0.
function logGamma (x) {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7]
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x)
  x -= 1
  let sum = c[0]
  for (let i = 1; i < 9; i++) sum += c[i] / (x + i)
  const t = x + 7.5
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum)
}

// I_x(a, b) by the continued fraction (modified Lentz), using the symmetry relation where it converges faster.
function regularizedIncompleteBeta (x, a, b) {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x))
  if (x > (a + 1) / (a + b + 2)) return 1 - front * betaContinuedFraction(1 - x, b, a) / b
  return front * betaContinuedFraction(x, a, b) / a
}

function betaContinuedFraction (x, a, b) {
  const tiny = 1e-300
  let c = 1
  let d = 1 - (a + b) * x / (a + 1)
  if (Math.abs(d) < tiny) d = tiny
  d = 1 / d
  let h = d
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m
    let aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    h *= d * c
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < 1e-12) break
  }
  return h
}
