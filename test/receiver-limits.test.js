import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import path from 'node:path'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import { ADAPTERS, leftovers, readJson, runCli, tmpDir } from './helpers.js'
import { createForwardReceiver } from '../src/sinks/forward.js'
import { createOtlpReceiver } from '../src/sinks/otlp.js'
import { msgpackExtent, msgpackStart } from '../src/sinks/receiver-limits.js'

// The otlp and forward receivers refuse what a collector would (docs/destinations.md, "Limits"):
// each bomb of test/fixtures/adapters/bombs.js, sent by an adapter, fails its run with the cause
// while log-bench writes its results and exits 0. The limits are set low so the bombs stay small.
const require = createRequire(import.meta.url)
const protocol = require('@fluent-org/logger/build/src/protocol.js')
const BOMBS = path.join(ADAPTERS, 'bombs.js')
const LIMITS = ['--receiver-max-bytes', '1048576', '--receiver-max-values', '100000']
const RUN_TIMEOUT_S = 60

const CASES = [
  { bomb: 'forward-compressed', transport: 'forward', bytes: 4_000_000, error: /^the forward receiver closed a connection: a CompressedPackedForward message's entries inflate past 1 MiB/ },
  { bomb: 'forward-big-bin', transport: 'forward', error: /^the forward receiver closed a connection: a forward message announces a 1 GiB bin, over the 1 MiB limit/ },
  { bomb: 'otlp-json-gzip', transport: 'otlp', bytes: 4_000_000, error: /^the OTLP receiver refused a request: request body inflates past 1 MiB \(answered 413\)$/ },
  { bomb: 'otlp-deflate', transport: 'otlp', error: /^the OTLP receiver refused a request: content-encoding deflate is not accepted \(gzip or none\) \(answered 415\)$/ },
  { bomb: 'otlp-protobuf', transport: 'otlp', bytes: 1_000_000, error: /^the OTLP receiver refused a request: request holds more than 100000 values \(records, attributes, strings\) \(answered 413\)$/ },
  { bomb: 'otlp-concurrent', transport: 'otlp', bytes: 2_000_000, error: /^the OTLP receiver refused a request: request body runs past 1 MiB \(answered 413\)$/ }
]

for (const c of CASES) {
  test(`${c.bomb}: the run fails with the receiver's cause, and log-bench writes its results`, async () => {
    const out = path.join(tmpDir(), 'r.json')
    const env = { LOG_BENCH_BOMB: c.bomb, ...(c.bytes ? { LOG_BENCH_BOMB_BYTES: String(c.bytes) } : {}) }
    const result = await runCli(['run', '--lib', BOMBS, '--transport', c.transport, '--events', '100', '--runs', '1', '--timeout', String(RUN_TIMEOUT_S), ...LIMITS, '--out', out, '--quiet'], { env })
    assert.equal(result.code, 0, result.stderr)
    const doc = readJson(out)
    assert.deepEqual(doc.env.options.receiverLimits, { maxBytes: 1048576, maxValues: 100000, maxRequests: 4 })
    const [run] = doc.runs
    assert.equal(run.status, 'failed')
    assert.match(run.error, c.error)
    assert.deepEqual(leftovers(result.tag), [])
  })
}

async function forwardConnection (port, ...buffers) {
  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  socket.on('error', () => {})
  const closed = new Promise((resolve) => socket.on('close', resolve))
  for (const buffer of buffers) socket.write(buffer)
  return { socket, closed }
}

test('forward: a message arriving a byte at a time is acked; one whose entries decode past the values limit closes its connection', async () => {
  const receiver = await createForwardReceiver({ workers: 1, events: 10, payload: 'Hello, world!', workload: 'string', quietMs: 100, receiverMaxValues: 100 })
  try {
    const { port } = receiver.target(0)
    const message = protocol.encode(['log-bench', [[1, { message: 'w0 0: Hello, world!' }]], { chunk: 'c1' }])
    const { socket, closed } = await forwardConnection(port)
    const acked = once(socket, 'data')
    for (const byte of message) socket.write(Buffer.from([byte]))
    assert.deepEqual(protocol.decode((await acked)[0]), { ack: 'c1' })
    socket.end()
    await closed
    const entries = Buffer.concat(Array.from({ length: 40 }, (_, seq) => protocol.encode([1, { message: `w0 ${seq}: Hello, world!` }])))
    await (await forwardConnection(port, protocol.encode(['log-bench', entries]))).closed
    const counts = await receiver.settle({ sent: 10 })
    assert.equal(counts.received, 1)
    assert.deepEqual([counts.receiverStats.refusedMessages, counts.receiverStats.cutConnections], [1, 0])
    assert.equal(await receiver.failureCause(), 'the forward receiver closed a connection: a PackedForward message holds more than 100 values in its entries')
  } finally {
    await receiver.stop()
  }
})

test('otlp: a body announced over the limit is answered 413 before it is sent; requests past --receiver-max-requests wait their turn, and one cut while waiting frees it', async () => {
  const receiver = await createOtlpReceiver({ workers: 1, events: 10, payload: 'Hello, world!', workload: 'string', quietMs: 100, receiverMaxBytes: 1024, receiverMaxRequests: 1 })
  try {
    const { url, port } = receiver.target(0)
    const announced = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '2048' }, body: 'x'.repeat(2048) }).then((res) => res.status, (err) => err.cause?.code)
    assert.ok(announced === 413 || announced === 'ECONNRESET' || announced === 'UND_ERR_SOCKET', `got ${announced}`)
    // The first request holds the one slot: its body never ends.
    const holder = net.connect(port, '127.0.0.1')
    await once(holder, 'connect')
    holder.write('POST /v1/logs HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{')
    const waiter = net.connect(port, '127.0.0.1')
    await once(waiter, 'connect')
    waiter.write('POST /v1/logs HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{')
    const body = JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'w0 0: Hello, world!' } }] }] }] })
    const answered = fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((res) => res.status)
    await new Promise((resolve) => setTimeout(resolve, 100))
    assert.equal(receiver.stats().requests, 0, 'nothing was read past the slot')
    waiter.destroy()
    holder.destroy()
    assert.equal(await answered, 200)
    const counts = await receiver.settle({ sent: 10 })
    assert.deepEqual(
      [counts.received, counts.receiverStats.cutRequests, counts.receiverStats.refusedRequests],
      [1, 2, 1]
    )
  } finally {
    await receiver.stop()
  }
})

test('msgpackExtent: finds where a value ends across pieces, and refuses what its headers announce past the limits', () => {
  const limits = { maxBytes: 1024, maxValues: 10 }
  const value = Buffer.from(protocol.encode(['tag', [[1, { a: 'b' }]]]))
  const state = msgpackStart()
  assert.deepEqual(msgpackExtent(value.subarray(0, 5), state, limits), { incomplete: true })
  assert.deepEqual(msgpackExtent(value, state, limits), { end: value.length, values: 8 })
  assert.deepEqual(msgpackExtent(Buffer.from([0xc6, 0, 0, 8, 0]), msgpackStart(), limits), { refused: 'announces a 2 KiB bin, over the 1 KiB limit' })
  assert.deepEqual(msgpackExtent(Buffer.from([0xdd, 0, 0, 0, 20]), msgpackStart(), limits), { refused: 'announces an array of 20 entries, past the limit of 10 values' })
  assert.deepEqual(msgpackExtent(Buffer.from([0x94, 0x93, 1, 2, 3, 0x93, 1, 2, 3, 0x93, 1, 2, 3]), msgpackStart(), limits), { refused: 'holds more than 10 values' })
  assert.deepEqual(msgpackExtent(Buffer.from([0xc1]), msgpackStart(), limits), { malformed: 'byte 0xc1 is not msgpack' })
})
