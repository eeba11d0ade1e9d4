import fs from 'node:fs'

// The limits of what log-bench measures, one figure each: the command line refuses values beyond
// them, and the results reader refuses files that claim them (a file is input like an option).

// Worker processes per cell (--cpus, --workers).
export const MAX_WORKERS = 256
// Events per worker: bit indexes use 32-bit arithmetic (seq >> 3), and at this count each worker's
// bitset is 128 MiB.
export const MAX_EVENTS = 2 ** 30
// Payload bytes per event (--size).
export const MAX_SIZE_BYTES = 1 << 20
// Runs per cell (--runs).
export const MAX_RUNS = 1000
// Shares of a plan (--shard k/n): merge names every shard it misses.
export const MAX_SHARDS = 1000

// File descriptors a process may hold (the soft RLIMIT_NOFILE, `ulimit -n`), from /proc; null
// where it cannot be read. An http run's load generator holds one per connection, and so may a
// server worker: past the limit, connections fail with EMFILE.
export function openFilesLimit (limitsFile = '/proc/self/limits') {
  try {
    const line = fs.readFileSync(limitsFile, 'utf8').split('\n').find((l) => l.startsWith('Max open files'))
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0]
    return soft === 'unlimited' ? Infinity : Number.isSafeInteger(Number(soft)) ? Number(soft) : null
  } catch {
    return null
  }
}
// Below this limit on open files the command line reads its modules a few at a time
// (src/cli/load-hooks.js): node's loader reads a module's imports all at once, and log-bench's graph
// needed about 90 descriptors that way (EMFILE at ulimit -n 72, 2026-11). Above it the hook's
// cost (a loader thread: --help 1.2 s slower on a busy 2-core machine) buys nothing.
export const FEW_OPEN_FILES = 512
// Descriptors a Node process holds besides its connections (stdio, IPC, the event loop, libraries).
export const FILES_BESIDES_CONNECTIONS = 64
