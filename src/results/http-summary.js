import { COMPARED_DIMENSIONS, comparisonGroupKey, summarizeType } from './run-types/index.js'
import { BASELINE, HTTP_TYPE, noiseOfField } from './run-types/http.js'
import { DEFAULT_NOISE } from '../stats.js'

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

// What a library's verdict rests on: requests per second under a closed loop; under a fixed request
// rate (--rate), where every library serves the same requests per second, the server's CPU time per
// request; in a counted cell (--measure instructions) its instructions per request (no times were
// taken there). comparison: the summary's entry against none; value: a run's figure; better: which
// way is cheaper; unit: the words for the figure, where it is not requests/s; field: the summary
// entry's figure (median and interval) that a chart draws; noise: the threshold its verdicts are
// judged with (the field's own, else --noise's default). entry may also be a section's group of
// cells (it has their measure and rate).
export function basisOf (entry) {
  const basis = entry.measure === 'instructions'
    ? { comparison: entry.instructionsPerRequestVsBaseline, value: (r) => r.instructionsPerRequest, better: 'lower', unit: 'instructions/request', field: 'instructionsPerRequest' }
    : entry.rate != null
      ? { comparison: entry.cpuPerRequestVsBaseline, value: (r) => r.serverCpuUsPerRequest, better: 'lower', unit: 'server CPU µs/request', field: 'serverCpuUsPerRequest' }
      : { comparison: entry.throughputVsBaseline, value: (r) => r.reqPerSec?.mean, better: 'higher', unit: null, field: 'reqPerSec' }
  return { ...basis, noise: noiseOfField(basis.field) ?? DEFAULT_NOISE }
}
