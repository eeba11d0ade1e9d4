// What each event carries besides its message. Every adapter imports these definitions, so every
// library logs the same content; each applies them through its own idiom (see docs/workloads.md).
// The message itself ("w<worker> <seq>: <payload>") is built by the worker loop for every workload.

export const WORKLOADS = ['string', 'object', 'deep', 'child', 'interpolate', 'error', 'disabled']
export const DEFAULT_WORKLOAD = 'string'

// A flat object as most structured logs look: strings, numbers, a boolean.
export const OBJECT_FIELDS = Object.freeze({ reqId: 'req-7f3a9c', user: 'u-1042', status: 200, durationMs: 12.5, cached: false, region: 'eu-west-1' })

// Objects and arrays a few levels deep (a request and its response as a service might log them).
export const DEEP_FIELDS = Object.freeze({
  req: { id: 'req-7f3a9c', method: 'GET', url: '/api/orders?page=2', headers: { host: 'example.test', accept: ['application/json', 'text/plain'] } },
  res: { statusCode: 200, timings: [1.5, 3.25, 7], trace: { spans: [{ name: 'db', tags: { table: 'orders-deep', rows: 25 } }] } }
})

// Bound once per worker to a child logger, before the start.
export const CHILD_FIELDS = Object.freeze({ service: 'svc-checkout', instance: 'node-7a1' })

// util.format-style: the message first, so the marker opens the formatted text.
export const FORMAT = '%s user=%s status=%d'
export const FORMAT_USER = 'u-1042'
export const FORMAT_STATUS = 200

export const ERROR_MESSAGE = 'bench failure ECONNRESET'
const ERROR_SITE = 'benchErrorSite'

// One Error per worker, made when this module loads (so every adapter logs the same stack): the
// workload measures logging an Error (its message and stack), not capturing a stack per event.
const sharedError = ({ [ERROR_SITE]: () => new Error(ERROR_MESSAGE) })[ERROR_SITE]()
export function benchError () {
  return sharedError
}

// What the receiving end checks on each intact line besides the marker and payload: distinctive
// values that appear verbatim whatever a library's format (JSON with or without spaces, util.inspect,
// key=value), anywhere on the same line. A line with the marker but without them lost its fields.
// object: the first and last field's values; deep: the shallowest and the deepest string value;
// child: both bound values; error: the error's message and the stack frame of the function that
// made it; interpolate: the interpolated arguments, each on its own (a library that renders
// strings through util.inspect, as LogTape's message templates do, quotes them: user='u-1042'),
// with the number after its label, which only an interpolated status=%d can produce.
export const FIELD_TOKENS = Object.freeze({
  object: [OBJECT_FIELDS.reqId, OBJECT_FIELDS.region],
  deep: [DEEP_FIELDS.req.id, DEEP_FIELDS.res.trace.spans[0].tags.table],
  child: [CHILD_FIELDS.service, CHILD_FIELDS.instance],
  error: [ERROR_MESSAGE, ERROR_SITE],
  interpolate: [FORMAT_USER, `status=${FORMAT_STATUS}`]
})

export function fieldTokens (workload) {
  return FIELD_TOKENS[workload] ?? []
}

// The workloads an adapter declares (absent: only the seed's call), and why it lacks one.
export function adapterWorkloads (adapter) {
  return adapter.workloads ?? [DEFAULT_WORKLOAD]
}

export function unsupportedWorkloadReason (lib, workload) {
  return lib.adapter.unsupportedWorkloads?.[workload] ?? `${lib.name} does not implement the ${workload} workload (it implements: ${adapterWorkloads(lib.adapter).join(', ')})`
}

// A declared workload may still be impossible on one transport (a library that writes error
// records to stderr cannot deliver them to the console transport, which receives stdout): the
// adapter then gives unsupportedWorkloads: { error: { console: 'why' } }. Null when it can run.
export function workloadTransportUnsupported (lib, workload, transport) {
  const reasons = lib.adapter.unsupportedWorkloads?.[workload]
  return typeof reasons === 'object' && reasons !== null ? reasons[transport] ?? null : null
}

// The one switch over workloads that every adapter's log(message) goes through: the adapter gives,
// in its library's idiom, a builder per kind of call, and this hands each the workload's content.
// A builder returns log(message) itself, so that the call a run times is the adapter's own closure,
// with nothing in between. The builders (each optional but `string`):
//   string: () => log                  the seed's plain call
//   fields: (fields) => log            object and deep: OBJECT_FIELDS or DEEP_FIELDS with the message
//   child: (fields) => log             a child logger bound once to CHILD_FIELDS
//   interpolate: ({ format, user, status }) => log   util.format-style FORMAT with its arguments
//   error: (err) => log                the worker's one Error with the message
//   disabled: () => log                a call at a level the logger disables
// A workload the adapter has no builder for gets the plain call; it never runs, since a cell whose
// workload the adapter does not declare is recorded unsupported (src/runner/unsupported.js).
export function workloadCall (workload, builders) {
  const build = (kind, ...content) => (builders[kind] ?? builders.string)(...content)
  switch (workload) {
    case 'object': return build('fields', OBJECT_FIELDS)
    case 'deep': return build('fields', DEEP_FIELDS)
    case 'child': return build('child', CHILD_FIELDS)
    case 'interpolate': return build('interpolate', { format: FORMAT, user: FORMAT_USER, status: FORMAT_STATUS })
    case 'error': return build('error', benchError())
    case 'disabled': return build('disabled')
    default: return builders.string()
  }
}

// pino and bunyan share one calling convention: fields first, then the message; Errors as the
// first argument; child(fields); util.format-style interpolation. Returns log(message).
export function fieldsFirstCall (logger, workload) {
  return workloadCall(workload, {
    string: () => (message) => logger.info(message),
    fields: (fields) => (message) => logger.info(fields, message),
    child: (fields) => {
      const child = logger.child(fields)
      return (message) => child.info(message)
    },
    interpolate: ({ format, user, status }) => (message) => logger.info(format, message, user, status),
    error: (err) => (message) => logger.error(err, message),
    disabled: () => (message) => logger.debug(message)
  })
}

// The raw baseline's line for a workload, written by hand: the same content a JSON logger writes,
// with everything that does not change between events serialised once. null: nothing is written
// (disabled: the cheapest level check is not calling at all). The payload never needs JSON
// escaping (letters, digits, spaces and punctuation only).
export function rawLine (workload) {
  const json = (fields) => {
    const tail = '",' + JSON.stringify(fields).slice(1)
    return (message) => '{"msg":"' + message + tail
  }
  return workloadCall(workload, {
    string: () => (message) => message,
    fields: json,
    child: json,
    interpolate: ({ user, status }) => (message) => message + ' user=' + user + ' status=' + status,
    error: (err) => json({ err: { type: err.name, message: err.message, stack: err.stack } }),
    disabled: () => null
  })
}

// What a finished run should have delivered. For `disabled` nothing may arrive: sent stays the
// number of calls, expected is 0, drop rate has no meaning (null), and any arrival, intact or not,
// fails the run. Every run also gets nsPerEvent: the caller's cost per log() call.
export function judgeArrivals (result, { workload, events }) {
  const nsPerEvent = result.unblockedMs != null ? (result.unblockedMs * 1e6) / events : null
  if (workload !== 'disabled') return { ...result, expected: result.sent, nsPerEvent }
  const judged = { ...result, expected: 0, dropRate: null, nsPerEvent }
  const arrived = result.received == null ? null : result.received + (result.corrupt ?? 0) + (result.duplicates ?? 0)
  if (result.ok && arrived > 0) {
    return { ...judged, ok: false, status: 'failed', error: `${arrived} events arrived although the level disables them`, failure: { kind: 'error' } }
  }
  return judged
}
