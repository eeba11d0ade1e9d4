import http from 'node:http'
import { LoggerProvider, BatchLogRecordProcessor } from '@opentelemetry/sdk-logs'
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto'
import { ExportLogsServiceRequest } from '../src/engine/otlp-proto.js'

// A plain script, outside the harness, for the loss the destinations page reports: the OpenTelemetry
// Logs SDK on its defaults (BatchLogRecordProcessor: a queue of 2,048, batches of 512 every second)
// fed by one tight loop, exporting to a bare HTTP server in the same process that counts the
// records it decodes. `node benchmarks/otlp-drops.js [events]` (default 20,000) prints what was
// logged and what arrived after provider.shutdown().
const events = Number(process.argv[2] ?? 20000)
let arrived = 0
const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    const request = ExportLogsServiceRequest.decode(Buffer.concat(chunks))
    for (const resourceLogs of request.resourceLogs) {
      for (const scopeLogs of resourceLogs.scopeLogs) arrived += scopeLogs.logRecords.length
    }
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end()
  })
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const provider = new LoggerProvider({ processors: [new BatchLogRecordProcessor({ exporter: new OTLPLogExporter({ url: `http://127.0.0.1:${server.address().port}/v1/logs` }) })] })
const logger = provider.getLogger('plain')
for (let seq = 0; seq < events; seq++) logger.emit({ severityNumber: 9, body: `w0 ${seq}: Hello, world!` })
await provider.shutdown()
server.close()
process.stdout.write(`logged ${events}, arrived ${arrived} (${((1 - arrived / events) * 100).toFixed(2)}% lost)\n`)
