// Writes what is derived from the option tables (src/api/option-tables.js): scenarios/schema.json,
// the option tables of docs/cli.md (between <!-- options:COMMAND --> and <!-- /options:COMMAND -->)
// and index.d.ts (scripts/index-types.js). test/options.test.js fails when one is out of date.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { COMPARE_OPTIONS, HTTP_OPTIONS, MERGE_OPTIONS, REPORT_OPTIONS, RUN_OPTIONS, SINK_OPTIONS } from '../src/api/option-tables.js'
import { optionsMarkdown } from '../src/api/options.js'
import { scenarioSchema } from '../src/api/scenario-schema.js'
import { indexTypes } from './index-types.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const TABLES = {
  run: RUN_OPTIONS,
  http: HTTP_OPTIONS,
  report: REPORT_OPTIONS,
  compare: COMPARE_OPTIONS,
  merge: MERGE_OPTIONS,
  sink: SINK_OPTIONS
}

export function withOptionTables (markdown) {
  let out = markdown
  for (const [command, table] of Object.entries(TABLES)) {
    const open = `<!-- options:${command} -->`
    const close = `<!-- /options:${command} -->`
    const from = out.indexOf(open)
    const to = out.indexOf(close)
    if (from < 0 || to < from) throw new Error(`docs/cli.md has no ${open} … ${close}`)
    out = out.slice(0, from + open.length) + '\n' + optionsMarkdown(table) + '\n' + out.slice(to)
  }
  return out
}

export const schemaText = () => JSON.stringify(scenarioSchema(), null, 2) + '\n'

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(path.join(ROOT, 'scenarios', 'schema.json'), schemaText())
  const cli = path.join(ROOT, 'docs', 'cli.md')
  fs.writeFileSync(cli, withOptionTables(fs.readFileSync(cli, 'utf8')))
  fs.writeFileSync(path.join(ROOT, 'index.d.ts'), indexTypes())
  process.stdout.write('wrote scenarios/schema.json, the option tables of docs/cli.md and index.d.ts\n')
}
