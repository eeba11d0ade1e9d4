import fs from 'node:fs'
import * as run from './run.js'
import * as list from './list.js'
import * as http from './http.js'
import * as report from './report.js'
import * as compare from './compare.js'
import * as merge from './merge.js'
import * as sink from './sink.js'
import { refuseRepeatedOptions } from '../api/validate.js'
import { helpColumns } from './help.js'

// The commands, in the order the help lists them, and the command line yargs parses them with. The
// help (src/cli/help.js) is written from the same modules without yargs; test/help.test.js checks
// that the two print the same text.
export const COMMANDS = [run, list, http, report, compare, merge, sink]
export const COMMAND_NAMES = COMMANDS.map((c) => c.command.split(' ')[0])

export const EPILOGUE = 'Exit codes: 0 finished (failed runs are results, recorded in the JSON), 1 harness error, 2 bad input, 3 compare --fail-on found a verdict it names, 130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 129 hung up (SIGHUP), 131 SIGQUIT: the runs so far are saved.'

// log-bench's own version: yargs alone would read the package.json nearest to where it runs, which
// from an installed copy is the user's project's.
export const { version: VERSION } = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

// yargs, set up for these words; `onFail(msg, err)` gets its failures (bad input it found).
export async function yargsCli (words, { columns, onFail }) {
  const { default: yargs } = await import('yargs')
  const cli = yargs(words).scriptName('log-bench')
  for (const command of COMMANDS) cli.command(command)
  // After a command's handler, yargs 18 lays out that command's whole help (command.js calls
  // usage.cacheHelpMessage) in case a failure shows it; log-bench never shows yargs' help (onFail,
  // src/cli/help.js), so that layout is about 0.35 s of CPU in every command for nothing. yargs has no
  // public switch for it; test/help.test.js fails if an upgrade lays it out again.
  cli.getInternalMethods().getUsageInstance().cacheHelpMessage = () => {}
  return cli
    .middleware((argv) => refuseRepeatedOptions(argv))
    .demandCommand(1, `give a command: ${COMMAND_NAMES.slice(0, -1).join(', ')} or ${COMMAND_NAMES.at(-1)} (log-bench --help says what each does)`)
    .strict()
    .fail(onFail)
    .epilogue(EPILOGUE)
    .wrap(helpColumns(columns))
    .help()
    .version(VERSION)
}
