import fs from 'node:fs'
import { drained } from './flush.js'
import { createRawSyslog } from './raw-syslog.js'

// The physical limit of the transport: the same lines written by the plainest fast Node code,
// batched into 64 KiB writes. Nothing a logger does can beat this.
const BATCH_BYTES = 64 * 1024

function batcher (write) {
  let pending = ''
  return {
    log (message) {
      pending += message + '\n'
      if (pending.length >= BATCH_BYTES) {
        write(pending)
        pending = ''
      }
    },
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
  async create ({ transport, file, host, port }) {
    if (transport === 'udp' || transport === 'tcp') return createRawSyslog({ transport, host, port })
    if (transport === 'file') {
      const fd = fs.openSync(file, 'a')
      const batch = batcher((text) => writeAll(fd, text))
      return {
        log: batch.log,
        async close () {
          batch.flush()
          fs.closeSync(fd)
        }
      }
    }
    const batch = batcher((text) => process.stdout.write(text))
    return {
      log: batch.log,
      async close () {
        batch.flush()
        await drained(process.stdout)
      }
    }
  }
}
