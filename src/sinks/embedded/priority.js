import os from 'node:os'

// The instrument before what it measures: with many senders on few cores, a UDP receiver on an
// equal share of CPU falls behind and the kernel drops datagrams that were sent fine. So a sink that
// receives UDP asks for a higher scheduling priority, nice SINK_NICE, for all of its threads (the
// native receiver's thread sets it on itself too; node:dgram reader processes inherit it). Raising
// only the receiving thread was tried: it loses nothing either, but checking then lags behind in
// memory (100 MB queued for 8 × 100,000 bunyan events, so growing with the events), for no
// measurable gain to the senders. Only root may; otherwise it stays 0 and the run records that
// (sinkNice). TCP needs none: flow control slows a sender, it never loses.
export const SINK_NICE = -10

export function raisePriority () {
  try {
    os.setPriority(SINK_NICE)
  } catch {}
}
