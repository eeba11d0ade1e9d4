import { once } from 'node:events'
import fs from 'node:fs'
import bole from 'bole'
import { args, measure, stdoutWritten } from './common.js'

// bole.output({ level: 'info', stream }) once, then bole(name).info(); a file is fs.createWriteStream.
const { transport, events, file } = args()
const stream = transport === 'file' ? fs.createWriteStream(file, { flags: 'a' }) : process.stdout
bole.output({ level: 'info', stream })
const logger = bole('log-bench')
await measure(events, (message) => logger.info(message), async () => {
  if (transport === 'console') return stdoutWritten()
  const closed = once(stream, 'close')
  stream.end()
  await closed
})
