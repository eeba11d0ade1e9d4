import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import dgram from 'node:dgram'
import net from 'node:net'
import { test } from 'node:test'
import { mergeCounts, nativeUdpReceiver, SINK_NICE, spawnSink, startSink } from '../src/sinks/embedded-sink.js'
import { createSyslogReceiver } from '../src/sinks/syslog.js'
import { RunFailure } from '../src/errors.js'
import { leftovers, runCli } from './helpers.js'

const PAYLOAD = 'Hello, world!'
const event = (worker, seq) => `<14>1 - - - - - - w${worker} ${seq}: ${PAYLOAD}`

function sendUdp (port, messages) {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4')
    let left = messages.length
    for (const m of messages) {
      socket.send(m, port, '127.0.0.1', (err) => {
        if (err) reject(err)
        if (--left === 0) socket.close(resolve)
      })
    }
  })
}

function sendTcp (port, chunks, { reset = false } = {}) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      for (const chunk of chunks) socket.write(chunk)
      if (reset) socket.resetAndDestroy()
      else socket.end()
    })
    socket.on('error', () => {})
    socket.on('close', resolve)
  })
}

async function until (sink, predicate) {
  for (let i = 0; i < 200; i++) {
    const counts = await sink.counts()
    if (predicate(counts)) return counts
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return sink.counts()
}

test('the sink process counts received, duplicates and corrupt events, and when the last one arrived', async () => {
  const sink = await spawnSink({ udpPort: 0, tcpPort: 0, workers: 2, events: 10, payload: PAYLOAD })
  try {
    assert.ok(sink.udpReceiveBufferBytes > 0)
    const before = process.hrtime.bigint()
    await sendUdp(sink.udpPort, [event(0, 0), event(0, 1), event(0, 1), event(1, 9), event(2, 0), event(0, 10), '<14>1 - - - - - - w0 3: Hello, wor', 'no pri'])
    await sendTcp(sink.tcpPort, [`${event(1, 0)}\n`, `${event(1, 1).length} ${event(1, 1)}`, `${event(1, 2)}\n`])
    const counts = await until(sink, (c) => c.frames === 11)
    const { received, duplicates, corrupt, frames } = counts
    assert.deepEqual({ received, duplicates, corrupt, frames }, { received: 6, duplicates: 1, corrupt: 4, frames: 11 })
    assert.ok(BigInt(counts.lastArrivalNs) > before, 'arrival time is process.hrtime.bigint() of this host')
  } finally {
    await sink.stop()
  }
})

test('UDP read by several processes sharing one socket: counts merged, duplicates across readers found', async () => {
  const sink = await spawnSink({ udpPort: 0, tcpPort: 0, workers: 1, events: 400, payload: PAYLOAD, udpReceivers: 2 })
  try {
    const messages = []
    for (let seq = 0; seq < 400; seq++) messages.push(event(0, seq), event(0, seq))
    await sendUdp(sink.udpPort, messages)
    await sendTcp(sink.tcpPort, [`${event(0, 0)}\n`])
    await until(sink, (c) => c.frames === 801)
    const counts = await sink.counts({ exact: true })
    assert.equal(counts.frames, 801)
    assert.equal(counts.received, 400)
    assert.equal(counts.duplicates, 401)
  } finally {
    await sink.stop()
  }
})

// npm install builds native/udp_receiver.c; where it could not (no compiler) the sink falls back to
// node:dgram, and this test says so. CI sets LOG_BENCH_REQUIRE_NATIVE=1: there it must be built.
const nativeSkip = nativeUdpReceiver() || process.env.LOG_BENCH_REQUIRE_NATIVE ? false : 'the native UDP receiver is not built (npm rebuild needs python3, make, a C compiler); the sink uses node:dgram'

test('the native UDP receiver drains bursts from several senders without loss, in one process', { skip: nativeSkip }, async () => {
  assert.ok(nativeUdpReceiver(), 'build/Release/udp_receiver.node is built and loads')
  const senders = 4
  const events = 20_000
  const sink = await spawnSink({ udpPort: 0, workers: senders, events, payload: PAYLOAD })
  try {
    const before = process.hrtime.bigint()
    await Promise.all(Array.from({ length: senders }, (_, w) => new Promise((resolve, reject) => {
      const socket = dgram.createSocket('udp4')
      let seq = 0
      let pending = 0
      const more = () => {
        while (seq < events && pending < 2000) {
          pending++
          socket.send(event(w, seq++), sink.udpPort, '127.0.0.1', (err) => {
            if (err) return reject(err)
            if (--pending === 0 && seq === events) socket.close(resolve)
            else if (pending === 1000) setImmediate(more)
          })
        }
      }
      more()
    })))
    const counts = await until(sink, (c) => c.frames === senders * events)
    assert.deepEqual(
      { received: counts.received, duplicates: counts.duplicates, corrupt: counts.corrupt },
      { received: senders * events, duplicates: 0, corrupt: 0 }
    )
    assert.ok(BigInt(counts.lastArrivalNs) > before && BigInt(counts.lastArrivalNs) < process.hrtime.bigint(), 'arrival time is on process.hrtime\'s clock')
    assert.ok(counts.udpQueuedBytesMax > 0, 'batches went through the receiver\'s queue')
    // Root may raise the receiving thread's priority, and the harness does; others stay at 0.
    assert.equal(sink.priority, process.getuid() === 0 ? SINK_NICE : 0)
  } finally {
    await sink.stop()
  }
})

test('merging bitsets: union is received, the overlap is duplicates', () => {
  const part = (bytes, received, duplicates) => ({
    sent: 16,
    received,
    duplicates,
    corrupt: 1,
    frames: received + duplicates + 1,
    connections: 0,
    lastArrivalNs: String(received),
    bits: [Uint8Array.from(bytes)]
  })
  const merged = mergeCounts([part([0b1111, 0], 4, 1), part([0b0011, 0b1], 3, 0)], true)
  const { received, duplicates, corrupt, lastArrivalNs, dropRate } = merged
  assert.deepEqual({ received, duplicates, corrupt, lastArrivalNs, dropRate }, { received: 5, duplicates: 3, corrupt: 2, lastArrivalNs: '4', dropRate: 11 / 16 })
})

test('hostile input: random bytes, partial frames, absurd counts, oversized frames, thousands of dropped connections', async () => {
  const sink = await spawnSink({
    udpPort: 0,
    tcpPort: 0,
    workers: 1,
    events: 100,
    payload: PAYLOAD,
    maxFrameBytes: 4096
  })
  try {
    await sendUdp(sink.udpPort, [randomBytes(1500), randomBytes(60000), Buffer.alloc(0)])
    await sendTcp(sink.tcpPort, [randomBytes(100_000)])
    await sendTcp(sink.tcpPort, ['999999999999 <14>x\n'])
    await sendTcp(sink.tcpPort, ['4000000000 ', 'x'.repeat(10_000)])
    await sendTcp(sink.tcpPort, ['<14>' + 'y'.repeat(50_000) + '\n'])
    await sendTcp(sink.tcpPort, ['80 <14>1 - - - - - - w0 5: Hel'], { reset: true })
    const connections = []
    for (let i = 0; i < 2000; i++) {
      connections.push(sendTcp(sink.tcpPort, i % 2 ? [] : ['57 <14>1 - - '], { reset: i % 3 === 0 }))
      if (connections.length >= 200) await Promise.all(connections.splice(0))
    }
    await Promise.all(connections)
    const hostile = await sink.counts()
    assert.ok(hostile.corrupt >= 5, `hostile input counted as corrupt (${hostile.corrupt})`)
    assert.equal(hostile.received, 0)
    await sendUdp(sink.udpPort, [event(0, 1)])
    await sendTcp(sink.tcpPort, [`${event(0, 2)}\n`])
    const after = await until(sink, (c) => c.received === 2)
    assert.equal(after.received, 2, 'the sink keeps going after hostile input')
    assert.ok(after.connections >= 2006)
  } finally {
    await sink.stop()
  }
})

test('a port already in use is one clear error', async () => {
  const first = await startSink({ udpPort: 0, tcpPort: 0, workers: 1, events: 1, payload: PAYLOAD })
  try {
    await assert.rejects(startSink({ tcpPort: first.tcpPort, workers: 1, events: 1, payload: PAYLOAD }), /port 127\.0\.0\.1:\d+\/tcp is already in use/)
    await assert.rejects(spawnSink({ udpPort: first.udpPort, workers: 1, events: 1, payload: PAYLOAD }), /\/udp is already in use/)
    const cli = await runCli(['sink', '--tcp', String(first.tcpPort)])
    assert.equal(cli.code, 2)
    assert.match(cli.stderr, /^log-bench: port .* is already in use/)
    assert.deepEqual(leftovers(cli.tag), [])
  } finally {
    await first.close()
  }
})

test('a sink that dies mid-run fails the run with the reason', async () => {
  const receiver = await createSyslogReceiver('udp', { workers: 1, events: 10, payload: PAYLOAD, syslog: 'embedded' })
  try {
    const { port } = receiver.target(0)
    await sendUdp(port, [event(0, 0)])
    process.kill(receiver.sinkPid, 'SIGKILL')
    await assert.rejects(receiver.settle({ sent: 10 }), (err) => err instanceof RunFailure && /embedded syslog sink \(pid \d+\) was killed by SIGKILL/.test(err.message))
  } finally {
    await receiver.stop()
  }
})

test('an external server: counts are unknown (null), never 0', async () => {
  const receiver = await createSyslogReceiver('tcp', { workers: 1, events: 10, payload: PAYLOAD, syslogHost: '127.0.0.1', syslogPort: 5514 })
  assert.deepEqual(receiver.target(3), { host: '127.0.0.1', port: 5514, protocol: 'tcp' })
  assert.deepEqual(await receiver.settle({ sent: 10 }), { sent: 10, received: null, corrupt: null, duplicates: null, dropRate: null, lastArrivalNs: null, deliveryNote: 'your syslog server: arrivals are not seen' })
  await receiver.stop()
})

test('log-bench sink prints the counts when stopped', async () => {
  const port = await new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)) })
  })
  const result = await runCli(['sink', '--tcp', String(port), '--workers', '1', '--events', '5'], {
    onSpawn (child) {
      child.stderr.once('data', async () => {
        await sendTcp(port, [`${event(0, 1)}\n${event(0, 1)}\n<14>1 - - - - - - w9 1: nope\n`])
        setTimeout(() => child.kill('SIGINT'), 300)
      })
    }
  })
  assert.equal(result.code, 0, result.stderr)
  assert.match(result.stdout, /frames 3, received 1, corrupt 1, duplicates 1/)
  assert.deepEqual(leftovers(result.tag), [])
})
