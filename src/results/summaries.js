import { RUN_TYPES, summarizeType } from './run-types/index.js'

// Every run type's summary, one summarizer per type (see run-types/).
export const SUMMARIZERS = RUN_TYPES.map((type) => (runs) => summarizeType(type, runs))
