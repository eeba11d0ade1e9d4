import express from 'express'
import { messagePrefix, payloadOfSize } from '../engine/message.js'

// Bounds on what one request may ask for, so a stray request cannot make the server allocate without limit.
export const MAX_LOGS_PER_REQUEST = 10_000
export const MAX_SIZE = 1 << 20

// Numbers the events of one server worker: "w<worker> <seq>: <payload>", the marker the receiving end
// verifies. logged is how many messages were handed to the logger, the run's `sent`.
export function createEventSource (workerId) {
  const suffixes = new Map()
  return {
    prefix: messagePrefix(workerId),
    logged: 0,
    suffixOf (size) {
      let suffix = suffixes.get(size)
      if (suffix === undefined) suffixes.set(size, (suffix = ': ' + payloadOfSize(size)))
      return suffix
    },
    next (size) {
      return this.prefix + this.logged++ + this.suffixOf(size)
    }
  }
}

// The app under load, the same in every mode: POST /logging with a JSON body { logsPerRequest, size }
// (or GET /logging?logsPerRequest=N&size=S) logs that many events of that payload size through log(),
// then answers 200. requestLogger, when given, is mounted in front as an express app mounts one.
// log is null for the `none` baseline: the same app with no logger.
export function createApp ({ events, log, requestLogger }) {
  const app = express()
  if (requestLogger) app.use(requestLogger)
  const handle = (req, res) => {
    const params = (req.method === 'GET' ? req.query : req.body) ?? {}
    const logs = Number(params.logsPerRequest ?? 0)
    const size = Number(params.size ?? 1)
    if (!Number.isInteger(logs) ||
      logs < 0 ||
      logs > MAX_LOGS_PER_REQUEST ||
      !Number.isInteger(size) ||
      size < 1 ||
      size > MAX_SIZE) {
      res.status(400).json({ error: `logsPerRequest must be an integer from 0 to ${MAX_LOGS_PER_REQUEST}, size from 1 to ${MAX_SIZE}` })
      return
    }
    if (log && logs > 0) {
      const prefix = events.prefix
      const suffix = events.suffixOf(size)
      for (let i = 0; i < logs; i++) log(prefix + events.logged++ + suffix)
    }
    res.sendStatus(200)
  }
  app.post('/logging', express.json(), handle)
  app.get('/logging', handle)
  return app
}
