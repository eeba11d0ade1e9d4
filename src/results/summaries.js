import { summarizeHttp } from './http-summary.js'
import { summarize } from './model.js'

// Every run type's summary: `run` cells from the results model, `http` cells from their own module.
export const SUMMARIZERS = [summarize, summarizeHttp]
