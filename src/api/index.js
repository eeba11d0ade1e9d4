// log-bench as a library: import { run, http, compare, report } from 'log-bench' (docs/api.md).
// Each takes the options of its command (src/api/option-tables.js), prints nothing and installs no
// signal handlers; bad options reject with a UsageError carrying the command line's one-line message.
export { run } from './run.js'
export { http } from './http.js'
export { compare } from './compare.js'
export { report } from './report.js'
export { UsageError, Interrupted } from '../errors.js'
export { RESULTS_SCHEMA_FILE } from '../results/schema.js'
