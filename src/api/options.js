import { UsageError } from '../errors.js'
import { describeValue } from '../escape.js'
import { list, MAX_SECONDS, oneOf, positiveInt, positiveIntList, seconds } from './validate.js'

// An option table lists each option of a command once: its name, what it means, its default, the
// values it takes and their limits, and its key in a scenario file. The yargs builder, the parsing
// of the command line, of the API's options and of a scenario's groups, the scenario schema and the
// option tables of docs/cli.md are all derived from it (see the functions below).
//
// An option: { name, describe, default?, defaultText?, type?: 'boolean', list?, values?, hints?,
//   noun?, int?: { min, max, why }, seconds?: { allowZero }, parse?, numeric?, schema?, matrix?, scenario?,
//   one?, cliOnly? }
//   default     the value as it would be typed, applied when the option is not given
//   defaultText how --help and the docs name a default that is not one literal value
//   list        a comma list; values: the names allowed (hints: what to say for names people try)
//   int         whole numbers (min 1 unless said); seconds: a time in seconds
//   parse       a parser of its own, for what the kinds above do not cover
//   numeric     with parse: a number, which the API takes as a number or as typed (index.d.ts)
//   schema      with parse: the JSON Schema of its value in a scenario group
//   matrix      defines cells: `run` refuses it beside --scenario
//   scenario    its key in a scenario group; one: that key holds one value, not a list
//   cliOnly     the terminal's alone (quiet, json): the API does not take it

export const camel = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase())

// The option's value from argv (the command line, or a scenario group turned into argv), parsed and
// checked; its default where it was not given; null where it has neither.
export function parseOption (option, argv) {
  const given = argv[camel(option.name)]
  const value = given ?? option.default
  if (option.type === 'boolean') return Boolean(value)
  if (value == null) return null
  if (option.values) {
    const values = oneOf(
      option.list ? list(value, option.name) : [String(value)],
      option.values,
      option.noun ?? option.name,
      option.hints
    )
    return option.list ? [...new Set(values)] : values[0]
  }
  if (option.int) {
    return option.list ? positiveIntList(value, option.name, option.int) : positiveInt(value, option.name, option.int)
  }
  if (option.seconds) return seconds(value, option.name, option.seconds)
  if (option.parse) return option.parse(value)
  return option.list ? list(value, option.name) : String(value)
}

// Every option of a table, parsed: { camelName: value }.
export function parseOptions (table, argv) {
  return Object.fromEntries(table.map((option) => [camel(option.name), parseOption(option, argv)]))
}

export function optionNamed (table, name) {
  return table.find((option) => option.name === name)
}

// The options of a table that were given (not defaulted), by name.
export function givenOptions (table, argv, { matrix = false } = {}) {
  return table.filter((option) => (!matrix || option.matrix) && argv[camel(option.name)] != null && !(option.type === 'boolean' && argv[camel(option.name)] === false)).map((option) => option.name)
}

// A scenario group as the argv its options read: lists joined with commas, as typed.
export function scenarioArgv (table, group) {
  const argv = {}
  for (const option of table) {
    if (!option.scenario || group[option.scenario] === undefined) continue
    const value = group[option.scenario]
    argv[camel(option.name)] = Array.isArray(value) ? value.join(',') : value
  }
  return argv
}

// What the option takes, in a few words, for --help and the docs.
export function valuesText (option) {
  if (option.type === 'boolean') return 'on/off'
  if (option.takes) return option.takes
  const several = option.list ? 'comma list of ' : ''
  if (option.values) return `${several}${option.values.join(', ')}`
  if (option.int) {
    const { min = 1, max } = option.int
    return `${several}${option.list ? 'integers' : 'integer'} ${max == null ? `>= ${min}` : `${min} to ${max.toLocaleString('en-US')}`}`
  }
  if (option.seconds) return `seconds, ${option.seconds.allowZero ? '>= 0' : '> 0'}, at most ${MAX_SECONDS.toLocaleString('en-US')}`
  return option.list ? 'comma list' : ''
}

function defaultText (option) {
  if (option.defaultText) return option.defaultText
  if (option.type === 'boolean') return 'off'
  return option.default == null ? '' : String(option.default)
}

// yargs: every option of the table, with its values and default in its help line. Defaults are
// applied by parseOption, not by yargs, so that a given option can be told from a defaulted one.
export function addOptions (yargs, table) {
  for (const option of table) {
    const values = option.values || option.int || option.seconds ? ` (${valuesText(option)})` : ''
    const fallback = defaultText(option)
    yargs.option(option.name, {
      type: option.type ?? 'string',
      // A value is the next word, even one that starts with "-" (--shard -1/2): our parser says
      // what is wrong with it, where yargs would read it as options of its own (-1, -/, -2).
      ...(option.type === 'boolean' ? { default: false } : { nargs: 1 }),
      describe: `${option.describe[0].toUpperCase()}${option.describe.slice(1)}${values}${fallback && option.type !== 'boolean' ? ` [default: ${fallback}]` : ''}`
    })
  }
  return yargs
}

const cell = (text) => String(text).replace(/\|/g, '\\|')

// The markdown table of docs/cli.md for one command.
export function optionsMarkdown (table) {
  const rows = table.map((option) => `| \`--${option.name}\` | ${cell(option.default != null ? `\`${option.default}\`` : defaultText(option))} | ${cell(valuesText(option))} | ${option.scenario ? `\`${option.scenario}\`` : ''} | ${cell(option.describe)}${option.more ? ` ${cell(option.more)}` : ''} |`)
  return ['| option | default | values | scenario key | meaning |', '|---|---|---|---|---|', ...rows].join('\n')
}

// The JSON Schema of one option's value in a scenario group.
export function scenarioProperty (option) {
  const describe = { description: option.describe }
  const item = (() => {
    if (option.schema) return option.schema
    if (option.type === 'boolean') return { type: 'boolean' }
    if (option.values) return { enum: option.values }
    if (option.int) return { type: 'integer', minimum: option.int.min ?? 1, ...(option.int.max == null ? {} : { maximum: option.int.max }) }
    if (option.seconds) return { type: 'number', ...(option.seconds.allowZero ? { minimum: 0 } : { exclusiveMinimum: 0 }), maximum: MAX_SECONDS }
    return { type: 'string', minLength: 1 }
  })()
  if (!option.list || option.one) return { ...item, ...describe }
  return { type: 'array', minItems: 1, ...(option.values ? { uniqueItems: true } : {}), items: item, ...describe }
}

// The API's options (run(), http()): the option table's, each under its scenario key (libs,
// transports, events) or its camelCase name (pipeBytes, out), with the values the command line
// takes: a list as an array or a comma string, a number as a number or as typed. Options only a
// terminal needs (quiet) are the CLI's. Returns the argv the command line would give, so both go
// through parseOptions and its defaults alike. `signal` is the caller's AbortSignal, not an option.
export function argvFromApi (table, options, command) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new UsageError(`${command}() takes an options object, e.g. ${command}({ libs: ['pino'] })`)
  const keys = new Map()
  for (const option of table.filter((o) => !o.cliOnly)) {
    keys.set(camel(option.name), option)
    if (option.scenario) keys.set(option.scenario, option)
  }
  const argv = {}
  const givenAs = {}
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || key === 'signal') continue
    const option = keys.get(key)
    if (!option) throw new UsageError(`unknown option "${key}" for ${command}(): give one of ${[...new Set(keys.keys())].join(', ')}`)
    const name = camel(option.name)
    if (name in argv) throw new UsageError(`${givenAs[name]} and ${key} are one option (--${option.name}) for ${command}(): give it once`)
    givenAs[name] = key
    argv[name] = apiValue(option, key, value)
  }
  return argv
}

// Options that name a file or directory: a number there is a wrong type, not a file named "42".
const PATH_OPTIONS = new Set(['out', 'dir', 'cache', 'scenario', 'syslog-output', 'images', 'pages'])

function apiValue (option, key, value) {
  if (option.type === 'boolean') {
    if (typeof value !== 'boolean') throw new UsageError(`${key} must be true or false, got ${describeValue(value)}`)
    return value
  }
  if (PATH_OPTIONS.has(option.name) && typeof value !== 'string') throw new UsageError(`${key} must be a path (a string), got ${describeValue(value)}`)
  const scalar = (v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))
  if (Array.isArray(value)) {
    if (!option.list) throw new UsageError(`${key} takes one value, not a list (--${option.name}: ${valuesText(option) || 'a value'})`)
    if (!value.every(scalar)) throw new UsageError(`${key} must be a list of finite numbers or strings, got ${describeValue(value)}`)
    return value.join(',')
  }
  if (!scalar(value)) throw new UsageError(`${key} must be ${option.list ? 'a list (an array or a comma string)' : 'a finite number or a string'}, got ${describeValue(value)}`)
  return value
}

// The command line that gives the same options, for a results file's env.command.
export function commandLine (command, table, argv) {
  const words = [command]
  for (const option of table) {
    const value = argv[camel(option.name)]
    if (value == null || value === false) continue
    words.push(`--${option.name}`)
    if (value !== true) words.push(/^[\w@:.,/%+=-]+$/.test(String(value)) ? String(value) : JSON.stringify(String(value)))
  }
  return words.join(' ')
}

// The API's `signal` option: an AbortSignal, or nothing.
export function signalOption (options, command) {
  const signal = options?.signal ?? null
  if (signal !== null && !(signal instanceof AbortSignal)) throw new UsageError(`signal must be an AbortSignal (new AbortController().signal) for ${command}(), got ${typeof signal}`)
  return signal
}
