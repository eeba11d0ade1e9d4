import { writeFileAtomic } from '../results/write.js'
import { CELL_FIELDS, dimensionValue } from '../results/model.js'
import { csvTable, left } from './table.js'

// The `csv` export: one row per run with its identity and every numeric field, for spreadsheets
// and pandas. Columns are the union over all runs, so runs of other types (http) keep their fields.
// The identity is the cell's (src/results/model.js), so rows group in a spreadsheet as they do here.
const IDENTITY = ['file', ...CELL_FIELDS, 'run', 'ok', 'status', 'error']

// Nested figures (an http run's reqPerSec.mean, latencyMs.p99, ...) become columns of their own.
function flatten (run) {
  // A results file's keys are data: "__proto__" is a column like any other.
  const flat = Object.create(null)
  for (const [key, value] of Object.entries(run)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value)) flat[`${key}.${inner}`] = innerValue
    } else {
      flat[key] = value
    }
  }
  return flat
}

export function toCsv (dataset) {
  const runs = dataset.runs.map(flatten)
  const numeric = []
  for (const run of runs) {
    for (const [key, value] of Object.entries(run)) {
      if (IDENTITY.includes(key) || numeric.includes(key)) continue
      if (typeof value === 'number' || (value === null && runs.some((r) => typeof r[key] === 'number'))) numeric.push(key)
    }
  }
  const columns = [...IDENTITY, ...numeric]
  const rows = runs.map((run) => columns.map((key) => cell(CELL_FIELDS.includes(key) ? dimensionValue(run, key) : run[key])))
  return csvTable({ columns: columns.map(left), rows })
}

// A figure as a cell of the table: numbers as they are, a nested value (a time series) as JSON.
function cell (value) {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : value
}

// The `csv` export's second file: one row per cell with its statistics for every measure (n, mean,
// stddev, cv, min, max, median, ciLow, ciHigh, ciCoverage, outliers as columns such as doneMs.ciLow).
export function summaryCsv (dataset) {
  return toCsv({ runs: dataset.summary })
}

export const csvExport = {
  name: 'csv',
  describe: 'one row per run with every numeric field, and one row per cell with its statistics (median and its 95% interval, mean, stddev, cv, n, outliers) in a -summary.csv beside it (written next to --out)',
  targets: ({ out }) => {
    const base = out.replace(/\.[^./\\]*$/, '')
    return [`${base}.csv`, `${base}-summary.csv`]
  },
  write (dataset, options) {
    const [file, summaryFile] = csvExport.targets(options)
    writeFileAtomic(file, toCsv(dataset))
    writeFileAtomic(summaryFile, summaryCsv(dataset))
    return [file, summaryFile]
  }
}
