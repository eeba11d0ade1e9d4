import path from 'node:path'
import { REPORT_OPTIONS } from '../api/option-tables.js'
import { addOptions } from '../api/options.js'

export const command = 'report [files..]'
export const describe = 'Turn results JSON into a results page (markdown + PNG charts, or self-contained HTML) and/or CSV'

export function builder (yargs) {
  return addOptions(yargs, REPORT_OPTIONS)
    .positional('files', { type: 'string', describe: 'Results JSON files from `log-bench run` (same machine and Node version)' })
    .example('$0 report results/*.json', 'writes results/README.md and its charts in results/images/')
    .example('$0 report --pages results/pages.json', 'regenerates every committed results page (results/README.md, results/http.md, …)')
    .example('$0 report r.json --out docs/RESULTS.md --images docs/images --format md,csv', '')
}

// The command's work is imported when it runs, so that --help and --version start at once.
export async function handler (argv) {
  const { reportFrom } = await import('../api/report.js')
  const { files, images, removed = [] } = reportFrom(argv, { stream: process.stdout })
  summarizeWritten(files, images)
  if (removed.length) process.stdout.write(`removed ${removed.length} file${removed.length > 1 ? 's' : ''} an earlier --pages wrote and this one no longer does: ${removed.join(', ')}\n`)
}

function summarizeWritten (written, images) {
  if (written.length === 0) return
  const relative = (file) => {
    const shown = path.relative(process.cwd(), file)
    return shown.startsWith('..') ? file : shown
  }
  const pngs = written.filter((f) => f.endsWith('.png'))
  const others = written.filter((f) => !f.endsWith('.png'))
  process.stdout.write(`wrote ${others.map(relative).join(', ')}${pngs.length ? ` and ${pngs.length} chart${pngs.length > 1 ? 's' : ''} in ${relative(images)}/` : ''}\n`)
}
