import http from 'node:http'
import { decodeRequest, JSON_RESPONSE, PROTOBUF_RESPONSE, recordText } from './otlp/decode.js'
import { ExportLogsServiceRequest } from '../engine/otlp-proto.js'
import { createCollector } from './collector.js'
import { gunzipWithin, jsonValues, protobufValues, sizeText } from './receiver-limits.js'

// The otlp transport's receiving end: an OTLP/HTTP logs endpoint (POST /v1/logs, protobuf or JSON
// by Content-Type) on 127.0.0.1 and a free port, in the harness's primary, as a collector's otlp
// receiver would be. Every log record is checked by worker id and sequence (the record's body and
// attributes; src/sinks/verifier.js); a request that is not an ExportLogsServiceRequest is answered
// 400 and counted (malformedRequests), one whose connection ends before its body does is counted
// (cutRequests); either way the receiver goes on. What the limits refuse (receiver-limits.js) is
// answered at once, 413 or 415, counted (refusedRequests) and its cause kept: the run's failure
// when events are missing. What it shares with the other collectors is in src/sinks/collector.js.
export const OTLP_PATH = '/v1/logs'

export async function createOtlpReceiver (options) {
  const stats = { requests: 0, records: 0, malformedRequests: 0, cutRequests: 0, refusedRequests: 0, requestBytes: 0 }
  const collector = createCollector({ who: 'the OTLP receiver', stats, recordsCounter: 'records', ...options })
  const { limits: { maxBytes, maxValues, maxRequests }, verifier } = collector
  // Requests past maxRequests wait unread, in order of arrival.
  let active = 0
  const waiting = []
  const admit = (serve) => {
    if (active >= maxRequests) return waiting.push(serve)
    active++
    serve().finally(() => {
      active--
      if (waiting.length) admit(waiting.shift())
    })
  }

  const refuse = (req, res, status, cause) => {
    collector.refuse('refusedRequests', `refused a request: ${cause} (answered ${status})`)
    // The rest of a refused body is not read: the connection closes once the answer is out.
    answer(res, status, 'text/plain', cause, { connection: 'close' })
    res.once('finish', () => req.socket.destroy())
  }

  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== OTLP_PATH) {
      stats.malformedRequests++
      req.resume()
      return answer(res, 404, 'text/plain', `only POST ${OTLP_PATH} is served here`)
    }
    // OTLP/HTTP exporters may gzip their bodies (OTEL_EXPORTER_OTLP_COMPRESSION=gzip); nothing else is defined.
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
    if (encoding !== 'identity' && encoding !== 'gzip') return refuse(req, res, 415, `content-encoding ${encoding} is not accepted (gzip or none)`)
    const announced = Number(req.headers['content-length'])
    if (announced > maxBytes) return refuse(req, res, 413, `request body of ${sizeText(announced)}, over the ${sizeText(maxBytes)} limit`)
    admit(() => serve(req, res, encoding === 'gzip', /^application\/json\b/i.test(req.headers['content-type'] ?? '')))
  })

  async function serve (req, res, gzip, json) {
    const body = await readBody(req, maxBytes)
    if (body.cut) return countCut(req.socket)
    if (body.refused) return refuse(req, res, 413, body.refused)
    stats.requests++
    stats.requestBytes += body.bytes.length
    const inflated = gzip ? await gunzipWithin(body.bytes, maxBytes, 'request body inflates') : body
    if (inflated.refused) return refuse(req, res, 413, inflated.refused)
    let records
    try {
      if (inflated.malformed) throw new Error(inflated.malformed)
      const values = json
        ? jsonValues(inflated.bytes, maxValues)
        : protobufValues(inflated.bytes, ExportLogsServiceRequest, maxValues)
      if (values > maxValues) return refuse(req, res, 413, `request holds more than ${maxValues} values (records, attributes, strings)`)
      records = decodeRequest(inflated.bytes, json)
    } catch (err) {
      stats.malformedRequests++
      return answer(res, 400, 'text/plain', `not an ExportLogsServiceRequest: ${err.message}`)
    }
    collector.accept(records, recordText)
    answer(res, 200, json ? 'application/json' : 'application/x-protobuf', json ? JSON_RESPONSE : PROTOBUF_RESPONSE)
  }

  // A connection that ends inside a request is reported twice by node (the request's 'close' before its 'end',
  // and a clientError HPE_INVALID_EOF_STATE when it ended in the body or headers): counted once per
  // connection. A reset between requests (an idle keep-alive connection) is no cut request.
  const cutSockets = new WeakSet()
  const countCut = (socket) => {
    if (cutSockets.has(socket)) return
    cutSockets.add(socket)
    stats.cutRequests++
  }
  server.on('clientError', (err, socket) => {
    if (err.code === 'HPE_INVALID_EOF_STATE') countCut(socket)
    else if (err.code !== 'ECONNRESET') stats.malformedRequests++
    socket.destroy()
  })
  const port = await collector.listen(server)
  return collector.receiver({
    doneMeans: 'the last OTLP export request the embedded receiver answered',
    target: { url: `http://127.0.0.1:${port}${OTLP_PATH}`, protocol: 'otlp' },
    arrivals: () => verifier.received + verifier.corrupt + verifier.duplicates +
      stats.malformedRequests + stats.refusedRequests,
    async stop () {
      waiting.length = 0
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
}

function answer (res, status, type, body, headers = {}) {
  if (res.headersSent) return
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers })
  res.end(body)
}

// A request's body, read up to maxBytes: { bytes }, { refused } past it (the rest is left unread),
// or { cut } when the connection ended before the body did.
function readBody (req, maxBytes) {
  return new Promise((resolve) => {
    const chunks = []
    let length = 0
    const onData = (chunk) => {
      length += chunk.length
      if (length <= maxBytes) return chunks.push(chunk)
      req.off('data', onData)
      req.pause()
      resolve({ refused: `request body runs past ${sizeText(maxBytes)}` })
    }
    // A request that waited its turn may have lost its connection meanwhile.
    if (req.destroyed) return resolve({ cut: true })
    req.on('data', onData)
    req.on('end', () => resolve({ bytes: Buffer.concat(chunks, length) }))
    // 'close' before 'end': the client's connection closed before the body was complete.
    req.on('close', () => resolve({ cut: true }))
    req.on('error', () => {})
  })
}
