import { configure, dispose, getConsoleSink, getLogger } from '@logtape/logtape'
import { getFileSink } from '@logtape/file'
import { args, measure, stdoutWritten } from './common.js'

// configure() once with the console sink (or @logtape/file's file sink, on its defaults) and the
// meta logger at "warning" as the manual recommends; dispose() flushes and closes every sink.
const { transport, events, file } = args()
await configure({
  sinks: { out: transport === 'file' ? getFileSink(file) : getConsoleSink() },
  loggers: [
    { category: 'log-bench', lowestLevel: 'info', sinks: ['out'] },
    { category: ['logtape', 'meta'], lowestLevel: 'warning', sinks: ['out'] }
  ]
})
const logger = getLogger('log-bench')
await measure(events, (message) => logger.info(message), async () => {
  await dispose()
  if (transport === 'console') await stdoutWritten()
})
