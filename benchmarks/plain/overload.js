// node benchmarks/plain/overload.js [--libs pino,pino:sync,winston] [--events 100000] [--size 200]
//                                   [--stall 2000] [--rounds 3] [--quick]
//
// The latency page's overload verdicts, checked without log-bench: each library's plain script
// (benchmarks/plain/<lib>.js, console) writes --events lines of --size bytes to a pipe this script
// reads; in the stalled run the reader stops reading for --stall ms once a tenth of the lines
// arrived (the kernel's 64 KiB pipe buffer then fills), as log-bench's console reader does under
// --receiver-stall. Each round runs the control (the reader at full speed) and the stalled run, the
// order alternating by round. Printed per library, medians over the rounds: the loop's time
// (first call to last return) in each, what the stall added to it, the child's peak RSS in each and
// the growth the stall added, and the lines lost. Read as log-bench's rules read them
// (docs/costs.md, Overload): the stall's added loop time near the stall is a logger that waited
// (blocks); added peak RSS with nothing lost is one that queued (grows); lines lost, one that dropped.
// pino:sync is pino's plain script with PLAIN_PINO_SYNC=1 (pino.destination({ dest: 1, sync: true })).
// --quick: raw and pino, 2,000 lines, a 200 ms stall, one round: checks every step (CI), not a figure.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { formatNumber as fmt } from '../../src/format.js'
import { median } from '../../src/stats.js'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const SCRIPTS = { log4js: 'log4js', winston: 'winston', bunyan: 'bunyan', pino: 'pino', 'pino:sync': 'pino', 'pino:transport': 'pino-transport', raw: 'raw' }

function fail (message) {
  process.stderr.write(`bench overload: ${message}\n`)
  process.exit(2)
}

let values
try {
  ({ values } = parseArgs({
    options: {
      libs: { type: 'string' },
      events: { type: 'string' },
      size: { type: 'string' },
      stall: { type: 'string' },
      rounds: { type: 'string' },
      quick: { type: 'boolean', default: false }
    }
  }))
} catch (err) {
  fail(`${err.message} (options: --libs --events --size --stall --rounds --quick)`)
}
const quick = values.quick
const libs = (values.libs ?? (quick ? 'raw,pino' : 'log4js,winston,bunyan,pino,pino:sync,pino:transport,raw')).split(',')
for (const lib of libs) if (!SCRIPTS[lib]) fail(`--libs: no plain script for "${lib}" (one of ${Object.keys(SCRIPTS).join(', ')})`)
const whole = (name, text, fallback, min) => {
  if (text == null) return fallback
  const n = Number(text)
  if (!Number.isSafeInteger(n) || n < min) fail(`--${name} must be a whole number of at least ${min}, not "${text}"`)
  return n
}
const events = whole('events', values.events, quick ? 2000 : 100000, 10)
const size = whole('size', values.size, 200, 1)
const stallMs = whole('stall', values.stall, quick ? 200 : 2000, 1)
const rounds = whole('rounds', values.rounds, quick ? 1 : 3, 1)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-bench-overload-'))
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }))
let runs = 0

// One run: the plain script's figures (its stderr's JSON line), the lines this end read, and the
// time the reader stalled.
function once (lib, stalled) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, PLAIN_PAYLOAD_BYTES: String(size) }
    if (lib === 'pino:sync') env.PLAIN_PINO_SYNC = '1'
    // A FIFO, not spawn's socket pair: a pipe's 64 KiB buffer, as a shell pipe and log-bench's
    // console reader have (a socket pair buffers several times that).
    const fifo = path.join(dir, `${runs++}.fifo`)
    execFileSync('mkfifo', [fifo])
    const readFd = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK)
    const writeFd = fs.openSync(fifo, fs.constants.O_WRONLY)
    const child = spawn(process.execPath, [path.join(HERE, `${SCRIPTS[lib]}.js`), 'console', String(events)], { env, stdio: ['ignore', writeFd, 'pipe'] })
    fs.closeSync(writeFd)
    const stdout = new net.Socket({ fd: readFd, readable: true, writable: false })
    let lines = 0
    let stalledAt = null
    let stderr = ''
    child.stderr.on('data', (chunk) => { stderr += chunk })
    stdout.on('data', (chunk) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
      if (stalled && stalledAt == null && lines >= Math.ceil(events / 10)) {
        stalledAt = Date.now()
        stdout.pause()
        setTimeout(() => stdout.resume(), stallMs)
      }
    })
    child.on('error', reject)
    let exited = null
    let ended = false
    stdout.on('end', () => { ended = true; if (exited) settle(exited.code) })
    child.on('close', (code) => { exited = { code }; if (ended) settle(code) })
    function settle (code) {
      fs.rmSync(fifo, { force: true })
      const line = stderr.trim().split('\n').pop()
      if (code !== 0) return reject(new Error(`${lib}: its plain script exited ${code}: ${stderr.trim().slice(-300)}`))
      let figures
      try {
        figures = JSON.parse(line)
      } catch {
        return reject(new Error(`${lib}: its plain script printed no figures: ${stderr.trim().slice(-300)}`))
      }
      resolve({ ...figures, lines })
    }
  })
}

process.stderr.write(`bench overload: ${libs.join(', ')}; ${fmt(events)} lines of ${size} B to a pipe, the reader stalled ${fmt(stallMs)} ms after a tenth; ${rounds} round(s)${quick ? ' (--quick: checks every step, not a figure)' : ''}\n`)
const rows = []
for (const lib of libs) {
  const control = []
  const stalled = []
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [true, false] : [false, true]
    for (const stall of order) (stall ? stalled : control).push(await once(lib, stall))
  }
  const loop = (runs) => median(runs.map((r) => r.loopReturnedMs))
  const rss = (runs) => median(runs.map((r) => r.maxRssKiB / 1024))
  const lost = median(stalled.map((r) => events - r.lines))
  rows.push(`| ${lib} | ${fmt(loop(control))} | ${fmt(loop(stalled))} | ${fmt(loop(stalled) - loop(control))} | ${fmt(rss(control), 1)} | ${fmt(rss(stalled), 1)} | ${fmt(rss(stalled) - rss(control), 1)} | ${fmt(lost)} |`)
  process.stderr.write(`bench overload: ${lib} done\n`)
}
process.stdout.write([
  `Plain scripts, ${fmt(events)} lines of ${size} B to a pipe; the stalled reader stops for ${fmt(stallMs)} ms after a tenth arrived; medians of ${rounds} round(s), each control and stalled:`,
  '',
  '| library | loop ms, control | loop ms, stalled | added by the stall | peak RSS MiB, control | peak RSS MiB, stalled | added MiB | lines lost |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows
].join('\n') + '\n')
