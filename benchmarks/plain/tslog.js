import { Logger } from 'tslog'
import { fileTransport } from 'tslog/transports/file'
import { args, measure, stdoutWritten } from './common.js'

// new Logger() prints pretty lines through console.log; for a file, type "hidden" plus the file
// transport, closed in its documented order: flush(), then the transport's asyncDispose.
const { transport, events, file } = args()
const logger = transport === 'file' ? new Logger({ type: 'hidden' }) : new Logger()
const sink = transport === 'file' ? fileTransport({ path: file }) : null
if (sink) logger.attachTransport(sink)
await measure(events, (message) => logger.info(message), async () => {
  await logger.flush()
  if (sink) await sink[Symbol.asyncDispose]()
  else await stdoutWritten()
})
