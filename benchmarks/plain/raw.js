import fs from 'node:fs'
import { args, measure, stdoutWritten } from './common.js'

// The plainest fast code: lines joined into 64 KiB batches, one write each.
const { transport, events, file } = args()
const fd = transport === 'file' ? fs.openSync(file, 'a') : null
const write = fd === null ? (text) => process.stdout.write(text) : (text) => fs.writeSync(fd, text)
let pending = ''
await measure(events, (message) => {
  pending += message + '\n'
  if (pending.length >= 65536) {
    write(pending)
    pending = ''
  }
}, async () => {
  if (pending !== '') write(pending)
  if (fd === null) await stdoutWritten()
  else fs.closeSync(fd)
})
