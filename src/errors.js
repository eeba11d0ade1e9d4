// A UsageError is bad input from the user: the CLI prints its message on one line and exits with code 2.
export class UsageError extends Error {
  constructor (message) {
    super(message)
    this.name = 'UsageError'
  }
}

export const EXIT = Object.freeze({
  OK: 0,
  HARNESS_ERROR: 1,
  USAGE: 2,
  INTERRUPTED: 130,
  TERMINATED: 143
})
