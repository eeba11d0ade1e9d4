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
