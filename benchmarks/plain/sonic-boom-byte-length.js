// sonic-boom's write() measures its whole pending chunk with Buffer.byteLength on every call: with a
// tight loop (its asynchronous write still pending) the last chunk is always up to maxWrite (16 KiB)
// long, so every write re-measures kilobytes. Shown without log-bench and without pino: sonic-boom as
// pino.destination(file) builds it (minLength 0, asynchronous), a tight loop of writes, then end();
// as published against a copy with a running byte count of its last chunk (patch-sonic-boom.js),
// each run a fresh process, the two in rotating order. Before timing, both copies write the same
// multi-byte lines and their files must be byte for byte the same (the count is right for UTF-8).
//   node benchmarks/plain/sonic-boom-byte-length.js [writes=100000] [rounds=5]
//   node benchmarks/plain/sonic-boom-byte-length.js --quick          (20,000 writes, 1 round)
import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { installedSonicBoom, patchSonicBoom } from './patch-sonic-boom.js'

const SELF = fileURLToPath(import.meta.url)
const LINE = (i) => `{"level":30,"time":1700000000000,"pid":1,"hostname":"h","msg":"w0 ${i}: Hello, world!"}\n`
const WIDE = (i) => `{"msg":"w0 ${i}: grüße, 世界 ✓"}\n`

// A child: one copy of sonic-boom, `writes` lines in a tight loop, then end(); prints its figures.
async function child ([dir, writes, file, kind]) {
  const SonicBoom = createRequire(path.join(dir, 'package.json'))(dir)
  const stream = new SonicBoom({ dest: file, minLength: 0 })
  await once(stream, 'ready')
  const line = kind === 'wide' ? WIDE : LINE
  const start = process.hrtime.bigint()
  for (let i = 0; i < Number(writes); i++) stream.write(line(i))
  const loopMs = Number(process.hrtime.bigint() - start) / 1e6
  // The chunks still pending: none may be longer than maxWrite in bytes, and the running count (where
  // there is one) must be the last chunk's byte length.
  const chunks = stream._bufs.map((chunk) => Buffer.byteLength(chunk))
  const pending = {
    chunks: chunks.length,
    longest: Math.max(0, ...chunks),
    maxWrite: stream.maxWrite,
    countRight: stream._lastLen === undefined || stream._lastLen === chunks.at(-1)
  }
  stream.end()
  await once(stream, 'close')
  const doneMs = Number(process.hrtime.bigint() - start) / 1e6
  process.stdout.write(JSON.stringify({ loopMs, doneMs, pending }) + '\n')
}

function runChild (dir, writes, file, kind = 'ascii') {
  // The copy's own dependency (atomic-sleep) from the installed packages, as the release finds it.
  const env = { ...process.env, NODE_PATH: path.dirname(installedSonicBoom()) }
  const { status, stdout, stderr } = spawnSync(process.execPath, [SELF, 'child', dir, String(writes), file, kind], { encoding: 'utf8', env })
  if (status !== 0) throw new Error(`the ${path.basename(dir)} run exited with ${status}: ${stderr}`)
  return JSON.parse(stdout.trim().split('\n').pop())
}

const median = (values) => {
  const sorted = values.slice().sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

async function main (argv) {
  const quick = argv[0] === '--quick'
  const writes = quick ? 20_000 : Number(argv[0] ?? 100_000)
  const rounds = quick ? 1 : Number(argv[1] ?? 5)
  if (!Number.isSafeInteger(writes) || writes < 1 || !Number.isSafeInteger(rounds) || rounds < 1 || argv.length > 2) {
    process.stderr.write('usage: node benchmarks/plain/sonic-boom-byte-length.js [writes >= 1] [rounds >= 1] | --quick\n')
    process.exit(2)
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sonic-boom-byte-length-'))
  try {
    const { version } = patchSonicBoom(path.join(dir, 'patched'))
    const sides = { published: installedSonicBoom(), patched: path.join(dir, 'patched') }
    // Multi-byte text: both copies must write the same bytes, in chunks no longer than maxWrite.
    const [a, b] = ['published', 'patched'].map((side) => {
      const file = path.join(dir, `${side}-wide.log`)
      const { pending } = runChild(sides[side], Math.min(writes, 20_000), file, 'wide')
      if (pending.longest > pending.maxWrite || !pending.countRight) throw new Error(`the ${side} copy kept a chunk of ${pending.longest} bytes (maxWrite ${pending.maxWrite}), its count ${pending.countRight ? 'right' : 'wrong'}`)
      return { bytes: fs.readFileSync(file), pending }
    })
    if (!a.bytes.equals(b.bytes)) throw new Error('the patched copy wrote other bytes than the published one for multi-byte lines')
    console.log(`sonic-boom ${version}: multi-byte lines written byte for byte the same by both copies (${a.bytes.length.toLocaleString('en-US')} bytes); the patched copy's ${b.pending.chunks} pending chunks at most ${b.pending.longest} bytes (maxWrite ${b.pending.maxWrite}), its count the last chunk's byte length`)
    const figures = { published: [], patched: [] }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? ['patched', 'published'] : ['published', 'patched']
      for (const side of order) {
        const file = path.join(dir, `${side}-${round}.log`)
        figures[side].push(runChild(sides[side], writes, file))
        fs.rmSync(file)
      }
    }
    console.log(`${writes.toLocaleString('en-US')} writes in a tight loop, then end(); ${rounds} round${rounds > 1 ? 's' : ''}, alternating order; median (each run)`)
    for (const side of ['published', 'patched']) {
      const runs = figures[side]
      const words = side === 'published' ? 'as published (Buffer.byteLength of the chunk)' : 'running byte count of the last chunk'
      console.log(`  ${words.padEnd(46)} loop ${median(runs.map((r) => r.loopMs)).toFixed(0)} ms, done ${median(runs.map((r) => r.doneMs)).toFixed(0)} ms  (${runs.map((r) => `${r.loopMs.toFixed(0)}/${r.doneMs.toFixed(0)}`).join(', ')})`)
    }
    // Paired by round: the patched run's time over the published run's of the same round.
    const ratios = (field) => figures.patched.map((r, i) => r[field] / figures.published[i][field])
    console.log(`  patched / published, median of the rounds' ratios: loop ${median(ratios('loopMs')).toFixed(3)}, done ${median(ratios('doneMs')).toFixed(3)}`)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === 'child') await child(process.argv.slice(3))
else await main(process.argv.slice(2))
