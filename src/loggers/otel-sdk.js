// The OpenTelemetry Logs SDK as the integrations' READMEs set it up: a LoggerProvider with a
// BatchLogRecordProcessor on its defaults (batches of 512, every 1 s, a queue of 2048 records
// beyond which records are dropped) and the OTLP/HTTP exporter (protobuf, or JSON for the json
// variant) to the receiver's url, registered as the global provider the integrations log through.
// close: the provider's shutdown() exports what the processor still holds and resolves when the
// exporter is done.
export async function otelProvider ({ url, json = false }) {
  const { LoggerProvider, BatchLogRecordProcessor } = await import('@opentelemetry/sdk-logs')
  const { logs } = await import('@opentelemetry/api-logs')
  const { OTLPLogExporter } = json ? await import('@opentelemetry/exporter-logs-otlp-http') : await import('@opentelemetry/exporter-logs-otlp-proto')
  const exporter = new OTLPLogExporter({ url })
  const provider = new LoggerProvider({ processors: [new BatchLogRecordProcessor({ exporter })] })
  logs.setGlobalLoggerProvider(provider)
  return provider
}

export const OTLP_JSON_VARIANT = {
  describe: 'OTLP/HTTP with JSON bodies (@opentelemetry/exporter-logs-otlp-http) instead of protobuf',
  docs: 'https://github.com/open-telemetry/opentelemetry-js/tree/main/experimental/packages/exporter-logs-otlp-http',
  transports: ['otlp']
}
