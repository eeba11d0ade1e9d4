// The orders of the runs (--order; orchestrator.js schedules them): a module of its own, so that the
// option tables (and --help) read them without loading the cell loop and the result model.
export const ORDERS = ['interleaved', 'blocked']
export const DEFAULT_ORDER = 'interleaved'
