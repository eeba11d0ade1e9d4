import { RUN_TYPES, runTypeOf } from '../results/run-types/index.js'
import { dimensionValue } from '../results/model.js'

// The formats CI tools read, from the summaries of the result model: each cell's median of its
// finished runs and the distribution-free interval of that median (ciLow, ciHigh; its coverage is
// below 95% under 6 runs, see src/stats.js). Measures: those `compare` compares that a summary
// describes (done, unblocked, events/s, peak RSS, drop rate, … ; for http requests/s and p99).
// A benchmark's name is its cell: the library with its variant, then every other dimension as
// key=value, so that it stays the same from one CI run to the next; the library's version is added
// only where a file holds two versions of one cell (pino@9.14.0 and pino@10.4.0 in one run).
// Dimensions at the value a record without them reads as are left out, so that a benchmark keeps
// its name when a new dimension appears (ending: close is every run from before --ending,
// measure: time every run from before --measure): the dimension's descriptor says so (`unsaidAt`,
// src/results/run-types/run.js).
const unsaid = (type, field, value) => {
  const descriptor = type.words.find((w) => w.field === field)
  return descriptor !== undefined && Object.hasOwn(descriptor, 'unsaidAt') && descriptor.unsaidAt === value
}
const MEASURED = Object.fromEntries(RUN_TYPES.map((type) =>
  [type.name, type.measures.filter((m) => m.summary && m.compare)]))
const NAMED_APART = ['type', 'lib', 'libVersion', 'variant']

function benchmarks (dataset) {
  const entries = dataset.summary.filter((entry) => runTypeOf(entry) && entry.okRuns > 0)
  const nameOf = (entry, withVersion) => {
    const type = runTypeOf(entry)
    const variant = dimensionValue(entry, 'variant')
    const dims = type.dimensions.filter((f) => !NAMED_APART.includes(f))
      .map((f) => [f, dimensionValue(entry, f)])
      .filter(([f, v]) => v != null && !unsaid(type, f, v))
    return `${type.name === 'run' ? '' : `${type.name} `}${entry.lib}${withVersion ? `@${entry.libVersion}` : ''}${variant === 'default' ? '' : `:${variant}`} ${dims.map(([f, v]) => `${f}=${v}`).join(',')}`
  }
  const names = entries.map((entry) => nameOf(entry, false))
  return entries.map((entry, i) => {
    const twice = names.some((other, j) => j !== i && other === names[i])
    const measures = MEASURED[runTypeOf(entry).name].filter((m) => entry[m.field]?.median != null)
      .map((m) => ({ measure: m, stats: entry[m.field] }))
    return { name: twice ? nameOf(entry, true) : names[i], entry, measures }
  })
}

// Bencher Metric Format: { "<benchmark>": { "<measure>": { value, lower_value, upper_value } } }.
export function toBmf (dataset) {
  const bmf = {}
  for (const { name, measures } of benchmarks(dataset)) {
    bmf[name] = {}
    for (const { measure, stats } of measures) {
      bmf[name][measure.field] = {
        value: stats.median,
        ...(stats.ciLow != null && stats.ciHigh != null ? { lower_value: stats.ciLow, upper_value: stats.ciHigh } : {})
      }
    }
  }
  return bmf
}

// github-action-benchmark's custom tools: [{ name, unit, value, range, extra }], one file per
// direction (customSmallerIsBetter: times, drop rate; customBiggerIsBetter: events/s, requests/s).
// Measures without a better direction (memory) are in neither.
export function toBenchmarkAction (dataset, better) {
  const out = []
  for (const { name, entry, measures } of benchmarks(dataset)) {
    for (const { measure, stats } of measures.filter((m) => m.measure.better === better)) {
      const coverage = stats.ciCoverage == null ? '' : ` (${Math.round(stats.ciCoverage * 100)}% interval)`
      out.push({
        name: `${name} ${measure.field}`,
        unit: measure.unit,
        value: stats.median,
        ...(stats.ciLow != null ? { range: `${stats.ciLow}…${stats.ciHigh}${coverage}` } : {}),
        extra: `median of ${stats.n} finished run${stats.n === 1 ? '' : 's'} of ${entry.runs}; ${entry.lib} ${entry.libVersion ?? ''}`.trim()
      })
    }
  }
  return out
}

const json = (value) => JSON.stringify(value, null, 2) + '\n'
const stem = (out) => out.replace(/\.[^./\\]*$/, '')

export const bmfExport = {
  name: 'bmf',
  targets: ({ out }) => [`${stem(out)}.bmf.json`],
  files (dataset, options) {
    const [file] = bmfExport.targets(options)
    return [{ file, data: json(toBmf(dataset)) }]
  }
}

export const benchmarkActionExport = {
  name: 'benchmark-action',
  targets: ({ out }) => [`${stem(out)}-smaller-is-better.json`, `${stem(out)}-bigger-is-better.json`],
  files (dataset, options) {
    const [smaller, bigger] = benchmarkActionExport.targets(options)
    return [{ file: smaller, data: json(toBenchmarkAction(dataset, 'lower')) }, { file: bigger, data: json(toBenchmarkAction(dataset, 'higher')) }]
  }
}
