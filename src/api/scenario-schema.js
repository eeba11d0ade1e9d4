import { HTTP_OPTIONS, RUN_OPTIONS } from './option-tables.js'
import { scenarioProperty } from './options.js'

// scenarios/schema.json, derived from the option tables of `run` and `http`: a group's keys, their
// values and limits are those of the options. `npm run docs:options` writes the file; a test checks
// that the committed one is this.
function groupSchema (table) {
  const options = table.filter((option) => option.scenario)
  return {
    type: 'object',
    additionalProperties: false,
    required: options.filter((option) => option.scenarioRequired).map((option) => option.scenario),
    properties: Object.fromEntries(options.map((option) => [option.scenario, scenarioProperty(option)]))
  }
}

export function scenarioSchema () {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'log-bench scenario',
    description: 'A named benchmark matrix: `run` groups (log-bench run) and `http` groups (log-bench http), run by `log-bench run --scenario <name or file>`. Generated from the option tables (src/api/option-tables.js) by `npm run docs:options`.',
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    anyOf: [{ required: ['run'] }, { required: ['http'] }],
    properties: {
      $schema: { type: 'string' },
      name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', description: 'identifies the scenario in results, --resume and merge' },
      description: { type: 'string' },
      output: { type: 'string', minLength: 1, description: 'results JSON path, relative to the current directory; --out overrides it' },
      run: { type: 'array', minItems: 1, items: groupSchema(RUN_OPTIONS) },
      http: { type: 'array', minItems: 1, items: groupSchema(HTTP_OPTIONS) }
    }
  }
}
