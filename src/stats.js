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
    min: Math.min(...xs),
    max: Math.max(...xs),
    cv: m === 0 ? 0 : sd / Math.abs(m)
  }
}

// Welch's two-sample t-test (unequal variances), two-sided. Chosen over Mann–Whitney U because with
// the default 3 runs per side Mann–Whitney can never reach p < 0.05 (its smallest two-sided p is 0.1).
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
