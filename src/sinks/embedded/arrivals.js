import { fileURLToPath } from 'node:url'

// The sink's own process (sink-process.js): forked by spawnSink (handle.js), and forked again as
// each UDP reader of a shared socket (shared-udp.js).
export const SINK_PROCESS = fileURLToPath(new URL('./sink-process.js', import.meta.url))

// Frames received so far, sent to the parent when they change, for live progress: one small
// message every ARRIVALS_EVERY_MS instead of a counts request, which walks the bitsets.
export const ARRIVALS_EVERY_MS = 250

export function reportArrivals (arrivals) {
  let last = -1
  setInterval(() => {
    const frames = arrivals()
    if (frames === last || !process.connected) return
    last = frames
    process.send({ type: 'arrivals', frames })
  }, ARRIVALS_EVERY_MS).unref()
}
