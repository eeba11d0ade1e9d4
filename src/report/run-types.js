import { dimensionValue, RUN_TYPES, runTypeName } from '../results/model.js'
import { renderHttpTerminal } from './http-terminal.js'
import { cpuLabel, runName } from './labels.js'
import { SECTIONS } from './sections.js'
import { renderTerminal } from './terminal.js'

// The report's side of each run type (src/results/run-types/ holds its dimensions, measures,
// validation and summary): what the terminal prints after a run (terminal), the name of a cell in
// compare's tables (cellName; varies(field) says whether that field differs among the compared
// cells), and the report sections that show it (those of SECTIONS in src/report/sections.js that
// claim the type, in page order).
// A cell's library with its version where it was asked for by one (pino@9.14.0), and its runtime
// where the compared cells' runtimes vary.
const library = (r) => runName({ lib: r.lib, variant: r.variant, libRange: r.libRange, libVersion: r.libVersion })
const runtime = (r, varies) => (varies('runtime') ? `under ${dimensionValue(r, 'runtime') ?? 'the Node running log-bench'}` : null)

const VIEWS = {
  run: {
    terminal: renderTerminal,
    cellName: (r, varies) => [r.transport, varies('sink') ? `(${dimensionValue(r, 'sink')})` : null, library(r), runtime(r, varies), varies('workload') ? dimensionValue(r, 'workload') : null, cpuLabel(r.cpus), varies('size') ? `${r.size} B` : null, varies('events') ? `${r.events} events` : null].filter(Boolean).join(' ')
  },
  http: {
    terminal: renderHttpTerminal,
    cellName: (r, varies) => ['http', r.transport, library(r), runtime(r, varies), r.mode === 'middleware' ? 'request logger' : `${r.logsPerRequest} logs/request`, `${r.size} B`, cpuLabel(r.cpus)].filter(Boolean).join(' ')
  }
}

// Every run type with its report side: { type (see src/results/run-types/), terminal, cellName, sections }.
export const REPORT_RUN_TYPES = RUN_TYPES.map((type) => ({
  type,
  ...VIEWS[type.name],
  sections: SECTIONS.filter((section) => section.types.includes(type.name))
}))

export function reportRunType (name) {
  return REPORT_RUN_TYPES.find((entry) => entry.type.name === name) ?? null
}

// What the terminal shows of a results document: each run type's own output, for the types it holds.
export function renderTerminalOutput (doc) {
  return REPORT_RUN_TYPES.filter(({ type }) => doc.runs.some((r) => runTypeName(r) === type.name)).map(({ terminal }) => terminal(doc)).join('')
}
