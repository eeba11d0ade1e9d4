import { fork, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { leaveSignalsToPrimary } from '../engine/child-side.js'
import { isRunning, signalChild, signalGroup, spawnReason } from '../engine/children.js'

// A program that is not Node (rsyslogd) cannot notice that the harness died. It runs under this
// small Node process instead, which holds an IPC channel to the primary: when the channel closes
// without a stop (the primary was killed, even with SIGKILL, or crashed) it kills the program and
// removes the paths it was given. Without native code (prctl PR_SET_PDEATHSIG) and for any death.

const SELF = fileURLToPath(import.meta.url)

// Primary side: starts `command` under a supervisor. Resolves, once the program runs, with a
// ChildProcess-like handle: pid (the program's), stdout, stderr, exitCode, signalCode, kill(signal)
// and an 'exit' event (code, signal); rejects when it cannot be started.
export function spawnSupervised (command, args, { removeOnOrphan = [] } = {}) {
  const supervisor = fork(SELF, [], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], execArgv: [] })
  const handle = new EventEmitter()
  Object.assign(
    handle,
    { pid: null, stdout: supervisor.stdout, stderr: supervisor.stderr, exitCode: null, signalCode: null }
  )
  const ended = (code, signal) => {
    if (handle.exitCode !== null || handle.signalCode !== null) return
    handle.exitCode = code
    handle.signalCode = signal
    handle.emit('exit', code, signal)
  }
  handle.kill = (signal = 'SIGTERM') => {
    if (supervisor.connected) supervisor.send({ type: 'kill', signal })
    else signalChild(supervisor)
  }
  return new Promise((resolve, reject) => {
    supervisor.on('message', (msg) => {
      if (msg?.type === 'spawned') {
        handle.pid = msg.pid
        resolve(handle)
      } else if (msg?.type === 'error') {
        reject(new Error(msg.message))
      } else if (msg?.type === 'exit') {
        ended(msg.code, msg.signal)
      }
    })
    // The supervisor itself ending (killed) ends the program too: report it as the program's end.
    supervisor.once('exit', (code, signal) => {
      reject(new Error(`the supervisor of ${command} exited (${signal ?? `code ${code}`})`))
      ended(code, signal)
    })
    supervisor.on('error', (err) => {
      if (supervisor.pid === undefined) reject(new Error(`its supervisor could not be started: ${spawnReason(err)}`))
    })
    supervisor.send({ type: 'start', command, args, removeOnOrphan })
  })
}

function supervise () {
  let child = null
  let paths = []
  const orphaned = () => {
    signalGroup(child?.pid)
    for (const p of paths) fs.rmSync(p, { recursive: true, force: true })
    process.exit(0)
  }
  leaveSignalsToPrimary()
  process.on('disconnect', orphaned)
  process.on('message', (msg) => {
    if (msg?.type === 'start') {
      paths = msg.removeOnOrphan
      // A group of its own (detached), so that what the program starts (a wrapper script's
      // children) is signalled with it, and what is left of the group ends when it exits.
      child = spawn(msg.command, msg.args, { stdio: ['ignore', 'inherit', 'inherit'], detached: true })
      child.once('error', (err) => process.send({ type: 'error', message: err.message }, () => process.exit(1)))
      child.once('spawn', () => process.send({ type: 'spawned', pid: child.pid }))
      child.once('exit', (code, signal) => {
        signalGroup(child.pid)
        process.send({ type: 'exit', code, signal }, () => process.exit(0))
      })
    } else if (msg?.type === 'kill') {
      if (isRunning(child)) signalGroup(child.pid, msg.signal)
    }
  })
}

if (process.argv[1] === SELF && process.send) supervise()
