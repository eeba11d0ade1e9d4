import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import dgram from 'node:dgram'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { udpSocketDrops } from '../src/sinks/udp-drops.js'
import { tmpDir } from './helpers.js'

test('udpSocketDrops reads the drops column of the listening socket on that port', () => {
  const table = path.join(tmpDir(), 'udp')
  fs.writeFileSync(table, [
    '   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops',
    '  101: 0100007F:15BA 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 1001 2 0000000000000000 1234',
    '  102: 0100007F:9C40 0100007F:15BA 01 00000000:00000000 00:00000000 00000000     0        0 1002 2 0000000000000000 99',
    '  103: 0100007F:0200 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 1003 2 0000000000000000 7',
    ''
  ].join('\n'))
  assert.equal(udpSocketDrops(5562, table), 1234, 'the listener on 0x15BA, not the sender connected to it')
  assert.equal(udpSocketDrops(512, table), 7)
  assert.equal(udpSocketDrops(4242, table), null, 'no socket on that port: unknown')
  assert.equal(udpSocketDrops(5562, path.join(tmpDir(), 'missing')), null, 'no /proc/net/udp: unknown')
})

test('what a full receive buffer dropped plus what was read is everything sent', { skip: fs.existsSync('/proc/net/udp') ? false : 'no /proc/net/udp (not Linux)' }, async () => {
  const socket = dgram.createSocket({ type: 'udp4', recvBufferSize: 8192 })
  let received = 0
  socket.on('message', () => { received++ })
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const { port } = socket.address()
  const sent = 3000
  // This process's event loop is blocked while the child sends, so the small buffer overflows.
  execFileSync(process.execPath, ['-e', `
    const s = require('node:dgram').createSocket('udp4')
    let left = ${sent}
    for (let i = 0; i < ${sent}; i++) s.send('datagram ' + i, ${port}, '127.0.0.1', () => { if (--left === 0) s.close() })
  `])
  const drops = udpSocketDrops(port)
  // received grows in the socket's message handler while this loop waits.
  // eslint-disable-next-line no-unmodified-loop-condition
  for (let i = 0; i < 100 && received + drops < sent; i++) await new Promise((resolve) => setTimeout(resolve, 20))
  socket.close()
  assert.ok(drops > 0, 'the buffer overflowed')
  assert.equal(received + drops, sent)
})
