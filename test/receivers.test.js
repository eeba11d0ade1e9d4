import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { tmpDir } from './helpers.js'
import { createReceiver, TRANSPORTS } from '../src/sinks/index.js'
import { payloadOfSize } from '../src/engine/message.js'

// Every transport's receiving end provides the Receiver interface written down in src/sinks/index.js
// (and docs/architecture.md): what the runners of run and http call on it.
const REQUIRED = { target: 'function', consumesStdout: 'boolean', attach: 'function', settle: 'function', doneMeans: 'string', stop: 'function' }
const OPTIONAL = { stdoutFor: 'function', forked: 'function', onFailure: 'function', progress: 'function', failureCause: 'function' }

test('every transport\'s receiver provides the receiver interface, and stops', async () => {
  assert.deepEqual(TRANSPORTS, ['console', 'file', 'udp', 'tcp', 'otlp', 'forward'])
  for (const transport of TRANSPORTS) {
    const dir = tmpDir()
    const receiver = await createReceiver(transport, { workers: 1, events: 10, payload: payloadOfSize(13), workload: 'string', dir })
    try {
      for (const [member, type] of Object.entries(REQUIRED)) assert.equal(typeof receiver[member], type, `${transport}: ${member}`)
      for (const [member, type] of Object.entries(OPTIONAL)) if (member in receiver) assert.equal(typeof receiver[member], type, `${transport}: ${member}`)
      const target = receiver.target(0)
      assert.equal(typeof target, 'object', transport)
      if (transport === 'file') assert.equal(typeof target.file, 'string')
      if (transport === 'udp' || transport === 'tcp' || transport === 'forward') assert.deepEqual([target.host, typeof target.port, target.protocol], ['127.0.0.1', 'number', transport])
      if (transport === 'otlp') assert.equal(target.url, `http://127.0.0.1:${target.port}/v1/logs`)
      if (receiver.progress) assert.ok('arrived' in receiver.progress(), transport)
    } finally {
      await receiver.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
})
