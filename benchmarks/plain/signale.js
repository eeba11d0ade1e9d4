import { once } from 'node:events'
import fs from 'node:fs'
import signale from 'signale'
import { args, measure, stdoutWritten } from './common.js'

// The default instance writes to process.stdout; a file is new Signale({ stream }) on a file stream.
const { transport, events, file } = args()
const stream = transport === 'file' ? fs.createWriteStream(file, { flags: 'a' }) : null
const logger = stream ? new signale.Signale({ stream }) : signale
await measure(events, (message) => logger.info(message), async () => {
  if (!stream) return stdoutWritten()
  const closed = once(stream, 'close')
  stream.end()
  await closed
})
