import { UsageError } from '../errors.js'
import { loadDocuments, loadResults, validateDocument } from '../results/read.js'
import { baselineMatcher, compareDatasets, compareWithBaseline, describeSource, environmentNoteFor, whyNothingCompared } from '../report/compare.js'
import { COMPARE_OPTIONS } from './option-tables.js'
import { profileDiffDatasets, profileDiffWithBaseline } from '../report/profile-diff.js'
import { argvFromApi, parseOptions } from './options.js'

// `compare`'s work, from argv ({ base, new, baseline, alpha, noise }: the command line's, or the API's
// options turned into argv). base and new are results files' paths or, from the API, results
// documents. Returns { result, labels }: the comparison rows (see compareWithBaseline,
// compareDatasets) and the words the terminal's tables are titled with.
export function compareFrom (argv) {
  const { baseline, alpha, noise, ignoreVersion, profileDiff } = parseOptions(COMPARE_OPTIONS, argv)
  if (profileDiff) return { result: profileDiffFrom(argv, baseline), labels: {} }
  const options = { alpha, noise }
  if (baseline != null) {
    const name = baseline.trim()
    if (name === '') throw new UsageError('--baseline needs a library name, e.g. --baseline pino')
    if (argv.new != null) throw new UsageError(`--baseline compares the cells of one results file: give one file, not two (${sourceName(argv.base, 1)}, ${sourceName(argv.new, 2)})`)
    if (ignoreVersion) throw new UsageError('--ignore-version pairs the cells of two files; with --baseline, name the version instead (--baseline pino@9)')
    const dataset = load(argv.base, 1)
    const result = compareWithBaseline(dataset, name, options)
    const isBaseline = baselineMatcher(name)
    if (!dataset.runs.some(isBaseline)) throw new UsageError(`--baseline ${name}: ${result.notCompared[0]}`)
    // A comparison of nothing is not a pass: a gate on it would check nothing.
    if (result.comparisons.length === 0) throw new UsageError(`--baseline ${name}: nothing to compare in ${sourceName(argv.base, 1)}${result.notCompared.length ? `: ${result.notCompared.join('; ')}` : `: it holds no cell but ${name}'s`}`)
    return { result, labels: {} }
  }
  if (argv.new == null) throw new UsageError('compare needs two results files (base and new), or one file and --baseline LIB')
  const base = load(argv.base, 1)
  const next = load(argv.new, 2)
  const result = compareDatasets(base, next, { ...options, baseLabel: sourceName(argv.base, 1), ignoreVersion })
  if (result.comparisons.length === 0) {
    const { message, hint } = whyNothingCompared(
      result,
      base,
      next,
      { baseFile: sourceName(argv.base, 1), newFile: sourceName(argv.new, 2) }
    )
    throw new UsageError(message, { hint })
  }
  return {
    result,
    labels: {
      baseLabel: describeSource(sourceName(argv.base, 1), base),
      newLabel: describeSource(sourceName(argv.new, 2), next),
      environmentNote: environmentNoteFor(base, next)
    }
  }
}

// compare --profile-diff: the profiled cells side by side (src/report/profile-diff.js).
function profileDiffFrom (argv, baseline) {
  if (baseline != null && argv.new != null) throw new UsageError(`--baseline compares the cells of one results file: give one file, not two (${sourceName(argv.base, 1)}, ${sourceName(argv.new, 2)})`)
  if (baseline == null && argv.new == null) throw new UsageError('compare --profile-diff needs two results files (base and new), or one file and --baseline LIB')
  const result = baseline != null
    ? profileDiffWithBaseline(load(argv.base, 1), baseline.trim())
    : profileDiffDatasets(load(argv.base, 1), load(argv.new, 2))
  if (!result.pairs.length) {
    const why = result.notCompared.length ? result.notCompared.join('; ') : 'no profiled cells (run --profile records them)'
    throw new UsageError(`--profile-diff: nothing to set side by side: ${why}`)
  }
  return result
}

const isDocument = (value) => value !== null && typeof value === 'object' && !Array.isArray(value)
const sourceName = (source, index) => (isDocument(source) ? `results document ${index}` : String(source))

// A results file by path, or a results document given to the API (checked as a file is).
function load (source, index) {
  const file = sourceName(source, index)
  const dataset = isDocument(source)
    ? (validateDocument(source, file), loadDocuments([{ file, doc: source }]))
    : loadResults([file])
  if (dataset.runs.length === 0) throw new UsageError(`${file} has no runs: nothing to compare (an interrupted run saves its file before its first run ends)`)
  return dataset
}

// The API: compare(doc, { baseline }) or compare(before, after, options); each a results document
// or a results file's path. Resolves to the comparison: { mode, baseline, alpha, noise,
// comparisons: [{ cell, measure, ratio, ciLow, ciHigh, p, verdict, … }], notCompared, onlyBase, onlyNew }.
export async function compare (base, ...rest) {
  const second = rest.length > 1 || typeof rest[0] === 'string' || (isDocument(rest[0]) && 'runs' in rest[0]) ? rest[0] : undefined
  const options = (second === undefined ? rest[0] : rest[1]) ?? {}
  if (base == null) throw new UsageError('compare() needs a results document (or a results file\'s path) to compare')
  const { result } = compareFrom({ ...argvFromApi(COMPARE_OPTIONS, options, 'compare'), base, new: second })
  return result
}
