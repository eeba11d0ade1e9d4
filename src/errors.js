import os from 'node:os'

// A UsageError is bad input from the user: the CLI prints its message on one line and exits with code 2.
// hint: where the message alone cannot say what would be right, a second line that says how to find out.
export class UsageError extends Error {
  constructor (message, { hint = null } = {}) {
    super(message)
    this.name = 'UsageError'
    this.hint = hint
  }
}

// The signals that stop a session the same way (runs recorded, the current one "interrupted",
// children and run directories gone); the exit code is the shell's 128 + the signal's number.
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']
// The ones a terminal sends to its whole foreground process group (Ctrl-C, Ctrl-\\, hang-up):
// every child ignores them, and the primary ends the children itself.
export const TERMINAL_SIGNALS = ['SIGINT', 'SIGHUP', 'SIGQUIT']

export const exitCodeFor = (signal) => 128 + (os.constants.signals[signal] ?? 2)

export const EXIT = Object.freeze({
  OK: 0,
  HARNESS_ERROR: 1,
  USAGE: 2,
  // compare --fail-on: a comparison read a verdict the gate names (slower, …).
  FAIL_ON: 3,
  // Stopped by Ctrl-C (SIGINT) or by SIGTERM: the shell's 128 + the signal's number (exitCodeFor).
  INTERRUPTED: 130,
  TERMINATED: 143
})

// The user (Ctrl-C, a closed terminal) or the system (SIGTERM) stopped the run: recorded as interrupted, then rethrown.
export class Interrupted extends Error {
  constructor (signal) {
    super(`interrupted by ${signal}`)
    this.name = 'Interrupted'
    this.signal = signal
  }
}

// A run that failed for a reason worth recording (a worker or a receiver died, a time limit).
// `failure` says what kind of failure it was, as data that the record keeps beside the sentence:
// { kind: 'timeout', limitS } | { kind: 'out-of-memory' } | { kind: 'killed', signal }
// | { kind: 'crashed', exitCode } | { kind: 'nothing-arrived' } (the receiving end counted no event at all)
// | { kind: 'error' } (anything else: a logger's or a receiver's error).
export class RunFailure extends Error {
  constructor (message, failure = { kind: 'error' }) {
    super(message)
    // new.target: a ServerFailure or LoadFailure is named so, not RunFailure.
    this.name = new.target.name
    this.failure = failure
  }
}

// The http server's workers or the load generator failed: the run's failure, with the reason.
export class ServerFailure extends RunFailure {}
export class LoadFailure extends RunFailure {}
