// Writes the field tables of docs/results.md from the results schema (schema/results.schema.json),
// between <!-- fields:TYPE --> and <!-- /fields:TYPE -->, and index.d.ts, whose record types come from
// the schema too (scripts/index-types.js). test/schema.test.js and test/options.test.js fail when they
// are out of date.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { fieldsMarkdown } from '../src/results/schema.js'
import { indexTypes } from './index-types.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const RESULTS_DOC = path.join(ROOT, 'docs', 'results.md')

export function withFieldTables (markdown) {
  let out = markdown
  for (const type of ['run', 'http']) {
    const open = `<!-- fields:${type} -->`
    const close = `<!-- /fields:${type} -->`
    const from = out.indexOf(open)
    const to = out.indexOf(close)
    if (from < 0 || to < from) throw new Error(`docs/results.md has no ${open} … ${close}`)
    out = out.slice(0, from + open.length) + '\n' + fieldsMarkdown(type) + '\n' + out.slice(to)
  }
  return out
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(RESULTS_DOC, withFieldTables(fs.readFileSync(RESULTS_DOC, 'utf8')))
  fs.writeFileSync(path.join(ROOT, 'index.d.ts'), indexTypes())
  process.stdout.write('wrote the field tables of docs/results.md and index.d.ts\n')
}
