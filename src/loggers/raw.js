import fs from 'node:fs'
import { drained } from './flush.js'
import { createRawSyslog } from './raw-syslog.js'
import { rawLine, WORKLOADS } from '../engine/workloads.js'

// The physical limit of the transport: the same lines written by the plainest fast Node code,
// batched into 64 KiB writes. Nothing a logger does can beat this. A workload's line is the JSON a
// structured logger would write, built by hand (rawLine).
const BATCH_BYTES = 64 * 1024

function batcher (write, workload) {
  const line = rawLine(workload)
  let pending = ''
  const log = (message) => {
    pending += line(message) + '\n'
    if (pending.length >= BATCH_BYTES) {
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
function writeAll (fd, text) {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length;) at += fs.writeSync(fd, bytes, at)
}

export default {
  name: 'raw',
  baseline: true,
  transports: ['console', 'file', 'udp', 'tcp'],
  workloads: WORKLOADS,
  async create ({ transport, file, host, port, workload }) {
    if (transport === 'udp' || transport === 'tcp') return createRawSyslog({ transport, host, port, workload })
    if (transport === 'file') {
      const fd = fs.openSync(file, 'a')
      const batch = batcher((text) => writeAll(fd, text), workload)
      return {
        log: batch.log,
        async close () {
          batch.flush()
          fs.closeSync(fd)
        }
      }
    }
    const batch = batcher((text) => process.stdout.write(text), workload)
    return {
      log: batch.log,
      async close () {
        batch.flush()
        await drained(process.stdout)
      }
    }
  }
}
