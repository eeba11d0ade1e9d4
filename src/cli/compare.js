import { COMPARE_OPTIONS } from '../api/option-tables.js'
import { addOptions, parseOptions } from '../api/options.js'
import { EXIT, UsageError } from '../errors.js'

export const command = 'compare <base> [new]'
export const describe = 'Compare cells with a verdict (faster, slower, same): two results files cell by cell, or the cells of one file against a baseline library (--baseline)'

export function builder (yargs) {
  return addOptions(yargs, COMPARE_OPTIONS)
    .positional('base', { type: 'string', describe: 'Results JSON before the change (with --baseline: the results to compare)' })
    .positional('new', { type: 'string', describe: 'Results JSON after the change (not with --baseline)' })
    .example('$0 compare results/before.json results/after.json', '')
    .example('$0 compare results/run.json --baseline pino', 'every library against pino, cell by cell')
    .example('$0 compare bench.json --baseline pino@10 --fail-on slower --markdown > comment.md', 'a CI gate: exit 3 when a cell reads slower, and a pull-request comment')
    .example('$0 compare profiled.json --baseline pino --profile-diff', 'where each profiled library spends its time unlike pino (run --profile)')
}

// The command's work is imported when it runs, so that --help and --version start at once.
export async function handler (argv) {
  const [
    { comparisonJson, gateFailures, gateMessage, renderComparison },
    { comparisonMarkdown },
    { compareFrom },
    { terminalWidth }
  ] = await Promise.all([
    import('../report/compare.js'), import('../report/compare-markdown.js'), import('../api/compare.js'), import('../draw/table.js')
  ])
  const { json, markdown, failOn, profileDiff } = parseOptions(COMPARE_OPTIONS, argv)
  if (json && markdown) throw new UsageError('--json and --markdown are two formats: give one')
  if (profileDiff && (markdown || failOn)) throw new UsageError(`--profile-diff shows where the time went, with no verdict: not with ${markdown ? '--markdown' : '--fail-on'}`)
  const { result, labels } = compareFrom(argv)
  if (profileDiff) {
    const { renderProfileDiff } = await import('../report/profile-diff.js')
    process.stdout.write(json ? JSON.stringify(result, null, 2) + '\n' : renderProfileDiff(result))
    return
  }
  process.stdout.write(json
    ? comparisonJson(result)
    : markdown
      ? comparisonMarkdown(
        result,
        { ...labels, baseLabel: String(argv.base), newLabel: argv.new == null ? null : String(argv.new) }
      )
      // Within the terminal's width, as run's output: the width source run uses (terminalWidth).
      : renderComparison(result, { ...labels, width: terminalWidth(process.stdout) }))
  if (failOn) {
    const failures = gateFailures(result, failOn)
    if (failures.length) {
      process.stderr.write(`log-bench: ${gateMessage(failures, failOn, result.comparisons.length)}\n`)
      process.exitCode = EXIT.FAIL_ON
    }
  }
}
