// What the otlp and forward receivers accept, as a collector would, and no more: they run in the
// harness's primary, so a request or message that would take more memory or time than these
// allow is refused before it is inflated or decoded (docs/destinations.md, "Limits").
// --receiver-max-bytes: a request body or forward message as read, and once inflated; the
// OpenTelemetry Collector's confighttp refuses bodies over 20 MiB by default.
export const DEFAULT_RECEIVER_MAX_BYTES = 20 * 1024 * 1024
// --receiver-max-values: the values one request or message decodes into (each becomes a JS object
// or string), counted on the bytes before decoding. An empty log record is 2 bytes of protobuf and
// 100 bytes of objects: 20 MiB of them took the primary to 1.4 GB and 25 s. A batch processor's
// 512 records are a few thousand values.
export const DEFAULT_RECEIVER_MAX_VALUES = 1_000_000
// --receiver-max-requests: OTLP requests whose bodies are read, inflated and decoded at once; the
// others wait unread (the sender's connection is not read meanwhile).
export const DEFAULT_RECEIVER_MAX_REQUESTS = 4

export const receiverLimits = ({ receiverMaxBytes, receiverMaxValues, receiverMaxRequests } = {}) => ({
  maxBytes: receiverMaxBytes ?? DEFAULT_RECEIVER_MAX_BYTES,
  maxValues: receiverMaxValues ?? DEFAULT_RECEIVER_MAX_VALUES,
  maxRequests: receiverMaxRequests ?? DEFAULT_RECEIVER_MAX_REQUESTS
})
