import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
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
