import { RUN_EXECUTOR } from '../run/run-type.js'
import { HTTP_EXECUTOR } from '../http/run-type.js'
import { runTypeNamed } from '../results/run-types/index.js'
import { reportRunType } from '../report/run-types.js'

// The run types by name, each whole: { name, plan(options) → cells, execute(settings, { signal,
// onLive }) → a record's measures, describe(record) → a finished run's progress line, record (its
// dimensions, measures, validation and summary rules: src/results/run-types/), report (its cell
// names and page sections: src/report/run-types.js) }. The session executes a cell by its
// settings' type (runTypes[cell.settings.type].execute(cell.settings, { signal, onLive })).
export const runTypes = Object.fromEntries([RUN_EXECUTOR, HTTP_EXECUTOR].map((executor) => [executor.name, {
  ...executor,
  record: runTypeNamed(executor.name),
  report: reportRunType(executor.name)
}]))
