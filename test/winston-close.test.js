import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { describe, it } from 'node:test'
import { setImmediate as nextTurn } from 'node:timers/promises'
import adapter from '../src/loggers/winston.js'
import { tmpDir } from './helpers.js'

const lineCount = (text) => text.split('\n').filter(Boolean).length

describe('winston adapter: close() on the File transport', () => {
  it('resolves once every event is in the file', async () => {
    const file = path.join(tmpDir(), 'winston.log')
    const instance = await adapter.create({ transport: 'file', file, workload: 'string' })
    for (let seq = 0; seq < 2000; seq++) instance.log(`w0 ${seq}: Hello, world!`)
    await instance.close()
    assert.equal(lineCount(fs.readFileSync(file, 'utf8')), 2000)
  })

  // The state of the benchmark's failing runs, made deterministic: the file is a FIFO nobody reads
  // yet, so the File transport cannot write, its buffers fill and entries start to wait in the logger.
  // logger.end() at that point makes winston end the transport with those entries still queued.
  it('rejects with winston\'s "write after end" and the upstream issue when winston ends its transport too early', { timeout: 30_000 }, async (t) => {
    const file = path.join(tmpDir(), 'winston.fifo')
    execFileSync('mkfifo', [file])
    const instance = await adapter.create({ transport: 'file', file, workload: 'string' })
    const { logger } = instance
    let logged = 0
    while (logged < 10_000 && !(logger.readableLength > 0 && logger.writableLength === 0)) {
      instance.log(`w0 ${logged++}: ${'x'.repeat(600)}`)
      await nextTurn()
      await nextTurn()
    }
    assert.ok(logger.readableLength > 0, `no entry waited in the logger after ${logged} events`)

    const closing = instance.close()
    const reader = fs.createReadStream(file, { encoding: 'utf8' })
    t.after(() => reader.destroy())
    let text = ''
    reader.on('data', (chunk) => { text += chunk })
    await assert.rejects(closing, /^Error: winston threw "write after end" in logger\.end\(\).*winstonjs\/winston#2219/)
    await once(reader, 'close')
    assert.ok(lineCount(text) < logged, `${lineCount(text)} of ${logged} lines arrived`)
  })
})

describe('winston adapter: close() over syslog TCP', () => {
  // Paced runs: every event is sent long before close(), so winston-syslog's queue is empty when
  // the transport finishes inside logger.end(), and its close() emits 'closed' at once. close()
  // must still resolve (it waited for a 'closed' that had already passed).
  it('resolves when every event was sent before close()', { timeout: 30_000 }, async (t) => {
    let received = 0
    let allReceived
    const arrived = new Promise((resolve) => { allReceived = resolve })
    const server = net.createServer((socket) => socket.on('data', (chunk) => {
      for (const byte of chunk) if (byte === 10) received++
      if (received === 50) allReceived()
    }))
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    t.after(() => server.close())
    const instance = await adapter.create({ transport: 'tcp', host: '127.0.0.1', port: server.address().port, workload: 'string' })
    for (let seq = 0; seq < 50; seq++) {
      instance.log(`w0 ${seq}: Hello, world!`)
      await nextTurn()
    }
    await arrived
    // winston-syslog reconnects whenever its socket closes, its own close() included (its 'close'
    // handler in setupEvents), which would keep this test's process alive; log-bench's workers exit.
    instance.logger.transports[0].socket.removeAllListeners('close')
    const outcome = await Promise.race([
      instance.close().then(() => 'resolved'),
      new Promise((resolve) => setTimeout(resolve, 10_000, 'still pending after 10 s')).then((text) => { t.diagnostic(text); return text })
    ])
    assert.equal(outcome, 'resolved')
    assert.equal(received, 50)
  })
})
