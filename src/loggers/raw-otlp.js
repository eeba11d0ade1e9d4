import { ExportLogsServiceRequest } from '../engine/otlp-proto.js'
import { rawLine } from '../engine/workloads.js'

// raw over otlp: the plainest batched OTLP/HTTP export of the same lines, no SDK: records are
// gathered into batches of 512 (the SDK batch processor's default size), each batch one
// ExportLogsServiceRequest (protobuf from the opentelemetry-proto definitions, or OTLP/JSON)
// POSTed with fetch as soon as it is full; close posts the rest and waits for every answer.
const BATCH_RECORDS = 512
const SEVERITY_INFO = 9

export function createRawOtlp ({ url, workload, json = false }) {
  const line = rawLine(workload)
  const pending = []
  let batch = []
  const post = (records) => {
    const request = { resourceLogs: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'log-bench' } }] }, scopeLogs: [{ scope: { name: 'log-bench' }, logRecords: records }] }] }
    // protobufjs encodes plain objects of the message's shape directly (fromObject first costs 3x)
    const body = json ? JSON.stringify(request) : ExportLogsServiceRequest.encode(request).finish()
    pending.push(fetch(url, { method: 'POST', headers: { 'content-type': json ? 'application/json' : 'application/x-protobuf' }, body }).then(async (res) => {
      await res.arrayBuffer()
      if (!res.ok) throw new Error(`the OTLP receiver answered ${res.status}`)
    }))
  }
  const log = (message) => {
    // time_unix_nano: a number for protobuf's fixed64, a decimal string in OTLP/JSON
    const nanos = Date.now() * 1e6
    batch.push({ timeUnixNano: json ? String(nanos) : nanos, severityNumber: SEVERITY_INFO, severityText: 'INFO', body: { stringValue: line(message) } })
    if (batch.length === BATCH_RECORDS) {
      post(batch)
      batch = []
    }
  }
  return {
    log: line === null ? () => {} : log,
    async close () {
      if (batch.length) post(batch)
      batch = []
      await Promise.all(pending)
    }
  }
}
