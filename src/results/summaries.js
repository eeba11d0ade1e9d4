import { RUN_TYPES, summarizeType } from './run-types/index.js'

// Every run type's summary, one summarizer per type (see run-types/); `roundOf` (src/results/rounds.js)
// says which round each run ran in, for comparisons paired by round.
export const SUMMARIZERS = RUN_TYPES.map((type) =>
  (runs, { roundOf = null } = {}) => summarizeType(type, runs, { roundOf }))
