import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { LineSplitter, Verifier } from '../src/sinks/verifier.js'
import { verifyFile } from '../src/sinks/verify-files.js'
import { tmpDir } from './helpers.js'

const PAYLOAD = 'Hello, world!'

function countsOf (verifier) {
  return { received: verifier.received, corrupt: verifier.corrupt, duplicates: verifier.duplicates }
}

function viaStrings (text, options) {
  const verifier = new Verifier(options)
  const splitter = new LineSplitter((line) => verifier.check(line))
  splitter.push(text)
  splitter.end()
  return countsOf(verifier)
}

async function viaFile (text, options) {
  const file = path.join(tmpDir(), 'w0.log')
  fs.writeFileSync(file, text, 'latin1')
  const verifier = new Verifier(options)
  await verifyFile(file, verifier)
  return countsOf(verifier)
}

// A small deterministic generator, so a failure can be reproduced.
function random (seed) {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

test('the file verifier (bytes) counts exactly as the string verifier on garbled input', async () => {
  const next = random(42)
  const pieces = ['w', '0', '1', '7', '9', ' ', ':', 'H', 'e', 'l', 'o', ',', '!', '\n', 'x', '"', '{', 'w1 ', ': ']
  const options = { workers: 2, events: 30, payload: PAYLOAD }
  for (let trial = 0; trial < 200; trial++) {
    let text = ''
    for (let i = 0; i < 300; i++) {
      const r = next()
      if (r < 0.3) text += `w${Math.floor(next() * 3)} ${Math.floor(next() * 40)}: ${next() < 0.8 ? PAYLOAD : 'Hello'}`
      else if (r < 0.35) text += '\n'
      else text += pieces[Math.floor(next() * pieces.length)]
    }
    assert.deepEqual(await viaFile(text, options), viaStrings(text, options), `trial ${trial}`)
  }
})

test('lines across read-chunk boundaries, a last line without newline, and an oversized line', async () => {
  const events = 120_000
  let text = ''
  for (let seq = 0; seq < events; seq++) text += `{"msg":"w0 ${seq}: ${PAYLOAD}","pad":"${'y'.repeat(seq % 37)}"}\n`
  text += 'x'.repeat((1 << 20) + 10) + '\n'
  text += `w0 ${events}: ${PAYLOAD}`
  const options = { workers: 1, events: events + 1, payload: PAYLOAD }
  assert.ok(text.length > 3 * (1 << 20))
  const counts = await viaFile(text, options)
  assert.deepEqual(counts, { received: events + 1, corrupt: 1, duplicates: 0 })
  assert.deepEqual(counts, viaStrings(text, options))
})
