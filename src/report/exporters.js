import { writeFilesAtomic } from '../results/write.js'
import { benchmarkActionExport, bmfExport } from './ci-formats.js'
import { csvExport } from './csv.js'
import { htmlExport } from './html.js'
import { resultsReadme } from './results-readme.js'
import { terminalExport } from './terminal.js'

// Every export format (formats.js names and describes them) behind one interface: { name, targets({ out }) → the files
// it will write (checked before anything is written), files(dataset, { out, images }) → [{ file, data }]: what it would
// write, rendered, nothing written yet }. The terminal is one of them: it names no file, and print(dataset, { stream })
// writes its tables.
export const EXPORTERS = [resultsReadme, htmlExport, csvExport, terminalExport, bmfExport, benchmarkActionExport]

export function exporterFor (name) {
  return EXPORTERS.find((e) => e.name === name)
}

// Every output of the formats lands together or none does: each is rendered and staged in a
// temporary file beside its target first, and only then are they all renamed into place (a full
// disk half-way leaves nothing, and a retry is not refused for a file of the failed attempt).
// The terminal's tables follow once the files are written. Returns the files written.
export function writeExports (formats, dataset, options) {
  const exporters = formats.map(exporterFor)
  const files = exporters.flatMap((exporter) => exporter.files(dataset, options))
  writeFilesAtomic(files)
  for (const exporter of exporters) exporter.print?.(dataset, options)
  return files.map(({ file }) => file)
}
