import { CELL_FIELDS, dimensionValue, RUN_TYPES, runTypeName } from '../results/model.js'
import { recordFields } from '../results/schema.js'
import { csvTable, left } from '../draw/table.js'

// The `csv` export: one row per run with its identity and every numeric field, for spreadsheets
// and pandas. The identity is the cell's (src/results/model.js), so rows group in a spreadsheet as
// they do here. The figures' columns are the results schema's (schema/results.schema.json), in its
// order, for the run types present; numeric fields the schema does not describe (runs of another
// type, a newer writer's fields) follow, as the runs hold them.
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

const isNumeric = (schema) => [schema.type ?? []].flat().some((t) => t === 'number' || t === 'integer')

// The schema's numeric columns of a run type: its numeric fields, and the numeric members of its
// object fields (callLatencyNs.p99).
export function schemaColumns (typeName) {
  return recordFields(typeName).flatMap(({ field, schema }) => {
    if (isNumeric(schema)) return [field]
    return Object.entries(schema.properties ?? {}).filter(([, inner]) => isNumeric(inner)).map(([inner]) => `${field}.${inner}`)
  })
}

// Columns of numbers found in the rows, beyond `known`: in the order they first appear.
function numericColumns (rows, known) {
  const numeric = []
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) {
      if (known.includes(key) || numeric.includes(key)) continue
      if (typeof value === 'number' || (value === null && rows.some((r) => typeof r[key] === 'number'))) numeric.push(key)
    }
  }
  return numeric
}

// series: false leaves out list-valued fields (a run's time series, a latency histogram), for a CSV
// committed beside a page.
export function toCsv (dataset, { schema = true, series = true } = {}) {
  const runs = dataset.runs.map(flatten)
    .map((run) => (series ? run : Object.fromEntries(Object.entries(run).filter(([, value]) => !Array.isArray(value)))))
  const types = RUN_TYPES.filter((type) => schema && dataset.runs.some((r) => runTypeName(r) === type.name))
  const described = [...new Set(types.flatMap((type) => schemaColumns(type.name)))].filter((key) =>
    !IDENTITY.includes(key) && runs.some((r) => r[key] !== undefined))
  const columns = [...IDENTITY, ...described, ...numericColumns(runs, [...IDENTITY, ...described])]
  const rows = runs.map((run) =>
    columns.map((key) => cell(CELL_FIELDS.includes(key) ? dimensionValue(run, key) : run[key])))
  return csvTable({ columns: columns.map(left), rows })
}

// A figure as a cell of the table: numbers as they are, a nested value (a time series) as JSON.
function cell (value) {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : value
}

// The `csv` export's second file: one row per cell with its statistics for every measure (n, mean,
// stddev, cv, min, max, median, ciLow, ciHigh, ciCoverage, outliers as columns such as doneMs.ciLow).
// Summary entries are not run records: their columns are the figures they hold.
export function summaryCsv (dataset) {
  return toCsv({ runs: dataset.summary }, { schema: false })
}

export const csvExport = {
  name: 'csv',
  targets: ({ out }) => {
    const base = out.replace(/\.[^./\\]*$/, '')
    return [`${base}.csv`, `${base}-summary.csv`]
  },
  files (dataset, options) {
    const [file, summaryFile] = csvExport.targets(options)
    return [{ file, data: toCsv(dataset) }, { file: summaryFile, data: summaryCsv(dataset) }]
  }
}
