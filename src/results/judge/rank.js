import { median } from '../../stats.js'
import { judge } from './verdict.js'

// The one ranking of a comparison's cells, on the one verdict (judge). Every place that names a
// fastest (or cheapest) or orders libraries by speed calls it: the pages' Summary, At a glance and
// Then and now, the closing answer of run and http, --runs auto's neighbours; test/verdict.test.js
// fails where another source file orders cells by their medians.
//
// The cells are whatever the caller keeps (summary entries, a cell's runs, a page's figures);
// runsOf gives a cell's runs, lostOf the share of its events that did not arrive (0 or null for
// none). measure is one of the schema's compared measures (measureNamed): its value, direction and
// noise (alpha and noise go to judge as given). The medians order the cells as the estimate a
// reader sees; only judge separates them:
//   best: the fastest of the cells that lost no events (losing events is not being fast), or null
//     where every cell lost some;
//   firsts: best and every cell that lost none that the verdict does not put behind it (not
//     separated from it);
//   fasterButLossy: the cells that lost events and that the verdict puts ahead of best (where there
//     is no best, every cell that lost events, fastest first);
//   ranked: the cells that lost none, then those that did, each fastest first by median;
//   versus(cell): the verdict of cell against best (judge's row), judged once.
// A cell without a finished run's figure is left out of every list.
export function rank (cells, { measure, runsOf, lostOf = () => 0, roundOf = null, alpha, noise }) {
  const medians = new Map(cells.map((cell) => [cell, medianOf(runsOf(cell), measure)]))
  const measured = cells.filter((cell) => medians.get(cell) != null)
  const order = (a, b) => (measure.better === 'higher' ? medians.get(b) - medians.get(a) : medians.get(a) - medians.get(b))
  const whole = measured.filter((cell) => !(lostOf(cell) > 0)).sort(order)
  const lossy = measured.filter((cell) => lostOf(cell) > 0).sort(order)
  const best = whole[0] ?? null
  const verdicts = new Map()
  const versus = (cell) => {
    if (!best) return null
    if (!verdicts.has(cell)) verdicts.set(cell, judge(runsOf(best), runsOf(cell), measure, { roundOf, alpha, noise }))
    return verdicts.get(cell)
  }
  return {
    ranked: [...whole, ...lossy],
    whole,
    lossy,
    best,
    // Judged where asked for: a caller that wants the order alone judges nothing.
    get firsts () { return best ? whole.filter((cell) => cell === best || versus(cell).verdict !== 'slower') : [] },
    get fasterButLossy () { return best ? lossy.filter((cell) => versus(cell).verdict === 'faster') : lossy },
    versus,
    median: (cell) => medians.get(cell) ?? null
  }
}

// The median of a cell's finished runs on the measure, null where none has a figure.
function medianOf (runs, measure) {
  return median(runs.filter((r) => r.ok).map(measure.value))
}
