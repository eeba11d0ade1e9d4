// Every export format once: its --format name and what it writes, in the order --help lists them.
// A module of its own, so that the option tables (and --help) read them without loading the
// exporters (the chart renderers); exporters.js holds the exporter of each name.
export const EXPORT_FORMATS = Object.freeze([
  { name: 'md', describe: 'markdown results page (--out) and its PNG charts (--images)' },
  { name: 'html', describe: 'one self-contained HTML page with the same tables and the charts as inline SVG, loading nothing from the network (--out when it ends in .html, else beside it with .html)' },
  { name: 'csv', describe: 'one row per run with every numeric field, and one row per cell with its statistics (median and its 95% interval, mean, stddev, cv, n, outliers) in a -summary.csv beside it (written next to --out)' },
  { name: 'terminal', describe: 'what limits the results (a busy machine, an unfinished file), the tables on stdout without charts, the conditions they were measured in, then the closing answer (writes no file)' },
  { name: 'bmf', describe: 'Bencher Metric Format for `bencher run --adapter json`: each cell\'s median and its interval per measure, in a .bmf.json beside --out' },
  { name: 'benchmark-action', describe: 'github-action-benchmark\'s custom formats: -smaller-is-better.json (tool customSmallerIsBetter: times) and -bigger-is-better.json (customBiggerIsBetter: events/s, requests/s) beside --out' }
])

export const FORMATS = EXPORT_FORMATS.map((f) => f.name)
