import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { listOf, TRANSPORT_DESCRIPTORS, TRANSPORTS, transportIs, transportsWith } from '../src/engine/transports.js'
import { ROOT } from './helpers.js'

// What each capability may say (docs/extending-transports.md): a new transport's descriptor must say every one.
const CAPABILITIES = {
  name: (v) => typeof v === 'string' && /^[a-z]+$/.test(v),
  title: (v) => typeof v === 'string' && v.length > 0,
  sink: (v) => typeof v === 'string' && v.length > 0,
  syslog: (v) => typeof v === 'boolean',
  collector: (v) => typeof v === 'boolean',
  reaches: (v) => ['stdout', 'file', 'socket'].includes(v),
  slowable: (v) => typeof v === 'boolean',
  socketDrops: (v) => v === null || ['counter', 'none'].includes(v)
}

test('every transport\'s descriptor says each capability, and a collector says how it refuses', () => {
  for (const descriptor of TRANSPORT_DESCRIPTORS) {
    for (const [field, valid] of Object.entries(CAPABILITIES)) assert.ok(valid(descriptor[field]), `${descriptor.name}: ${field} is ${descriptor[field]}`)
    assert.equal(typeof descriptor.refuses === 'string', descriptor.collector, `${descriptor.name}: refuses`)
    assert.ok(!descriptor.syslog || descriptor.reaches === 'socket', `${descriptor.name}: syslog goes over a socket`)
  }
  assert.deepEqual(new Set(TRANSPORTS).size, TRANSPORTS.length)
})

test('capabilities are asked by name and listed in a sentence', () => {
  assert.deepEqual(transportsWith('collector'), ['otlp', 'forward'])
  assert.deepEqual(transportsWith('reaches', 'stdout'), ['console'])
  assert.equal(transportIs('tcp', 'socketDrops', 'none'), true)
  assert.equal(transportIs('udp', 'socketDrops', 'none'), false)
  assert.equal(transportIs('nonesuch', 'collector'), false)
  assert.equal(listOf(['otlp', 'forward'], 'or'), 'otlp or forward')
  assert.equal(listOf(['a', 'b', 'c']), 'a, b, and c')
})

// Behaviour by transport asks the descriptor. A transport's name may still be written where it is the
// transport's own code (its receiver, an adapter's entry), a known cause's data, or a page that shows
// one named cell (the scorecard's file and syslog rows, the Destinations section's file column).
// Files by name, wherever a restructuring puts them; folders by path.
const OWN_FOLDERS = ['sinks/', 'loggers/']
const OWN_FILES = ['transports.js', 'anomalies.js', 'scorecard.js', 'destinations-section.js']
const NAMES = TRANSPORTS.join('|')
const LITERAL = new RegExp(`transports?\\)?\\s*(?:===|!==)\\s*'(?:${NAMES})'|\\.includes\\('(?:${NAMES})'\\)|\\[\\s*'(?:${NAMES})'\\s*,\\s*'(?:${NAMES})'`)

function sourceFiles (dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(file)
    return entry.name.endsWith('.js') ? [file] : []
  })
}

test('no source outside a transport\'s own code decides by a transport\'s name', () => {
  const src = path.join(ROOT, 'src')
  const found = []
  for (const file of sourceFiles(src)) {
    const relative = path.relative(src, file).split(path.sep).join('/')
    if (OWN_FOLDERS.some((own) => relative.startsWith(own)) || OWN_FILES.includes(path.basename(file))) continue
    fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (LITERAL.test(line)) found.push(`${relative}:${i + 1}: ${line.trim()}`)
    })
  }
  assert.deepEqual(found, [], 'ask the descriptor (transportIs, transportsWith in src/engine/transports.js) instead')
  assert.ok(LITERAL.test("if (transport === 'otlp' || transport === 'forward') return"), 'the scan finds what it is meant to')
  assert.ok(LITERAL.test("!['file', 'console'].includes(r.transport)"))
})
