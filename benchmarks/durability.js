// npm run bench:durability -- [--libs raw,pino,pino:transport,winston,bunyan,log4js,logtape]
//                             [--transports console,file] [--endings exit,uncaught,sigterm,...]
//                             [--events 10000] [--against results/durability.json] [--quick] [--json]
//
// Is a loss the library's, or the harness's? Each cell runs the library's plain script
// (benchmarks/plain/<lib>.js: the same library, configuration and message as its adapter), ended
// the same way right after its last call (PLAIN_ENDING; see measure() in plain/common.js), its stdout
// piped to `cat > capture` as a shell would, or its file; then the distinct events in the capture
// are counted. With --against, each cell is set beside log-bench's own count of the same library,
// transport and ending (one worker) from that results file: they agree when both kept everything
// or both lost something in every run. A loss that is a race (a pipe that was full or not at the
// moment the process went) varies from run to run: each plain cell runs --repeat times (3), and
// where one side's runs both kept and lost, the cell is `racy` if the other side saw one of those
// outcomes too, else a disagreement. Exit code 1 on a disagreement, 2 on
// bad input. --quick: raw and pino, console and file, close, exit and sigkill, 2,000 events, once
// (a test runs it).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// A library as log-bench names it (name or name:variant) → its plain script.
const PLAIN = { raw: 'raw', pino: 'pino', 'pino:transport': 'pino-transport', winston: 'winston', bunyan: 'bunyan', log4js: 'log4js', logtape: 'logtape' }
const ENDINGS = ['close', 'return', 'exit', 'uncaught', 'sigterm', 'sigterm-recipe', 'sigkill']
const TRANSPORTS = ['console', 'file']

function fail (message) {
  process.stderr.write(`bench:durability: ${message}\n`)
  process.exit(2)
}

let values
try {
  ({ values } = parseArgs({
    options: {
      libs: { type: 'string', default: Object.keys(PLAIN).join(',') },
      transports: { type: 'string', default: TRANSPORTS.join(',') },
      endings: { type: 'string', default: ENDINGS.join(',') },
      events: { type: 'string' },
      repeat: { type: 'string', default: '3' },
      against: { type: 'string' },
      quick: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false }
    }
  }))
} catch (err) {
  fail(err.message)
}
if (values.quick) Object.assign(values, { libs: 'raw,pino', transports: 'console,file', endings: 'close,exit,sigkill', events: values.events ?? '2000', repeat: '1' })
const repeat = Number(values.repeat)
if (!Number.isSafeInteger(repeat) || repeat < 1 || repeat > 100) fail(`--repeat must be a whole number from 1 to 100, got "${values.repeat}"`)
const libs = values.libs.split(',')
const transports = values.transports.split(',')
const endings = values.endings.split(',')
for (const lib of libs) if (!Object.hasOwn(PLAIN, lib)) fail(`--libs: no plain script for "${lib}" (have: ${Object.keys(PLAIN).join(', ')})`)
for (const t of transports) if (!TRANSPORTS.includes(t)) fail(`--transports: "${t}" is not console or file (the plain scripts write to those only)`)
for (const e of endings) if (!ENDINGS.includes(e)) fail(`--endings: "${e}" is not one of ${ENDINGS.join(', ')}`)
const against = values.against ? readAgainst(values.against) : null
const events = Number(values.events ?? against?.events ?? 10000)
if (!Number.isSafeInteger(events) || events < 1) fail(`--events must be a whole number >= 1, got "${values.events}"`)

// log-bench's runs of one worker from a results file, by library, transport and ending.
function readAgainst (file) {
  let doc
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    fail(`--against ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message.split('\n')[0]}`)
  }
  // Read at full speed only: a slowed receiving end is not what the plain scripts' `| cat` is.
  const runs = (Array.isArray(doc?.runs) ? doc.runs : []).filter((r) => r && r.ok && r.cpus === 1 && (r.type ?? 'run') === 'run' && r.received != null && r.receiverRate == null && r.receiverStallMs == null)
  if (!runs.length) fail(`--against ${file}: no finished one-worker run with counts`)
  return { runs, events: runs[0].events }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'log-bench-durability-'))
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }))
process.on('SIGINT', () => process.exit(130))

const quote = (text) => `'${String(text).replaceAll("'", "'\\''")}'`

// Runs one plain script ended by `ending`; returns the distinct events that arrived and how it ended.
function plainRun (lib, transport, ending) {
  const script = path.join(root, 'benchmarks', 'plain', `${PLAIN[lib]}.js`)
  const capture = path.join(work, `${PLAIN[lib]}-${transport}-${ending}.log`)
  const status = path.join(work, 'status')
  fs.rmSync(capture, { force: true })
  // The console as a shell pipes it (`node app.js | cat > capture`); the script's own status is kept.
  const run = transport === 'console'
    ? `{ ${quote(process.execPath)} ${quote(script)} console ${events}; echo $? > ${quote(status)}; } | cat > ${quote(capture)}`
    : `${quote(process.execPath)} ${quote(script)} file ${events} ${quote(capture)}; echo $? > ${quote(status)}`
  const result = spawnSync('/bin/sh', ['-c', run], { cwd: root, env: { ...process.env, PLAIN_ENDING: ending }, stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 })
  if (result.error) fail(`${lib} ${transport} ${ending}: ${result.error.message}`)
  const code = Number(fs.readFileSync(status, 'utf8').trim())
  return { kept: countEvents(capture), exit: code > 128 ? `signal ${code - 128}` : `code ${code}` }
}

// Distinct events "w0 <seq>: Hello, world!" in the capture, whatever the library wrapped them in.
function countEvents (file) {
  let text = ''
  try { text = fs.readFileSync(file, 'utf8') } catch {}
  const seen = new Set()
  for (const match of text.matchAll(/w0 (\d+): Hello, world!/g)) {
    const seq = Number(match[1])
    if (seq < events) seen.add(seq)
  }
  return seen.size
}

function harnessKept (lib, transport, ending) {
  const [name, variant = 'default'] = lib.split(':')
  const runs = against.runs.filter((r) => r.lib === name && (r.variant ?? 'default') === variant && r.transport === transport && (r.ending ?? 'close') === ending)
  if (!runs.length) return null
  return { kept: runs.map((r) => r.received), lost: runs.map((r) => r.received < r.sent), sent: runs[0].sent }
}

// Whether the two sides saw the same outcomes (lost something, or not) across their runs.
function verdictOf (plainLost, harnessLost) {
  const plain = new Set(plainLost)
  const harness = new Set(harnessLost)
  if (plain.size === harness.size && [...plain].every((l) => harness.has(l))) return 'agree'
  return [...plain].some((l) => harness.has(l)) ? 'racy' : 'DISAGREE'
}

const rows = []
for (const transport of transports) {
  for (const lib of libs) {
    for (const ending of endings) {
      const plain = Array.from({ length: repeat }, () => plainRun(lib, transport, ending))
      const lost = plain.map((p) => p.kept < events)
      const harness = against ? harnessKept(lib, transport, ending) : null
      const verdict = harness == null ? null : verdictOf(lost, harness.lost)
      const plainKept = plain.map((p) => p.kept)
      rows.push({
        lib,
        transport,
        ending,
        events,
        plainKept,
        plainExits: plain.map((p) => p.exit),
        harnessKept: harness?.kept ?? null,
        harnessSent: harness?.sent ?? null,
        verdict
      })
      if (!values.json) process.stdout.write(`${lib.padEnd(15)} ${transport.padEnd(8)} ${ending.padEnd(15)} plain kept ${plainKept.join(', ')} of ${events} (${[...new Set(plain.map((p) => p.exit))].join(', ')})${harness ? `   log-bench kept ${harness.kept.join(', ')} of ${harness.sent}: ${verdict}` : against ? '   log-bench: no such run' : ''}\n`)
    }
  }
}
if (values.json) process.stdout.write(JSON.stringify({ events, rows }, null, 2) + '\n')
process.exitCode = rows.some((r) => r.verdict === 'DISAGREE') ? 1 : 0
