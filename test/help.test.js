import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import stringWidth from 'string-width'
import { COMMANDS, EPILOGUE, yargsCli } from '../src/cli/commands.js'
import { commandHelp, helpRequested, topHelp, wrap } from '../src/cli/help.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

// What yargs itself prints for these words (its help, captured instead of printed).
async function yargsHelp (words, columns) {
  const cli = await yargsCli(words, { columns, onFail: (msg, err) => { throw err ?? new Error(msg) } })
  return await new Promise((resolve, reject) => {
    cli.exitProcess(false).parse(words, {}, (err, argv, output) => (err ? reject(err) : resolve(`${output}\n`)))
  })
}

test('--help as log-bench writes it is, word for word, the help yargs prints, at 110, 80, 60 and 40 columns', async () => {
  for (const columns of [110, 80, 60, 40]) {
    assert.equal(topHelp(COMMANDS, { columns, epilogue: EPILOGUE }), await yargsHelp(['--help'], columns), `log-bench --help at ${columns} columns`)
    for (const command of COMMANDS) {
      const name = command.command.split(' ')[0]
      assert.equal(commandHelp(command, { columns }), await yargsHelp([name, '--help'], columns), `log-bench ${name} --help at ${columns} columns`)
    }
  }
})

test('every character of the help is one column wide, so that counting code points lays it out', () => {
  for (const text of [topHelp(COMMANDS, { epilogue: EPILOGUE }), ...COMMANDS.map((c) => commandHelp(c))]) {
    for (const line of text.split('\n')) assert.equal([...line].length, stringWidth(line), line)
  }
})

test('words are wrapped at the width, and a word longer than a line is cut', () => {
  assert.deepEqual(wrap('aa bb cc', 5), ['aa bb', 'cc'])
  assert.deepEqual(wrap('abcdefgh ij', 3), ['abc', 'def', 'gh', 'ij'])
  assert.deepEqual(wrap('one\ntwo', 10), ['one', 'two'])
})

test('which help the words ask for: --help before --, not as the value of an option', () => {
  const named = (words) => {
    const help = helpRequested(words, COMMANDS)
    return help && (help.top ? 'top' : help.command.command.split(' ')[0])
  }
  assert.equal(named(['--help']), 'top')
  assert.equal(named(['run', '--help']), 'run')
  assert.equal(named(['--help', 'run']), 'run')
  assert.equal(named(['run', '--lib', 'pino', '--help']), 'run')
  assert.equal(named(['compare', 'a.json', '--help']), 'compare')
  assert.equal(named(['run', '--help=true']), 'run')
  assert.equal(named(['run', '--out', '--help']), null, '--out takes --help as its value: yargs judges it')
  assert.equal(named(['run', '--', '--help']), null)
  assert.equal(named(['run', '--help=false']), null)
  assert.equal(named(['run', '--quiet']), null)
  assert.equal(named(['bogus', '--help']), null, 'an unknown command is for yargs to refuse')
})

test('log-bench run --help and log-bench alone answer from the command line without yargs', () => {
  const bin = path.join(ROOT, 'bin', 'log-bench.js')
  assert.match(execFileSync(process.execPath, [bin, 'run', '--help'], { encoding: 'utf8' }), /^log-bench run\n\nTime loggers/)
  let alone
  try { execFileSync(process.execPath, [bin], { encoding: 'utf8', stdio: 'pipe' }) } catch (err) { alone = err }
  assert.equal(alone.status, 2)
  assert.equal(alone.stdout, '')
  assert.match(alone.stderr, /^log-bench <command>\n\nCommands:\n {2}log-bench run /)
})

test('--help piped without $COLUMNS is 80 columns wide (the width is unknown); $COLUMNS still sets it', () => {
  const env = { ...process.env }
  delete env.COLUMNS
  const help = (args, extra = {}) => execFileSync(process.execPath, [path.join(ROOT, 'bin', 'log-bench.js'), ...args], { cwd: ROOT, env: { ...env, ...extra }, encoding: 'utf8' })
  for (const args of [['--help'], ['run', '--help']]) {
    const widths = help(args).split('\n').map((line) => stringWidth(line))
    assert.equal(Math.max(...widths), 80, `log-bench ${args.join(' ')}`)
  }
  assert.ok(Math.max(...help(['run', '--help'], { COLUMNS: '100' }).split('\n').map((line) => stringWidth(line))) > 80)
})

test('a command run through yargs leaves yargs\' help of it unlaid: log-bench never shows it, and laying it out cost every command about 0.35 s of CPU', async () => {
  const words = ['merge', 'a.json', 'b.json']
  const onFail = (msg, err) => { throw err ?? new Error(msg) }
  const helpLaidOut = async (cli) => {
    await assert.rejects(cli.exitProcess(false).parseAsync(), /merge needs --out/)
    return cli.getInternalMethods().getUsageInstance().hasCachedHelpMessage()
  }
  // yargs as it comes lays the help out after the handler: what this test looks for is there to see.
  const { default: yargs } = await import('yargs')
  assert.equal(await helpLaidOut(yargs(words).command(COMMANDS.find((c) => c.command.startsWith('merge '))).fail(onFail)), true)
  assert.equal(await helpLaidOut(await yargsCli(words, { columns: 80, onFail })), false)
})
