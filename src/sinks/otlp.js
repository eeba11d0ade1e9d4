import http from 'node:http'
import zlib from 'node:zlib'
import { RunFailure } from '../errors.js'
import { decodeRequest, JSON_RESPONSE, PROTOBUF_RESPONSE, recordText } from './otlp/decode.js'
import { untilQuiet } from './syslog.js'
import { dropRate, Verifier } from './verifier.js'

// The otlp transport's receiving end: an OTLP/HTTP logs endpoint (POST /v1/logs, protobuf or JSON
// by Content-Type) on 127.0.0.1 and a free port, in the harness's primary, as a collector's otlp
// receiver would be. Every log record is checked by worker id and sequence (the record's body and
// attributes; src/sinks/verifier.js); a request that is not an ExportLogsServiceRequest is answered
// 400 and counted (malformedRequests), one whose connection ends before its body does is counted
// (cutRequests); either way the receiver goes on.
export const OTLP_PATH = '/v1/logs'
// A batch processor's default batch (512 records) is far below this; a bigger body is refused
// (413) and counted as malformed, so a runaway client cannot make the receiver hold gigabytes.
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024
const QUIET_MS = 500

export async function createOtlpReceiver ({ workers, events, payload, workload, quietMs = QUIET_MS }) {
  const verifier = new Verifier({ workers, events, payload, workload })
  const stats = { requests: 0, records: 0, malformedRequests: 0, cutRequests: 0, requestBytes: 0 }
  let lastArrivalNs = null
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== OTLP_PATH) {
      stats.malformedRequests++
      req.resume()
      return answer(res, 404, 'text/plain', `only POST ${OTLP_PATH} is served here`)
    }
    const json = /^application\/json\b/i.test(req.headers['content-type'] ?? '')
    // OTLP/HTTP exporters may gzip their bodies (OTEL_EXPORTER_OTLP_COMPRESSION=gzip); nothing else is defined.
    const gzip = /^gzip$/i.test(req.headers['content-encoding'] ?? '')
    const chunks = []
    let bytes = 0
    let refused = false
    req.on('data', (chunk) => {
      if (refused) return
      bytes += chunk.length
      if (bytes > MAX_REQUEST_BYTES) {
        refused = true
        stats.malformedRequests++
        answer(res, 413, 'text/plain', `a request body over ${MAX_REQUEST_BYTES} bytes`)
        return
      }
      chunks.push(chunk)
    })
    // 'aborted' fires when the client's connection closed before the body was complete.
    req.on('aborted', () => { if (!refused) countCut(req.socket) })
    req.on('end', () => {
      if (refused) return
      stats.requests++
      stats.requestBytes += bytes
      let records
      try {
        const body = Buffer.concat(chunks, bytes)
        records = decodeRequest(gzip ? zlib.gunzipSync(body, { maxOutputLength: MAX_REQUEST_BYTES }) : body, json)
      } catch (err) {
        stats.malformedRequests++
        return answer(res, 400, 'text/plain', `not an ExportLogsServiceRequest: ${err.message}`)
      }
      for (const record of records) verifier.check(recordText(record))
      stats.records += records.length
      lastArrivalNs = process.hrtime.bigint()
      answer(res, 200, json ? 'application/json' : 'application/x-protobuf', json ? JSON_RESPONSE : PROTOBUF_RESPONSE)
    })
    req.on('error', () => {})
  })
  // A connection that ends inside a request is reported twice by node (the request's 'aborted',
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
  await new Promise((resolve, reject) => {
    server.once('error', (err) => reject(new RunFailure(`the OTLP receiver could not listen on 127.0.0.1: ${err.message}`)))
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address()
  const url = `http://127.0.0.1:${port}${OTLP_PATH}`
  return {
    consumesStdout: false,
    doneMeans: 'the last OTLP export request the embedded receiver answered',
    target () { return { host: '127.0.0.1', port, url, protocol: 'otlp' } },
    attach () {},
    progress () { return { arrived: verifier.received } },
    // Counted as requests arrive: what the verifier holds is already final when nothing more comes.
    async settle ({ sent }) {
      const ask = async () => ({ received: verifier.received, arrivals: verifier.received + verifier.corrupt + verifier.duplicates + stats.malformedRequests })
      await untilQuiet(ask, (c) => c.arrivals, (c) => c.received >= sent, quietMs)
      const { received, corrupt, duplicates } = verifier
      return { sent, received, corrupt, duplicates, dropRate: dropRate(sent, received), lastArrivalNs, receiverStats: { ...stats } }
    },
    stats () { return { ...stats, received: verifier.received, corrupt: verifier.corrupt, duplicates: verifier.duplicates } },
    async stop () {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}

function answer (res, status, type, body) {
  if (res.headersSent) return
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) })
  res.end(body)
}
