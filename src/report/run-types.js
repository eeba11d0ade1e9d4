import { dimensionValue, RUN_TYPES } from '../results/model.js'
import { cpuLabel, libraryName } from '../draw/labels.js'
import { SECTIONS } from './sections.js'

// The report's side of each run type (src/results/run-types/ holds its dimensions, measures,
// validation and summary): the name of a cell in compare's tables (cellName; varies(field) says
// whether that field differs among the compared cells), and the report sections that show it (those
// of SECTIONS in src/report/sections.js that claim the type, in page order).
// A cell's library with its version where it was asked for by one (libraryName), and its runtime
// where the compared cells' runtimes vary.
const runtime = (r, varies) => (varies('runtime') ? `under ${dimensionValue(r, 'runtime') ?? 'the Node running log-bench'}` : null)

const VIEWS = {
  run: {
    cellName: (r, varies) => [r.transport, varies('sink') ? `(${dimensionValue(r, 'sink')})` : null, libraryName(r), runtime(r, varies), varies('workload') ? dimensionValue(r, 'workload') : null, cpuLabel(r.cpus), varies('size') ? `${r.size} B` : null, varies('events') ? `${r.events} events` : null].filter(Boolean).join(' ')
  },
  http: {
    cellName: (r, varies) => ['http', r.transport, libraryName(r), runtime(r, varies), r.mode === 'middleware' ? 'request logger' : `${r.logsPerRequest} logs/request`, `${r.size} B`, cpuLabel(r.cpus)].filter(Boolean).join(' ')
  }
}

// Every run type with its report side: { type (see src/results/run-types/), cellName, sections }.
// What the terminal prints is the terminal export of those sections (src/report/terminal.js).
export const REPORT_RUN_TYPES = RUN_TYPES.map((type) => ({
  type,
  ...VIEWS[type.name],
  sections: SECTIONS.filter((section) => section.types.includes(type.name))
}))

export function reportRunType (name) {
  return REPORT_RUN_TYPES.find((entry) => entry.type.name === name) ?? null
}
