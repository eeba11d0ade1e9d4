import { EXIT, UsageError } from '../errors.js'
import { visibleControls } from '../escape.js'
import { listWords } from '../format.js'
import { terminalColumns } from '../draw/width.js'
import { commandHelp, declaredBy, helpRequested, topHelp } from './help.js'
import { COMMAND_NAMES, COMMANDS, EPILOGUE, yargsCli } from './commands.js'

// A reader that stops reading (`log-bench run | head -1`, a closed terminal) ends our output there,
// quietly: the work goes on and the results file is still written whole. Writes to a closed pipe
// fail with EPIPE (node ignores SIGPIPE), and a hung-up terminal with EIO.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE' && err.code !== 'EIO') fail(err)
  })
}

// Node's advice on an ES module loaded as CommonJS would come before log-bench's own line for
// that adapter (src/loggers/index.js), in other words: every other warning is printed as before.
const printWarning = process.listeners('warning')
process.removeAllListeners('warning')
process.on('warning', (warning) => {
  if (!String(warning?.message).startsWith('To load an ES module')) for (const print of printWarning) print(warning)
})

// Bad input: one line on stderr (and its hint, if any, on a second), exit 2. Anything else
// unexpected is a harness bug: exit 1.
function fail (err) {
  if (err instanceof UsageError) {
    // One line each, whatever a name in them holds: their controls and newlines are shown, never sent.
    for (const line of [err.message, err.hint].filter((text) => text != null)) process.stderr.write(`log-bench: ${visibleControls(line).replace(/\n/g, '\\n')}\n`)
    process.exit(EXIT.USAGE)
  }
  process.stderr.write(`log-bench: internal error: ${err?.stack ?? err}\n`)
  process.exit(EXIT.HARNESS_ERROR)
}

function usageMessage (msg) {
  const unknown = /^Unknown arguments?: (.*)$/.exec(msg.split('\n')[0])
  if (unknown) return `unknown option or command: ${unknown[1]} (see log-bench --help, or log-bench <command> --help)`
  const valueless = /^Not enough arguments following: (.*)$/.exec(msg.split('\n')[0])
  if (valueless) return `--${valueless[1]} needs a value after it (see log-bench <command> --help)`
  // merge <files..> and compare <base> given no file: say what to give (the commands with positionals
  // take results files).
  const fileless = /^Not enough non-option arguments: got (\d+), need at least (\d+)$/.exec(msg.split('\n')[0])
  if (fileless) {
    const name = words.find((word) => COMMAND_NAMES.includes(word)) ?? '<command>'
    const need = Number(fileless[2])
    return `log-bench ${name} needs at least ${need} results file${need === 1 ? '' : 's'} (JSON from log-bench run or http) after it, got ${fileless[1]} (see log-bench ${name} --help)`
  }
  if (msg.startsWith('give a command')) return commandlessMessage(msg)
  return msg.split('\n')[0]
}

// Options with no command (log-bench --lib pino, log-bench --bogus): the first option is named, with
// the commands that take it, or as taken by none.
function commandlessMessage (msg) {
  const end = words.indexOf('--')
  const option = (end === -1 ? words : words.slice(0, end)).find((word) => word.startsWith('-'))
  if (option == null) return msg
  const given = option.split('=')[0]
  const name = given.replace(/^-+/, '')
  const takers = COMMAND_NAMES.filter((_, i) => declaredBy(COMMANDS[i].builder).options
    .some((o) => [o.name, `no-${o.name}`, ...[o.alias ?? []].flat()].includes(name)))
  if (takers.length === 0) return `unknown option ${given}, and no command: ${msg}`
  return `${given} is an option of log-bench ${listWords(takers)}, not of log-bench alone: put the command first (log-bench ${takers[0]} ${given} …; log-bench --help says what each command does)`
}

const HELP_WIDTH = { columns: terminalColumns(process.stdout), epilogue: EPILOGUE }

// --help is written here, from the command modules, without loading yargs (src/cli/help.js says why);
// so is log-bench alone (the commands, on stderr, exit 2 as for any missing command).
const words = process.argv.slice(2)
const help = words.length === 0 ? { top: true, alone: true } : helpRequested(words, COMMANDS)
if (help?.alone) {
  process.stderr.write(topHelp(COMMANDS, HELP_WIDTH))
  process.exit(EXIT.USAGE)
}
if (help) {
  process.stdout.write(help.top ? topHelp(COMMANDS, HELP_WIDTH) : commandHelp(help.command, HELP_WIDTH))
} else {
  try {
    const cli = await yargsCli(words, {
      columns: HELP_WIDTH.columns,
      // yargs' own checks (a value missing after an option) come as a YError: bad input too.
      onFail: (msg, err) => { throw err && err.name !== 'YError' ? err : new UsageError(usageMessage(msg ?? err.message)) }
    })
    await cli.parseAsync()
  } catch (err) {
    fail(err)
  }
}
