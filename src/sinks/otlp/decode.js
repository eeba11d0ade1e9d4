import { ExportLogsServiceRequest as Request, ExportLogsServiceResponse as Response, LongBits } from '../../engine/otlp-proto.js'

// An empty ExportLogsServiceResponse (no partial_success): every record was accepted.
export const PROTOBUF_RESPONSE = Buffer.from(Response.encode(Response.create({})).finish())
export const JSON_RESPONSE = Buffer.from(JSON.stringify(Response.toObject(Response.create({}))))

// The log records of one request as plain objects in the OTLP/JSON shape ({ body: { stringValue },
// attributes: [{ key, value: { stringValue | intValue | … } }] }); throws on a body that is not an
// ExportLogsServiceRequest. OTLP/JSON is checked against the same message type (fromObject), so a
// request that protobuf would refuse is refused in JSON too.
export function decodeRequest (bytes, json) {
  const message = json ? Request.fromObject(JSON.parse(bytes.toString('utf8'))) : Request.decode(bytes)
  const error = Request.verify(message)
  if (error) throw new Error(error)
  const records = []
  for (const resourceLogs of message.resourceLogs) {
    for (const scopeLogs of resourceLogs.scopeLogs) {
      for (const record of scopeLogs.logRecords) records.push(record)
    }
  }
  return records
}

// What the verifier reads of one record: the body's text, then every attribute as key=value, so a
// workload's field tokens count wherever the integration put them (pino's fields and winston's
// metadata become attributes, the message the body).
export function recordText (record) {
  let text = anyValueText(record.body)
  for (const attribute of record.attributes ?? []) text += ` ${attribute.key}=${anyValueText(attribute.value)}`
  return text
}

// AnyValue's oneof `value` names the field that is set (protobufjs gives every other field its
// default on the prototype, so presence is read from the oneof, not from the fields).
function anyValueText (value) {
  const kind = value?.value
  if (!kind) return ''
  const held = value[kind]
  switch (kind) {
    case 'stringValue': return held
    case 'intValue': return typeof held === 'object' ? LongBits.from(held).toNumber().toString() : String(held)
    case 'arrayValue': return (held.values ?? []).map(anyValueText).join(',')
    case 'kvlistValue': return (held.values ?? []).map((kv) => `${kv.key}=${anyValueText(kv.value)}`).join(' ')
    case 'bytesValue': return Buffer.from(held).toString('latin1')
    default: return String(held)
  }
}
