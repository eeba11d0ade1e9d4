import { writeFileAtomic } from '../results/write.js'
import { CELL_FIELDS, dimensionValue } from '../results/model.js'

// The `csv` export: one row per run with its identity and every numeric field, for spreadsheets
// and pandas. Columns are the union over all runs, so runs of other types (http) keep their fields.
// The identity is the cell's (src/results/model.js), so rows group in a spreadsheet as they do here.
const IDENTITY = ['file', ...CELL_FIELDS, 'run', 'ok', 'status', 'error']

// Nested figures (an http run's reqPerSec.mean, latencyMs.p99, ...) become columns of their own.
function flatten (run) {
  const flat = {}
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
  const lines = [columns.join(',')]
  for (const run of runs) {
    lines.push(columns.map((key) => cell(CELL_FIELDS.includes(key) ? dimensionValue(run, key) : run[key])).join(','))
  }
  return lines.join('\n') + '\n'
}

function cell (value) {
  if (value == null) return ''
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : ''
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export const csvExport = {
  name: 'csv',
  describe: 'one row per run with every numeric field (written next to --out, with a .csv extension)',
  targets: ({ out }) => [out.replace(/\.[^./\\]*$/, '') + '.csv'],
  write (dataset, options) {
    const [file] = csvExport.targets(options)
    writeFileAtomic(file, toCsv(dataset))
    return [file]
  }
}
