import { COMPARED_DIMENSIONS, comparisonGroupKey, summarizeType } from './run-types/index.js'
import { BASELINE, HTTP_TYPE } from './run-types/http.js'

export { BASELINE }

// A cell of the http matrix without its library: the runs that share it are compared with `none`.
export function httpCellOf (r) {
  return comparisonGroupKey(r)
}

// What tells the libraries of one http cell apart: the library, its variant and its request logger.
export const LIBRARY_DIMENSIONS = COMPARED_DIMENSIONS

// The summary entries of `http` cells (see summarizeType and the http type's relate(): requests per
// second and p99 latency of each library against `none` in the same cell, paired by round where
// `roundOf` knows the rounds: src/results/rounds.js).
export function summarizeHttp (runs, { roundOf = null } = {}) {
  return summarizeType(HTTP_TYPE, runs, { roundOf })
}
