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
