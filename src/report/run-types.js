import { RUN_TYPES } from '../results/model.js'
import { SECTIONS } from './sections.js'

// The report's side of each run type (src/results/run-types/ holds its dimensions and their words,
// measures, validation and summary): the report sections that show it (those of SECTIONS in
// src/report/sections.js that claim the type, in page order).

// Every run type with its report side: { type (see src/results/run-types/), sections }.
// What the terminal prints is the terminal export of those sections (src/report/terminal.js).
export const REPORT_RUN_TYPES = RUN_TYPES.map((type) => ({
  type,
  sections: SECTIONS.filter((section) => section.types.includes(type.name))
}))

export function reportRunType (name) {
  return REPORT_RUN_TYPES.find((entry) => entry.type.name === name) ?? null
}
