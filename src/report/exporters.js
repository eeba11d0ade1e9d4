import { benchmarkActionExport, bmfExport } from './ci-formats.js'
import { csvExport } from './csv.js'
import { htmlExport } from './html.js'
import { resultsReadme } from './results-readme.js'
import { terminalExport } from './terminal.js'

// Every export format (formats.js names and describes them) behind one interface: { name,
// targets({ out }) → the files it will write (checked before anything is written),
// write(dataset, { out, images }) → files written }. The terminal is one of them: it writes to
// stdout and names no file.
export const EXPORTERS = [resultsReadme, htmlExport, csvExport, terminalExport, bmfExport, benchmarkActionExport]

export function exporterFor (name) {
  return EXPORTERS.find((e) => e.name === name)
}
