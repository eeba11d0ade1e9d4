import { once } from 'node:events'
import pino from 'pino'
import { args, measure } from './common.js'

// pino's docs/transports.md: pino.transport({ target: 'pino/file' }) writes in a worker thread
// (destination 1 is stdout); ending the transport stream ends the worker, then 'close'.
const { transport, events, file } = args()
const stream = pino.transport({ target: 'pino/file', options: { destination: transport === 'file' ? file : 1 } })
await once(stream, 'ready')
const logger = pino(stream)
// The transport's worker does not keep the event loop alive while it finishes: a timer does, or Node
// would end with the top-level await unsettled (exit code 13) before 'close'.
await measure(events, (message) => logger.info(message), async () => {
  const keepAlive = setInterval(() => {}, 1000)
  const closed = once(stream, 'close')
  stream.end()
  await closed
  clearInterval(keepAlive)
})
