import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import zlib from 'node:zlib'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import { decodeMulti } from '@msgpack/msgpack'
import { ExportLogsServiceRequest, ExportLogsServiceResponse } from '../src/engine/otlp-proto.js'
import { createOtlpReceiver } from '../src/sinks/otlp.js'
import { createForwardReceiver } from '../src/sinks/forward.js'

// The otlp and forward receivers count every record by worker id and sequence, and count what is
// not a record (a malformed request, a record without the benchmark's marker, a connection cut in
// the middle of a request) as such, then go on serving.
const require = createRequire(import.meta.url)
const protocol = require('@fluent-org/logger/build/src/protocol.js')
const { FluentServer } = require('@fluent-org/logger')
const PAYLOAD = 'Hello, world!'
const SETTINGS = { workers: 2, events: 10, payload: PAYLOAD, workload: 'string', quietMs: 100 }
const line = (worker, seq) => `w${worker} ${seq}: ${PAYLOAD}`

function otlpRequest (bodies) {
  return { resourceLogs: [{ scopeLogs: [{ logRecords: bodies.map((text) => ({ timeUnixNano: '1700000000000000000', body: { stringValue: text } })) }] }] }
}

async function post (url, body, type = 'application/x-protobuf') {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': type }, body })
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) }
}

// A POST whose connection is closed after half its declared body.
async function cutPost (port, body) {
  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  socket.write(`POST /v1/logs HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/x-protobuf\r\ncontent-length: ${body.length}\r\n\r\n`)
  socket.write(body.subarray(0, body.length >> 1))
  await new Promise((resolve) => setTimeout(resolve, 50))
  socket.destroy()
}

test('otlp: protobuf and JSON requests are verified record by record and answered with an ExportLogsServiceResponse', async () => {
  const receiver = await createOtlpReceiver(SETTINGS)
  try {
    const { url } = receiver.target(0)
    const proto = Buffer.from(ExportLogsServiceRequest.encode(ExportLogsServiceRequest.fromObject(otlpRequest([
      line(0, 0),
      line(0, 1),
      line(1, 9)
    ]))).finish())
    const answer = await post(url, proto)
    assert.equal(answer.status, 200)
    assert.equal(answer.type, 'application/x-protobuf')
    assert.deepEqual(ExportLogsServiceResponse.toObject(ExportLogsServiceResponse.decode(answer.bytes)), {})
    const gzipped = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' }, body: zlib.gzipSync(Buffer.from(ExportLogsServiceRequest.encode(ExportLogsServiceRequest.fromObject(otlpRequest([line(1, 3)]))).finish())) })
    assert.equal(gzipped.status, 200)
    const json = await post(url, JSON.stringify(otlpRequest([line(1, 0), line(0, 0)])), 'application/json')
    assert.equal(json.status, 200)
    assert.deepEqual(JSON.parse(json.bytes.toString()), {})
    const counts = await receiver.settle({ sent: 20 })
    assert.deepEqual([counts.received, counts.duplicates, counts.corrupt, counts.dropRate], [5, 1, 0, 0.75])
    assert.deepEqual(
      [counts.receiverStats.requests, counts.receiverStats.records, counts.receiverStats.malformedRequests],
      [3, 6, 0]
    )
    assert.equal(typeof counts.lastArrivalNs, 'bigint')
  } finally {
    await receiver.stop()
  }
})

test('otlp: a malformed request, a record without the benchmark\'s id and a cut connection are counted, and the receiver goes on', async () => {
  const receiver = await createOtlpReceiver(SETTINGS)
  try {
    const { url, port } = receiver.target(0)
    const bad = await post(url, Buffer.from([0xff, 0xff, 0xff, 0x07]))
    assert.equal(bad.status, 400)
    assert.equal((await post(url, '{"resourceLogs": 3}', 'application/json')).status, 400)
    assert.equal((await post(url.replace('/v1/logs', '/v1/traces'), 'x')).status, 404)
    const valid = Buffer.from(ExportLogsServiceRequest.encode(ExportLogsServiceRequest.fromObject(otlpRequest([line(0, 3), 'no marker here', line(7, 1)]))).finish())
    await cutPost(port, valid)
    assert.equal((await post(url, valid)).status, 200)
    const counts = await receiver.settle({ sent: 20 })
    assert.equal(counts.received, 1)
    assert.equal(counts.corrupt, 2, 'a record without the marker, and one of a worker that does not exist')
    assert.deepEqual(
      [counts.receiverStats.malformedRequests, counts.receiverStats.cutRequests, counts.receiverStats.requests],
      [3, 1, 3]
    )
  } finally {
    await receiver.stop()
  }
})

function sendForward (port, ...buffers) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      for (const buffer of buffers) socket.write(buffer)
      socket.end()
    })
    const answers = []
    socket.on('data', (data) => answers.push(...decodeMulti(data)))
    socket.on('error', reject)
    socket.on('close', () => resolve(answers))
  })
}

const FORWARD_MESSAGES = [
  protocol.encode(['log-bench', 1, { message: line(0, 0) }, { chunk: 'c1' }]),
  protocol.encode(['log-bench', [[1, { message: line(0, 1) }], [1, { message: line(1, 1) }]]]),
  protocol.encode(['log-bench', Buffer.concat([protocol.encode([1, { message: line(0, 2) }]), protocol.encode([1, { msg: line(1, 2) }])])]),
  protocol.encode(['log-bench', zlib.gzipSync(protocol.encode([1, { message: line(0, 3) }])), { compressed: 'gzip', chunk: 'c2' }])
]

test('forward: Message, Forward, PackedForward and CompressedPackedForward modes are verified entry by entry, and every chunk acked', async () => {
  const receiver = await createForwardReceiver(SETTINGS)
  try {
    const answers = await sendForward(receiver.target(0).port, ...FORWARD_MESSAGES)
    assert.deepEqual(answers, [{ ack: 'c1' }, { ack: 'c2' }])
    const counts = await receiver.settle({ sent: 20 })
    assert.deepEqual([counts.received, counts.corrupt, counts.duplicates], [6, 0, 0])
    assert.deepEqual(
      [counts.receiverStats.messages, counts.receiverStats.entries, counts.receiverStats.acks],
      [4, 6, 2]
    )
  } finally {
    await receiver.stop()
  }
})

test('forward: the receiver decodes the same entries as the fluent organisation\'s FluentServer', async () => {
  const server = new FluentServer({ listenOptions: { port: 0, host: '127.0.0.1' } })
  const theirs = []
  server.on('entry', (tag, time, record) => theirs.push(record.message ?? record.msg))
  await server.listen()
  const receiver = await createForwardReceiver(SETTINGS)
  try {
    await sendForward(server.port, ...FORWARD_MESSAGES)
    await sendForward(receiver.target(0).port, ...FORWARD_MESSAGES)
    const counts = await receiver.settle({ sent: 20 })
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.equal(theirs.length, 6)
    assert.equal(counts.receiverStats.entries, theirs.length)
    assert.equal(counts.received, new Set(theirs).size)
  } finally {
    await receiver.stop()
    await server.close()
  }
})

test('forward: garbage, a message that is not a transport message, a record without the benchmark\'s id and a connection cut midway are counted, and the receiver goes on', async () => {
  const receiver = await createForwardReceiver(SETTINGS)
  try {
    const { port } = receiver.target(0)
    await sendForward(port, Buffer.from([0xc1, 0xc1, 0xc1]))
    await sendForward(port, protocol.encode({ hello: 'world' }))
    const whole = protocol.encode(['log-bench', [[1, { message: line(0, 5) }], [1, { message: line(0, 6) }]]])
    await sendForward(port, protocol.encode(['log-bench', 1, { message: line(1, 4) }]), whole.subarray(0, whole.length - 20))
    await sendForward(port, protocol.encode(['log-bench', 1, { message: 'no marker here' }]), protocol.encode(['log-bench', 1, { message: line(1, 5) }]))
    const counts = await receiver.settle({ sent: 20 })
    assert.equal(counts.received, 2, 'the event before the cut message and the one after the record without the marker')
    assert.equal(counts.receiverStats.malformedMessages, 2)
    assert.equal(counts.receiverStats.cutConnections, 1)
    assert.ok(counts.corrupt >= 1, 'the record without the marker')
    assert.equal(counts.receiverStats.connections, 4)
  } finally {
    await receiver.stop()
  }
})

// The clients in the worker's place (in this process): raw delivers every event on both transports
// and each variant; a library through its integration delivers a batch that fits its queue by close().
async function deliver (transport, adapterName, variant, events) {
  const receiver = await (transport === 'otlp' ? createOtlpReceiver : createForwardReceiver)({ ...SETTINGS, workers: 1, events })
  try {
    const { default: adapter } = await import(`../src/loggers/${adapterName}.js`)
    const logger = await adapter.create({ transport, ...receiver.target(0), workerId: 0, workload: 'string', variant })
    for (let seq = 0; seq < events; seq++) logger.log(line(0, seq))
    await logger.close()
    return await receiver.settle({ sent: events })
  } finally {
    await receiver.stop()
  }
}

for (const [transport, variant] of [['otlp', 'default'], ['otlp', 'json'], ['forward', 'default'], ['forward', 'ack'], ['forward', 'fluent-org']]) {
  test(`raw over ${transport} (${variant}) delivers every event, batched`, async () => {
    const counts = await deliver(transport, 'raw', variant, 1500)
    assert.deepEqual([counts.received, counts.corrupt, counts.duplicates, counts.dropRate], [1500, 0, 0, 0])
    if (transport === 'otlp') assert.deepEqual([counts.receiverStats.requests, counts.receiverStats.malformedRequests], [3, 0])
    else if (variant !== 'fluent-org') assert.deepEqual([counts.receiverStats.messages, counts.receiverStats.acks], [3, variant === 'ack' ? 3 : 0])
  })
}

test('winston through @opentelemetry/winston-transport and bunyan through fluent-logger deliver what fits their queues once closed', async () => {
  const otlp = await deliver('otlp', 'winston', 'default', 300)
  assert.deepEqual([otlp.received, otlp.corrupt], [300, 0])
  const forward = await deliver('forward', 'bunyan', 'default', 300)
  assert.deepEqual([forward.received, forward.corrupt], [300, 0])
})
