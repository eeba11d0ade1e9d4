// log-bench's --help, written from the same option tables and command modules that yargs is built
// from, without loading yargs. yargs lays its help out with cliui, whose string-width segments every
// character of every help word into graphemes and tests each against an emoji regular expression
// built anew per character: `run --help` spent about 290 ms of its CPU there (a bare node starts in
// about 140). The layout here is yargs': usage, description, commands or positionals, options with
// their type right-aligned, examples in two columns, the epilogue at the top level. Widths are
// terminal columns (displayWidth, src/draw/width.js, the measure of every table too); the help is all
// printable ASCII, which string-width measures without segmenting.
import { displayUnits, displayWidth, MIN_WIDTH } from '../draw/width.js'
import { maxOf } from '../stats.js'

// What a command's builder declares, recorded by a stand-in for yargs: the builders call only
// option(), positional() and example().
export function declaredBy (builder) {
  const declared = { options: [], positionals: [], examples: [] }
  const recorder = {
    option (name, spec) { declared.options.push({ name, ...spec }); return recorder },
    positional (name, spec) { declared.positionals.push({ name, ...spec }); return recorder },
    example (command, describe) { declared.examples.push([command, describe]); return recorder }
  }
  builder?.(recorder)
  return declared
}

const width = displayWidth

// The help's line width: the terminal's ($COLUMNS first, as for the tables), at most 110 characters,
// and never below the tables' 40: narrower, a key and its description have no room beside each other
// (yargs is given the same: commands.js). Where the width is unknown (piped, no $COLUMNS): 80, the
// width a pager, a mail or an issue shows without wrapping.
export const UNKNOWN_HELP_COLUMNS = 80
export const helpColumns = (columns) => Math.min(110, Math.max(MIN_WIDTH, columns || UNKNOWN_HELP_COLUMNS))

// Lines of at most `columns` characters, wrapped as cliui wraps them (wrap-ansi's hard mode): words
// go on a line while they fit; a word longer than a line fills the rest of the current one (or starts
// the next, where that takes fewer breaks) and is cut at the width.
export function wrap (text, columns) {
  return String(text).split('\n').flatMap((line) => wrapLine(line, columns))
}

function wrapLine (line, columns) {
  if (line.trim() === '') return ['']
  const rows = ['']
  for (const [index, word] of line.split(' ').entries()) {
    rows[rows.length - 1] = rows.at(-1).trimStart()
    let rowLength = width(rows.at(-1))
    if (index !== 0 && rowLength > 0) {
      rows[rows.length - 1] += ' '
      rowLength++
    }
    const length = width(word)
    if (length > columns) {
      const breaksStartingHere = 1 + Math.floor((length - (columns - rowLength) - 1) / columns)
      if (Math.floor((length - 1) / columns) < breaksStartingHere) rows.push('')
      let visible = width(rows.at(-1))
      const units = displayUnits(word)
      for (const [at, unit] of units.entries()) {
        if (visible + unit.width <= columns) rows[rows.length - 1] += unit.text
        else {
          rows.push(unit.text)
          visible = 0
        }
        visible += unit.width
        if (visible >= columns && at < units.length - 1) {
          rows.push('')
          visible = 0
        }
      }
      continue
    }
    if (rowLength + length > columns && rowLength > 0 && length > 0) rows.push('')
    rows[rows.length - 1] += word
  }
  return rows.map((row) => row.replace(/ +$/, ''))
}

const pad = (text, columns) => text + ' '.repeat(Math.max(0, columns - width(text)))

// Rows of (key, description, tags): the key in a column as wide as the widest key (at most half the
// line) plus 2 spaces either side, the description wrapped beside it, the tags right-aligned on its
// last line when they fit there (even with no space between), else on a line of their own.
function table (rows, total) {
  const keyColumn = Math.min(Math.floor(total / 2), maxOf(rows.map(([key]) => width(key)))) + 4
  const out = []
  for (const [key, describe, tags] of rows) {
    if (!describe && !tags) {
      out.push(...wrap(key, total - 4).map((line) => `  ${line}`))
      continue
    }
    const keyLines = wrap(key, keyColumn - 4)
    const textLines = describe ? wrap(describe, total - keyColumn) : []
    const lines = []
    for (let i = 0; i < Math.max(keyLines.length, textLines.length); i++) {
      lines.push(`${pad(`  ${keyLines[i] ?? ''}`, keyColumn)}${textLines[i] ?? ''}`.trimEnd())
    }
    if (tags) {
      const last = lines.at(-1)
      if (width(last) + width(tags) <= total) lines[lines.length - 1] = `${last}${' '.repeat(total - width(last) - width(tags))}${tags}`
      else lines.push(`${' '.repeat(Math.max(0, total - width(tags)))}${tags}`)
    }
    out.push(...lines)
  }
  return out
}

const HELP = ['--help', 'Show help', '[boolean]']
const VERSION = ['--version', 'Show version number', '[boolean]']

function optionRow ({ name, type = 'string', describe, default: fallback }) {
  const tags = [`[${type}]`, ...(fallback !== undefined ? [`[default: ${JSON.stringify(fallback)}]`] : [])]
  return [`--${name}`, describe, tags.join(' ')]
}

// `report [files..]`: files is optional and a list; `compare <base> [new]`: base is required.
function positionalRow (commandLine, { name, type = 'string', describe }) {
  const variadic = new RegExp(`[<[]${name}\\.\\.[\\]>]`).test(commandLine)
  const required = new RegExp(`<${name}(\\.\\.)?>`).test(commandLine)
  const tags = [variadic ? '[array]' : `[${type}]`, ...(required ? ['[required]'] : []), ...(variadic ? ['[default: []]'] : [])]
  return [name, describe, tags.join(' ')]
}

const section = (title, lines) => (lines.length ? ['', `${title}:`, ...lines] : [])

// The help of one command (a module of src/cli/), as yargs would print it.
export function commandHelp (commandModule, { scriptName = 'log-bench', columns } = {}) {
  const total = helpColumns(columns)
  const { options, positionals, examples } = declaredBy(commandModule.builder)
  const example = (line) => line.replace(/^\$0\b/, scriptName)
  return [
    `${scriptName} ${commandModule.command}`,
    '',
    ...wrap(commandModule.describe, total),
    ...section('Positionals', table(positionals.map((p) => positionalRow(commandModule.command, p)), total)),
    ...section('Options', table([HELP, VERSION, ...options.map(optionRow)], total)),
    ...section('Examples', table(examples.map(([command, describe]) => [example(command), describe, '']), total))
  ].join('\n') + '\n'
}

// The top-level help: every command and what it does, then the exit codes.
export function topHelp (commandModules, { scriptName = 'log-bench', columns, epilogue } = {}) {
  const total = helpColumns(columns)
  return [
    `${scriptName} <command>`,
    ...section('Commands', table(commandModules.map((c) => [`${scriptName} ${c.command}`, c.describe, '']), total)),
    ...section('Options', table([HELP, VERSION], total)),
    ...(epilogue ? ['', ...wrap(epilogue, total)] : [])
  ].join('\n') + '\n'
}

// Which help the words after `log-bench` ask for: { command } (a module), { top: true }, or null when
// they do not ask for help (or ask in a way only yargs can judge: an unknown command). `--help` (or
// `--help=true`) counts before `--` only, and not where it is the value of an option that takes one
// (`--out --help`).
export function helpRequested (words, commandModules) {
  const end = words.indexOf('--')
  const given = end === -1 ? words : words.slice(0, end)
  const first = given.findIndex((word) => !word.startsWith('-'))
  const command = first === -1 ? null : commandModules.find((c) => c.command.split(' ')[0] === given[first])
  if (first !== -1 && !command) return null
  const takesValue = new Set(command ? declaredBy(command.builder).options.filter((o) => o.type !== 'boolean').map((o) => `--${o.name}`) : [])
  for (let i = 0; i < given.length; i++) {
    if (given[i] === '--help' || /^--help=(?!false$|0$)/.test(given[i])) return command ? { command } : { top: true }
    if (takesValue.has(given[i])) i++
  }
  return null
}
