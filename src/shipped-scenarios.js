// The scenarios shipped with log-bench: a module of its own, without the scenario checks
// (scenario.js), so that the option tables (and --help, which lists them) read their names without
// loading the schema validator.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

// The scenarios shipped with log-bench, found by name (--scenario quick) from any directory.
export const SCENARIOS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../scenarios')

// The shipped scenarios: [{ name, file, description }], by name.
export function shippedScenarios () {
  return fs.readdirSync(SCENARIOS_DIR)
    .filter((entry) => entry.endsWith('.json') && entry !== 'schema.json')
    .sort()
    .map((entry) => {
      const file = path.join(SCENARIOS_DIR, entry)
      let description = ''
      try { description = JSON.parse(fs.readFileSync(file, 'utf8')).description ?? '' } catch {}
      return { name: entry.slice(0, -'.json'.length), file, description }
    })
}
