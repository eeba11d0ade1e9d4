// A series sampled at a fixed step for as long as something runs (a run's timeseries every 100 ms, a
// session's load every 10 s), kept within `max` points however long that is: when it is full, every
// other point is dropped and from then on every other sample is kept, so the series still spans the
// whole time, at twice the step (and so on). The results schema's maxItems is this max, so a reader
// can refuse a longer one as crafted. series: an array to add to (a resumed session's own).
export function boundedSeries (max, series = []) {
  let step = 1
  let skipped = 0
  return {
    series,
    push (point) {
      if (++skipped < step) return
      skipped = 0
      if (series.length >= max) {
        let kept = 0
        for (let i = 0; i < series.length; i += 2) series[kept++] = series[i]
        series.length = kept
        step *= 2
      }
      series.push(point)
    }
  }
}
