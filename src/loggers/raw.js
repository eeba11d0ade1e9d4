import fs from 'node:fs'
import { FORWARD_ACK_VARIANT } from './fluent.js'
import { OTLP_JSON_VARIANT } from './otel-sdk.js'
import { rawLine, WORKLOADS } from '../engine/workloads.js'

// The physical limit of the transport: the same lines written by the plainest fast Node code,
// batched into 64 KiB writes with fs.writeSync (console: on fd 1). Nothing a logger does can beat this. A workload's
// line is the JSON a structured logger would write, built by hand (rawLine). The last call (the run's `events`th)
// writes the last batch: every line is written when the last call returns, so no ending (exit, a throw, SIGKILL) can
// lose one, as none can in a plain synchronous program.
const BATCH_BYTES = 64 * 1024

// each: every line is written at once (raw:each, the latency baseline).
function batcher (write, workload, events, { each = false } = {}) {
  const batchBytes = each ? 0 : BATCH_BYTES
  const line = rawLine(workload)
  let pending = ''
  let left = events ?? Infinity
  const log = (message) => {
    pending += line(message) + '\n'
    left--
    if (pending.length >= batchBytes || left === 0) {
      write(pending)
      pending = ''
    }
  }
  return {
    log: line === null ? () => {} : log,
    flush () {
      if (pending !== '') write(pending)
      pending = ''
    }
  }
}

// writeSync may write less than asked (a full disk takes what fits); the rest is written again, so a
// full disk ends in ENOSPC, a failed run, never in a run that silently lost the tail of a batch.
// A non-blocking stdout (set so by anything that touched process.stdout) answers EAGAIN when the pipe
// is full: wait a millisecond for the reader and write again, as sonic-boom does (it waits 100 ms).
const pause = new Int32Array(new SharedArrayBuffer(4))
function writeAll (fd, text) {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length;) {
    try {
      at += fs.writeSync(fd, bytes, at)
    } catch (err) {
      if (err.code !== 'EAGAIN') throw err
      Atomics.wait(pause, 0, 0, 1)
    }
  }
}

export default {
  name: 'raw',
  baseline: true,
  transports: ['console', 'file', 'udp', 'tcp', 'otlp', 'forward'],
  workloads: WORKLOADS,
  variants: {
    json: OTLP_JSON_VARIANT,
    ack: FORWARD_ACK_VARIANT,
    each: {
      describe: 'each event written when it is logged: one fs.writeSync per line (console: on fd 1), one socket write per line over TCP (UDP is one datagram per event already). The latency baseline: raw holds lines for 64 KiB writes, the fastest way to the end but not the freshest',
      transports: ['console', 'file', 'tcp']
    },
    'fluent-org': {
      describe: "the fluent organisation's own forward client: @fluent-org/logger's FluentClient.emit per event, on its README defaults (PackedForward)",
      docs: 'https://github.com/fluent/fluent-logger-forward-node#client',
      transports: ['forward']
    }
  },
  async create ({ transport, file, host, port, url, workload, variant, events }) {
    // Each network client is imported when its transport is built: their encoders (protobufjs,
    // msgpack) are hundreds of modules that `list` and the file and console runs never use.
    if (transport === 'udp' || transport === 'tcp') return (await import('./raw-syslog.js')).createRawSyslog({ transport, host, port, workload, each: variant === 'each' })
    if (transport === 'otlp') return (await import('./raw-otlp.js')).createRawOtlp({ url, workload, json: variant === 'json' })
    if (transport === 'forward' && variant === 'fluent-org') return (await import('./fluent-org-client.js')).createFluentOrgClient({ host, port, workload })
    if (transport === 'forward') return (await import('./raw-forward.js')).createRawForward({ host, port, workload, ack: variant === 'ack' })
    if (transport === 'file') {
      const fd = fs.openSync(file, 'a')
      const batch = batcher((text) => writeAll(fd, text), workload, events, { each: variant === 'each' })
      return {
        log: batch.log,
        async close () {
          batch.flush()
          fs.closeSync(fd)
        }
      }
    }
    // The console as the fastest plain code writes it (and pino's sonic-boom): fs.writeSync on fd 1,
    // not process.stdout.write, whose stream machinery made raw 3.4x slower than this at 1,000,000 lines.
    const batch = batcher((text) => writeAll(1, text), workload, events, { each: variant === 'each' })
    return {
      log: batch.log,
      async close () { batch.flush() }
    }
  }
}
