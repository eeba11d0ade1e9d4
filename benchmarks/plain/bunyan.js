import { once } from 'node:events'
import bunyan from 'bunyan'
import { args, measure, stdoutWritten } from './common.js'

const { transport, events, file } = args()
const logger = transport === 'file'
  ? bunyan.createLogger({ name: 'log-bench', streams: [{ path: file }] })
  : bunyan.createLogger({ name: 'log-bench' })
await measure(events, (message) => logger.info(message), async () => {
  if (transport === 'console') return stdoutWritten()
  const stream = logger.streams[0].stream
  const closed = once(stream, 'close')
  stream.end()
  await closed
})
