import assert from 'node:assert/strict'
import { test } from 'node:test'
import { datagramText, parseSyslog, TcpFramer } from '../src/sinks/syslog-parse.js'

test('RFC 5424: header fields and structured data are skipped, MSG is what was logged', () => {
  assert.deepEqual(parseSyslog('<134>1 2016-04-01T16:44:58Z host - 94473 - - {"msg":"w0 1: Hello"}'),
    { format: 'rfc5424', pri: 134, message: '{"msg":"w0 1: Hello"}' })
  assert.equal(parseSyslog('<14>1 - - - - - - w0 1: Hello').message, 'w0 1: Hello')
  assert.equal(parseSyslog('<14>1 - h a p m [id@1 k="v \\] x"][b@2 q="r"] w0 2: Hi').message, 'w0 2: Hi')
  assert.equal(parseSyslog('<14>1 - - - - - -').message, '')
  assert.equal(parseSyslog('<14>1 - - - - - [unterminated w0 1: Hi'), null)
  assert.equal(parseSyslog('<14>1 - - -'), null)
})

test('RFC 3164 and the variants libraries send', () => {
  assert.equal(parseSyslog('<134>Nov 21 23:55:00 localhost node[1234]: w0 5: Hello').message, 'w0 5: Hello')
  assert.equal(parseSyslog('<134>Nov  1 03:05:00 localhost app: w0 5: Hello').message, 'w0 5: Hello')
  // bunyan-syslog: ISO timestamp and no space after the colon
  assert.equal(parseSyslog('<14>2024-01-02T03:04:05.678Z myhost log-bench[77]:{"msg":"w1 9: Hi"}').message, '{"msg":"w1 9: Hi"}')
  assert.equal(parseSyslog('<13>just text').message, 'just text')
})

test('not syslog: no PRI, PRI out of range or with a leading zero', () => {
  for (const text of ['', 'hello', '<>x', '<192>x', '<01>x', '<1234>x', '<a>x', '14>1 - - -']) {
    assert.equal(parseSyslog(text), null, text)
  }
})

test('a datagram loses one trailing newline, nothing else', () => {
  assert.equal(datagramText(Buffer.from('<14>x\n')), '<14>x')
  assert.equal(datagramText(Buffer.from('<14>x\n\n')), '<14>x\n')
  assert.equal(datagramText(Buffer.alloc(0)), '')
  // One record inside a larger buffer, as the native receiver's batches hold them.
  const batch = Buffer.from('ab<14>y\ncd')
  assert.equal(datagramText(batch, 2, 8), '<14>y')
  assert.equal(datagramText(batch, 2, 2), '')
})

function framer (maxFrameBytes = 1000) {
  const frames = []
  const corrupt = []
  const f = new TcpFramer({ onFrame: (t) => frames.push(t), onCorrupt: (why) => corrupt.push(why), maxFrameBytes })
  return { f, frames, corrupt }
}

test('TCP: newline and octet-counted frames, mixed, split at every byte', () => {
  const octets = (m) => `${m.length} ${m}`
  const stream = Buffer.from(`<14>a\r\n${octets('<14>b\nc d')}${octets('<14>e')}<14>f\n`)
  const whole = framer()
  whole.f.push(stream)
  whole.f.end()
  assert.deepEqual(whole.frames, ['<14>a', '<14>b\nc d', '<14>e', '<14>f'])
  assert.deepEqual(whole.corrupt, [])
  const bytewise = framer()
  for (let i = 0; i < stream.length; i++) bytewise.f.push(stream.subarray(i, i + 1))
  bytewise.f.end()
  assert.deepEqual(bytewise.frames, whole.frames)
})

test('TCP: a last newline-framed message without its LF still counts; a cut octet frame is corrupt', () => {
  const a = framer()
  a.f.push(Buffer.from('<14>a\n<14>b'))
  a.f.end()
  assert.deepEqual(a.frames, ['<14>a', '<14>b'])
  const b = framer()
  b.f.push(Buffer.from('20 <14>short'))
  b.f.end()
  assert.deepEqual(b.frames, [])
  assert.equal(b.corrupt.length, 1)
})

test('TCP hostile input: absurd count, malformed count, oversized line; the stream goes on', () => {
  const absurd = framer(100)
  absurd.f.push(Buffer.from('99999999999999999999 xxxx\n<14>after\n'))
  assert.deepEqual(absurd.corrupt, ['malformed octet count'])
  assert.deepEqual(absurd.frames, ['<14>after'])

  const tooBig = framer(100)
  tooBig.f.push(Buffer.from('500 ' + 'x'.repeat(500) + '<14>next\n'))
  assert.equal(tooBig.corrupt.length, 1)
  assert.deepEqual(tooBig.frames, ['<14>next'])

  const longLine = framer(100)
  for (let i = 0; i < 50; i++) longLine.f.push(Buffer.from('<'.padEnd(64, 'y')))
  longLine.f.push(Buffer.from('tail\n<14>ok\n'))
  longLine.f.end()
  assert.equal(longLine.corrupt.length, 1)
  assert.deepEqual(longLine.frames, ['<14>ok'])
  assert.ok(longLine.f.pending.length <= 100)

  const digitsThenGarbage = framer(100)
  digitsThenGarbage.f.push(Buffer.from('12x34 junk\n<14>ok\n'))
  assert.equal(digitsThenGarbage.corrupt.length, 1)
  assert.deepEqual(digitsThenGarbage.frames, ['<14>ok'])
})
