import path from 'node:path'
import { fileURLToPath } from 'node:url'
import protobuf from 'protobufjs'

// OTLP's logs request and response, from the opentelemetry-proto definitions themselves
// (otlp-proto/, copied from github.com/open-telemetry/opentelemetry-proto v1.11.0, Apache-2.0)
// through protobufjs: the receiver decodes with them and raw encodes with them, so neither is a
// protobuf reader or writer of our own.
const here = path.dirname(fileURLToPath(import.meta.url))
const root = new protobuf.Root()
root.resolvePath = (origin, target) => path.join(here, 'otlp-proto', target)
root.loadSync('opentelemetry/proto/collector/logs/v1/logs_service.proto')

export const ExportLogsServiceRequest = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest')
export const ExportLogsServiceResponse = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse')
export const LongBits = protobuf.util.LongBits
