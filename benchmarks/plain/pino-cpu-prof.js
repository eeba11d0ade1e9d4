// Is the native frame under Buffer.byteLength that log-bench's profiles of pino put on top real?
// Outside log-bench: the plain pino script (pino.js here, pino to a file) under Node's own
// `--cpu-prof`, its self time tallied here from the .cpuprofile (nothing of log-bench read or
// imported), then the same script timed plain, with Buffer.byteLength replaced by the string's
// length (right for these ASCII lines only), and by a flattening of the string (V8's %FlattenString:
// pino builds each line by concatenation) and its length, in rotating order. If the frame were the
// profiler's misattribution, taking the call away would leave the times as they are; if its cost
// were the flattening, the third would be as slow as the first. docs/costs.md has the finding.
//   node benchmarks/plain/pino-cpu-prof.js [events=200000] [rounds=3]
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const events = Number(process.argv[2] ?? 200000)
const rounds = Number(process.argv[3] ?? 3)
if (!Number.isSafeInteger(events) || events < 1 || !Number.isSafeInteger(rounds) || rounds < 1) {
  process.stderr.write('usage: node benchmarks/plain/pino-cpu-prof.js [events >= 1] [rounds >= 1]\n')
  process.exit(2)
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pino-cpu-prof-'))
// Buffer.byteLength of a string as its length, for the second half; preloaded with --import.
const jsLength = path.join(dir, 'byte-length.mjs')
fs.writeFileSync(jsLength, 'const native = Buffer.byteLength\nBuffer.byteLength = (s, e) => (typeof s === \'string\' && e === undefined ? s.length : native(s, e))\n')
// The same after flattening the string (a CommonJS preload: %-syntax needs --allow-natives-syntax).
const flatLength = path.join(dir, 'flat-length.cjs')
fs.writeFileSync(flatLength, 'const native = Buffer.byteLength\nBuffer.byteLength = (s, e) => { if (typeof s !== \'string\' || e !== undefined) return native(s, e); %FlattenString(s); return s.length }\n')
const SIDES = {
  native: { flags: [], words: 'Buffer.byteLength as it is' },
  js: { flags: ['--import', jsLength], words: 'Buffer.byteLength as the string\'s length' },
  flat: { flags: ['--allow-natives-syntax', '--require', flatLength], words: 'the string flattened, then its length' }
}

// One run of the plain script: its figures (one JSON line on stderr).
function plain (flags) {
  const out = path.join(dir, `out-${Math.random().toString(36).slice(2)}.log`)
  const { status, stderr } = spawnSync(process.execPath, [...flags, path.join(HERE, 'pino.js'), 'file', String(events), out], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] })
  if (status !== 0) throw new Error(`pino.js exited with ${status}: ${stderr}`)
  fs.rmSync(out)
  return JSON.parse(stderr.trim().split('\n').pop())
}

// Self time per function (named with its caller: an unnamed native frame says little alone), as
// shares of the sampled time: each sample's time is the gap to the next.
function selfTime (file) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'))
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map(profile.nodes.flatMap((n) => (n.children ?? []).map((c) => [c, n])))
  const self = new Map()
  let total = 0
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i + 1] ?? 0
    const { functionName, url, lineNumber } = nodes.get(id).callFrame
    const key = `${functionName || '(unnamed native)'}${url ? ` ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : ''}, from ${parent.get(id)?.callFrame.functionName || '?'}`
    self.set(key, (self.get(key) ?? 0) + dt)
    total += dt
  })
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([name, us]) => ({ name, share: us / total }))
}

const pct = (v) => `${(v * 100).toFixed(1)}%`
const profDir = path.join(dir, 'prof')
plain(['--cpu-prof', '--cpu-prof-dir', profDir])
const [profile] = fs.readdirSync(profDir)
console.log(`pino to a file, ${events.toLocaleString('en-US')} events, under node --cpu-prof: self time`)
for (const { name, share } of selfTime(path.join(profDir, profile))) console.log(`  ${pct(share).padStart(6)}  ${name}`)

const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]
const names = Object.keys(SIDES)
const times = Object.fromEntries(names.map((name) => [name, []]))
for (let round = 0; round < rounds; round++) {
  for (const side of names.map((_, i) => names[(i + round) % names.length])) times[side].push(plain(SIDES[side].flags))
}
console.log(`median over ${rounds} rounds in rotating order, no profiler:`)
for (const side of names) {
  const runs = times[side]
  console.log(`  ${SIDES[side].words.padEnd(40)} unblocked ${median(runs.map((r) => r.unblockedMs)).toFixed(0)} ms, done ${median(runs.map((r) => r.doneMs)).toFixed(0)} ms`)
}
fs.rmSync(dir, { recursive: true, force: true })
