import fs from 'node:fs'
import yargs from 'yargs'
import { hideBin } from 'yargs/helpers'
import { EXIT, UsageError } from '../errors.js'
import * as run from './run.js'
import * as list from './list.js'
import * as http from './http.js'
import * as report from './report.js'
import * as compare from './compare.js'
import * as merge from './merge.js'
import * as sink from './sink.js'
import { refuseRepeatedOptions } from '../api/validate.js'
import { visibleControls } from '../escape.js'

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
  return msg.split('\n')[0]
}

// log-bench's own version: yargs alone would read the package.json nearest to where it runs, which
// from an installed copy is the user's project's.
const { version } = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

const COMMANDS = [run, list, http, report, compare, merge, sink]
const commandNames = COMMANDS.map((c) => c.command.split(' ')[0])

try {
  const cli = yargs(hideBin(process.argv)).scriptName('log-bench')
  for (const command of COMMANDS) cli.command(command)
  await cli
    .middleware((argv) => refuseRepeatedOptions(argv))
    .demandCommand(1, `give a command: ${commandNames.slice(0, -1).join(', ')} or ${commandNames.at(-1)} (log-bench --help says what each does)`)
    .strict()
    .fail((msg, err, y) => {
      // log-bench alone: the commands and what each does, then exit 2 as for any missing command.
      if (!err && process.argv.length <= 2) {
        y.showHelp((text) => process.stderr.write(`${text}\n`))
        process.exit(EXIT.USAGE)
      }
      // yargs' own checks (a value missing after an option) come as a YError: bad input too.
      throw err && err.name !== 'YError' ? err : new UsageError(usageMessage(msg ?? err.message))
    })
    .epilogue('Exit codes: 0 finished (failed runs are results, recorded in the JSON), 1 harness error, 2 bad input, 3 compare --fail-on found a verdict it names, 130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 129 hung up (SIGHUP), 131 SIGQUIT: the runs so far are saved.')
    .wrap(Math.min(110, process.stdout.columns || 110))
    .help()
    .version(version)
    .parseAsync()
} catch (err) {
  fail(err)
}
