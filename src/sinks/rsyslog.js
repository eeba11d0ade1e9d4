import { execFile, spawnSync } from 'node:child_process'
import dgram from 'node:dgram'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { signalGroup } from '../engine/children.js'
import { spawnSupervised } from './supervisor.js'
import { LineSplitter } from './verifier.js'
import { isExecutable } from '../engine/executable.js'

// A real rsyslogd, started by the harness in the foreground with a configuration of its own
// (never the system's): imudp/imtcp on 127.0.0.1, every received message written verbatim
// (%rawmsg%) as one line to a file, impstats for its own counters. Everything lives in `dir`.

const READY_TIMEOUT_MS = 10_000
const PROBE_INTERVAL_MS = 100
const STOP_GRACE_MS = 5_000
const STDERR_TAIL_BYTES = 4096
export const PROBE_TEXT = 'log-bench-probe'
export const INSTALL_HINT = 'install it with `apt-get install rsyslog` (Debian/Ubuntu), or run rsyslog in Docker (see docs/syslog.md)'

// The binary: LOG_BENCH_RSYSLOGD if set, else rsyslogd on PATH or in the sbin directories
// (often not on a normal user's PATH). Returns null when there is none.
export function findRsyslogd (env = process.env) {
  if (env.LOG_BENCH_RSYSLOGD) return isExecutable(env.LOG_BENCH_RSYSLOGD) ? env.LOG_BENCH_RSYSLOGD : null
  const dirs = [...(env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/sbin', '/sbin', '/usr/local/sbin']
  for (const dir of dirs) {
    const candidate = path.join(dir, 'rsyslogd')
    if (isExecutable(candidate)) return candidate
  }
  return null
}

export function requireRsyslogd (env = process.env) {
  const binary = findRsyslogd(env)
  if (binary !== null) return binary
  if (env.LOG_BENCH_RSYSLOGD) throw new UsageError(`LOG_BENCH_RSYSLOGD=${env.LOG_BENCH_RSYSLOGD} is not an executable file: point it at rsyslogd, or unset it to use the rsyslogd on PATH`)
  throw new UsageError(`rsyslogd not found: ${INSTALL_HINT}`)
}

// A path as a RainerScript string constant: inside double quotes a backslash escapes the next
// character, so `"` and `\` are escaped and nothing in a directory's name can end the string or add a
// directive. Control characters (a newline) have no place in a configuration line: refused.
export function rsyslogString (value) {
  const text = String(value)
  if (/[\x00-\x1f\x7f]/.test(text)) throw new UsageError(`rsyslogd's configuration cannot name ${JSON.stringify(text)}: it holds a control character (a newline?); give --dir (or TMPDIR) a directory without one`)
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`
}

// The local syslog socket that syslog(3) writes to: glibc's _PATH_LOG, which openlog() cannot change.
export const LOCAL_SOCKET = '/dev/log'

export function rsyslogConfig ({ dir, udpPort, tcpPort, localSocket = null, receiveBufferBytes }) {
  const q = (file) => rsyslogString(file)
  const inputs = []
  // imuxsock on the socket syslog(3) writes to, without its rate limit (200 messages in 5 s by default),
  // which would drop a logging loop's events as the input's policy, not as the logger's loss.
  if (localSocket != null) inputs.push('module(load="imuxsock" SysSock.Use="off")', `input(type="imuxsock" Socket=${q(localSocket)} CreatePath="off" RateLimit.Interval="0" ruleset="logbench")`)
  if (udpPort != null) inputs.push('module(load="imudp")', `input(type="imudp" address="127.0.0.1" port="${udpPort}" rcvbufSize="${receiveBufferBytes}" ruleset="logbench")`)
  if (tcpPort != null) inputs.push('module(load="imtcp")', `input(type="imtcp" address="127.0.0.1" port="${tcpPort}" ruleset="logbench")`)
  return `# Written by log-bench for one run; see docs/syslog.md.
global(workDirectory=${q(dir)} maxMessageSize="64k" processInternalMessages="on")
module(load="impstats" interval="1" format="json" log.syslog="off" log.file=${q(path.join(dir, 'impstats.json'))})
${inputs.join('\n')}
template(name="logbenchRaw" type="string" string="%rawmsg%\\n")
ruleset(name="logbench") {
  action(name="logbench-output" type="omfile" file=${q(path.join(dir, 'received.log'))} template="logbenchRaw")
}
# rsyslogd's own messages (start, errors) go to their own file, never into the verified one.
action(type="omfile" file=${q(path.join(dir, 'internal.log'))})
`
}

// Validates the configuration (rsyslogd -N1), starts rsyslogd -n, and resolves once a probe
// message sent to each listener has come out in the output file. Throws with one clear line.
// rsyslogd runs under a supervisor (./supervisor.js): if the harness dies, however it dies, rsyslogd
// is killed and removeOnOrphan (the run's directory, `dir` by default) removed.
export async function startRsyslog ({
  binary, dir, configText, udpPort, tcpPort, localSocket = null, removeOnOrphan = [dir]
}) {
  const configFile = path.join(dir, 'rsyslog.conf')
  const outputFile = path.join(dir, 'received.log')
  fs.writeFileSync(configFile, configText)
  // In a process group of its own (detached): a binary that is a wrapper script may leave children,
  // and on a time-out spawnSync kills only the process it started, so the group is killed after.
  const check = spawnSync(binary, ['-N1', '-f', configFile], { encoding: 'utf8', timeout: READY_TIMEOUT_MS, detached: true })
  if (check.error?.code === 'ETIMEDOUT') signalGroup(check.pid)
  if (check.error) throw new Error(`rsyslogd could not be run (${binary}): ${check.error.message}`)
  if (check.status !== 0) throw new Error(`rsyslogd rejected its configuration: ${firstError(check.stderr + check.stdout)}`)
  let child
  try {
    child = await spawnSupervised(binary, ['-n', '-f', configFile, '-i', path.join(dir, 'rsyslogd.pid')], { removeOnOrphan })
  } catch (err) {
    throw new Error(`rsyslogd could not be run (${binary}): ${err.message}`)
  }
  let outputTail = ''
  const keepTail = (chunk) => { outputTail = (outputTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES) }
  child.stdout.on('data', keepTail)
  child.stderr.on('data', keepTail)
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      resolve(`rsyslogd (pid ${child.pid}) ${signal ? `was killed by ${signal}` : `exited with code ${code}`}${lastLine(outputTail, dir)}`)
    })
  })
  let stopped = false
  const handle = {
    pid: child.pid,
    outputFile,
    impstatsFile: path.join(dir, 'impstats.json'),
    exited,
    async stop () {
      if (stopped) return exited
      stopped = true
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
        await exited
        clearTimeout(timer)
      }
      return exited
    }
  }
  try {
    await Promise.race([
      waitUntilReceiving({ outputFile, udpPort, tcpPort, localSocket }),
      exited.then((reason) => { throw new Error(`rsyslogd failed to start: ${reason}`) })
    ])
  } catch (err) {
    await handle.stop()
    throw err
  }
  return handle
}

// rsyslogd's own first error line. Under a low-priority scheduler (nice, SCHED_IDLE) it first warns
// that it could not set its threads' priority ("... Error was: Invalid argument"): not the reason.
function firstError (text) {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !/pthread_attr_setschedpolicy failed/.test(l))
  return (lines.find((l) => /error|invalid|could not|not found/i.test(l)) ?? lines[0] ?? 'no reason given').slice(0, 300)
}

function lastLine (outputTail, dir) {
  let text = outputTail
  try { text += fs.readFileSync(path.join(dir, 'internal.log'), 'utf8').slice(-STDERR_TAIL_BYTES) } catch {}
  const line = text.trim().split('\n').filter(Boolean).pop()
  return line ? `: ${line}` : ''
}

// Sends a probe to each listener until it appears in the output file: the whole path (input,
// queue, omfile) works, not just the port. Probe lines are ignored when verifying.
async function waitUntilReceiving ({ outputFile, udpPort, tcpPort, localSocket }) {
  const deadline = Date.now() + READY_TIMEOUT_MS
  const pendingProbes = []
  if (localSocket != null) {
    pendingProbes.push({ name: localSocket, where: localSocket, send: (text) => sendLocal(localSocket, text) })
  }
  if (udpPort != null) pendingProbes.push({ name: `udp/${udpPort}`, where: `127.0.0.1 udp/${udpPort}`, send: (text) => sendUdp(udpPort, text) })
  if (tcpPort != null) pendingProbes.push({ name: `tcp/${tcpPort}`, where: `127.0.0.1 tcp/${tcpPort}`, send: (text) => sendTcp(tcpPort, text) })
  for (const probe of pendingProbes) {
    const marker = `${PROBE_TEXT} ${probe.name}`
    for (;;) {
      await probe.send(`<14>1 - - - - - - ${marker}`).catch(() => {})
      await delay(PROBE_INTERVAL_MS)
      if (fileContains(outputFile, marker)) break
      const listenerError = internalError(path.join(path.dirname(outputFile), 'internal.log'))
      if (listenerError) throw new Error(`rsyslogd cannot listen on ${probe.where}: ${listenerError}`)
      if (Date.now() > deadline) throw new Error(`rsyslogd did not receive on ${probe.where} within ${READY_TIMEOUT_MS / 1000} s`)
    }
  }
}

// rsyslogd keeps running when a listener fails; its own log says so.
function internalError (file) {
  let text
  try { text = fs.readFileSync(file, 'utf8') } catch { return null }
  const line = text.split('\n').find((l) => /bind|could not create .* listener|address already in use/i.test(l))
  return line ? line.replace(/^\S+ \S+ /, '').trim() : null
}

function fileContains (file, text) {
  try { return fs.readFileSync(file, 'latin1').includes(text) } catch { return false }
}

function sendUdp (port, text) {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4')
    socket.send(text, port, '127.0.0.1', (err) => {
      socket.close()
      if (err) reject(err)
      else resolve()
    })
  })
}

// Node cannot send to a unix datagram socket: util-linux's logger does (-u), as syslog(3) would.
function sendLocal (socket, text) {
  return new Promise((resolve, reject) => {
    execFile('logger', ['-u', socket, '--socket-errors=on', text], { timeout: 2000 }, (err) => (err ? reject(err) : resolve()))
  })
}

function sendTcp (port, text) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(`${text}\n`))
    socket.once('error', reject)
    socket.once('close', resolve)
  })
}

// A port the OS says is free now; rsyslogd binds it a moment later (a lost race fails the start).
export function freePort (protocol) {
  return new Promise((resolve, reject) => {
    if (protocol === 'udp') {
      const socket = dgram.createSocket('udp4')
      socket.once('error', reject)
      socket.bind(0, '127.0.0.1', () => {
        const { port } = socket.address()
        socket.close(() => resolve(port))
      })
    } else {
      const server = net.createServer()
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address()
        server.close(() => resolve(port))
      })
    }
  })
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// Feeds every line of rsyslog's output file from `offset` on to `onLine`; returns the new offset.
// Only whole lines are read, so a line rsyslog is still writing is read on the next call.
export function readNewLines (file, offset, onLine, onOversized, onProbe = () => {}) {
  let size
  try { size = fs.statSync(file).size } catch { return offset }
  if (size <= offset) return offset
  const fd = fs.openSync(file, 'r')
  try {
    const buffer = Buffer.allocUnsafe(Math.min(size - offset, 1 << 24))
    const read = fs.readSync(fd, buffer, 0, buffer.length, offset)
    const lastNewline = buffer.lastIndexOf(10, read - 1)
    if (lastNewline === -1) return offset
    const splitter = new LineSplitter(
      (line) => { if (line.includes(PROBE_TEXT)) onProbe(); else onLine(line) },
      { onOversized }
    )
    splitter.push(buffer.subarray(0, lastNewline + 1))
    splitter.end()
    return offset + lastNewline + 1
  } finally {
    fs.closeSync(fd)
  }
}

// rsyslog's own counters, from the impstats file (one JSON object per counter set, every second,
// each line prefixed with a date): the latest values of each set, summed where several inputs
// or actions report. What rsyslog says it took in, queued, dropped and wrote, and what it cost
// it, beside what the harness counted in its output file.
export function readImpstats (file) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
  const latest = new Map()
  for (const line of text.split('\n')) {
    const at = line.indexOf('{')
    if (at === -1) continue
    try {
      const record = JSON.parse(line.slice(at))
      if (record?.name) latest.set(record.name, record)
    } catch {}
  }
  if (latest.size === 0) return null
  const records = [...latest.values()]
  // Records without the key (imudp's per-thread "imudp(w0)" set has no "submitted") add 0.
  const sum = (origin, key) => records.filter((r) => r.origin === origin)
    .reduce((total, r) => total + (Number(r[key]) || 0), 0)
  const mainQueue = latest.get('main Q')
  const usage = latest.get('resource-usage')
  // Counts include the harness's start-up probes (they go through the same input and action):
  // the receiver subtracts those it found in the output file.
  return {
    submitted: sum('imudp', 'submitted') + sum('imtcp', 'submitted') + sum('imuxsock', 'submitted'),
    queueDiscarded: mainQueue ? (Number(mainQueue['discarded.full']) || 0) + (Number(mainQueue['discarded.nf']) || 0) : null,
    queueFull: mainQueue ? Number(mainQueue.full) || 0 : null,
    queueMaxSize: mainQueue ? Number(mainQueue.maxqsize) || 0 : null,
    outputWritten: latest.get('logbench-output')?.processed ?? null,
    outputFailed: sum('core.action', 'failed'),
    cpuUserMs: usage ? Math.round(Number(usage.utime) / 1000) : null,
    cpuSystemMs: usage ? Math.round(Number(usage.stime) / 1000) : null,
    maxRssBytes: usage ? Number(usage.maxrss) * 1024 : null
  }
}

// Waits (up to waitMs) for impstats to write a set of counters after this moment, so that what
// it read covers the whole run: it writes every second.
export async function freshImpstats (file, waitMs = 1500) {
  const sizeNow = () => { try { return fs.statSync(file).size } catch { return 0 } }
  const from = sizeNow()
  const until = Date.now() + waitMs
  while (Date.now() < until) {
    await delay(50)
    const size = sizeNow()
    // A whole set ends with the resource-usage or main-queue line; wait for the file to stop growing.
    if (size > from) {
      await delay(50)
      if (sizeNow() === size) break
    }
  }
  return readImpstats(file)
}
