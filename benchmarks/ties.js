// npm run bench:ties -- [results/seed-article.json results/workloads.json …]
//
// How many of a page's first places ("fastest", "cheapest") are shared (the best not separated from
// the next), re-analysed from the same
// results JSON (no new runs), three ways: unpaired (Mann–Whitney, as if the runs had not run in
// rounds), as the pages judge now (paired by round once the rounds can reach p < α), and paired on
// every complete round (as a --runs auto group is judged). For each, the median half-width of the
// interval of the second place against the first (relative to its ratio): what more rounds would
// have to narrow. A shared first place is a group whose best cell is not separated from the next
// (src/report/summary.js, its `firsts`).
import { fileURLToPath } from 'node:url'
import { loadResults } from '../src/results/read.js'
import { findings } from '../src/report/summary.js'
import { median, smallestSignedRankP } from '../src/stats.js'

// The dataset judged unpaired (no document in rounds), as it is, or paired from 2 complete rounds
// (one look at α: every group under a design whose only look is its rounds).
function variant (dataset, how) {
  if (how === 'as the pages judge') return dataset
  const envs = dataset.envs.map((e) => {
    const order = how === 'unpaired' ? { mode: 'blocked', seed: null } : { ...e.env.order, sequential: [{ looks: [2], alpha: 0.05, groups: [{}] }] }
    return { ...e, env: { ...e.env, order } }
  })
  return { ...dataset, envs }
}

export function ties (files) {
  const dataset = loadResults(files)
  // Rounds that ran: a cell skipped after a time-out has records for runs that never started.
  const rounds = Math.max(...dataset.runs.filter((r) => r.ok || r.status === 'failed').map((r) => r.run))
  return ['unpaired', 'as the pages judge', 'paired, every round'].map((how) => {
    const judged = variant(dataset, how)
    const { groups } = findings(judged)
    const halfWidths = groups.filter((g) => g.best && g.ranked.length > 1).map((g) => {
      const second = g.ranked.find((c) => c !== g.best)
      // Its verdict against the best, as the page judged it (judge, src/results/judge/verdict.js).
      const c = second.comparison
      return c?.ratio ? Math.max(c.ratio / c.ciLow, c.ciHigh / c.ratio) - 1 : null
    }).filter((v) => v != null)
    return {
      how,
      rounds,
      groups: groups.length,
      shared: groups.filter((g) => g.firsts.length > 1).length,
      // Groups the page ranks nowhere (its control failed, a kill ended the runs, two groups of runs).
      withheld: groups.filter((g) => g.undecided).length,
      halfWidth: halfWidths.length ? median(halfWidths) : null
    }
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2).length ? process.argv.slice(2) : ['results/seed-article.json', 'results/workloads.json']
  for (const file of files) {
    const rows = ties([file])
    process.stdout.write(`${file} (${rows[0].rounds} rounds; paired, the smallest p is ${smallestSignedRankP(rows[0].rounds).toFixed(4)})\n`)
    for (const row of rows) {
      const withheld = row.withheld ? `, ${row.withheld} not ranked (the page's rule withholds them)` : ''
      const interval = row.halfWidth == null ? 'no ranked group to measure it on' : `±${(row.halfWidth * 100).toFixed(1)}% (median)`
      process.stdout.write(`  ${row.how}: ${row.shared} of ${row.groups} first places are not separated from the next${withheld}; interval of the second against the first: ${interval}\n`)
    }
  }
}
