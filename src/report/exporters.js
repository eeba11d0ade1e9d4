import { csvExport } from './csv.js'
import { resultsReadme } from './results-readme.js'

// Every export format behind one interface: { name, describe, write(dataset, { out, images }) → files written }.
export const EXPORTERS = [resultsReadme, csvExport]
export const FORMATS = EXPORTERS.map((e) => e.name)

export function exporterFor (name) {
  return EXPORTERS.find((e) => e.name === name)
}
