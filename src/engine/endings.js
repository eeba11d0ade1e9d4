// How a run's worker process ends after its last log call (--ending, a cell dimension), from the
// best case to the worst. What each costs a logger is counted at the receiving end
// (docs/durability.md).
export const ENDINGS = Object.freeze([
  { name: 'close', title: 'close()', describe: 'the adapter\'s close() is awaited: the library says everything is written (the best case)' },
  { name: 'return', title: 'return', describe: 'no close(): the process ends by itself once its event loop is empty' },
  { name: 'exit', title: 'exit', describe: 'process.exit(0) right after the last call' },
  { name: 'uncaught', title: 'uncaught', describe: 'an exception thrown right after the last call, with no handler' },
  { name: 'sigterm', title: 'SIGTERM', describe: 'SIGTERM right after the last call, with its default disposition (unless the library listens)' },
  { name: 'sigterm-recipe', title: 'SIGTERM + recipe', describe: 'SIGTERM right after the last call, with the library\'s documented shutdown (the adapter\'s close(): log4js shutdown(), winston end and \'finish\', pino\'s stream end, …) run by a SIGTERM handler that then exits' },
  { name: 'sigkill', title: 'SIGKILL', describe: 'SIGKILL right after the last call: nothing can run after it' }
])

export const ENDING_NAMES = ENDINGS.map((e) => e.name)
export const DEFAULT_ENDING = 'close'

export function endingTitle (name) {
  return ENDINGS.find((e) => e.name === name)?.title ?? String(name)
}
