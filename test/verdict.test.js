import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, it } from 'node:test'
import { judge } from '../src/results/judge/verdict.js'
import { measureNamed } from '../src/results/run-types/index.js'
import { roundsOf } from '../src/results/rounds.js'
import { findings } from '../src/report/summary.js'
import { compareWithBaseline } from '../src/report/compare.js'
import { summarize } from '../src/results/model.js'
import { notDecidedWords, orderWords, verdictWord } from '../src/draw/labels.js'
import { syntheticRun } from './helpers.js'

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src')
// The statistics themselves, the rounds that feed them, and the one verdict that calls them.
const ALLOWED = new Set(['stats.js', 'results/rounds.js', 'results/judge/verdict.js'].map((f) => path.join(SRC, f)))

function sourceFiles (dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.js') ? [full] : []
  })
}

// Whether code sorts with a comparator that reads a median: each .sort( call's argument, up to its
// closing parenthesis, mentions one.
function sortsByMedian (code) {
  for (const match of code.matchAll(/\.sort\(/g)) {
    let depth = 1
    let end = match.index + match[0].length
    while (end < code.length && depth > 0) {
      if (code[end] === '(') depth++
      else if (code[end] === ')') depth--
      end++
    }
    if (/median/i.test(code.slice(match.index, end))) return true
  }
  return false
}

const timed = (lib, done, extra = {}) => done.map((doneMs, i) => syntheticRun({ lib, run: i + 1, doneMs, ...extra }))
const interleaved = (runs) => ({ runs, summary: summarize(runs), env: { cpuCount: 2, order: { mode: 'interleaved', seed: 1 } } })

describe('one verdict: judge', () => {
  it('is the only source file that derives a verdict (no other calls compareRuns or compareCellRuns)', () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => !ALLOWED.has(file))
      .filter((file) => /\bcompare(Cell)?Runs\b/.test(fs.readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '')))
      .map((file) => path.relative(SRC, file))
    assert.deepEqual(offenders, [])
  })

  it('is the only ranking: no source file but rank.js orders cells by their medians', () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => file !== path.join(SRC, 'results', 'judge', 'rank.js'))
      .filter((file) => sortsByMedian(fs.readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '')))
      .map((file) => path.relative(SRC, file))
    assert.deepEqual(offenders, [], 'rank the cells with rank() (src/results/judge/rank.js)')
  })

  it('would see a ranking by median where one is written', () => {
    assert.ok(sortsByMedian('const ranked = [...measured].sort((a, b) => a.median - b.median)'))
    assert.ok(sortsByMedian('cells.sort((x, y) => medianOf(y.runs) - medianOf(x.runs))'))
    assert.ok(sortsByMedian('list.sort((a, b) => (up ? a[m].median - b[m].median : b[m].median - a[m].median))'))
    assert.ok(!sortsByMedian('[...g.ranked].sort((a, b) => a.name.localeCompare(b.name)).map((c) => c.median)'))
    assert.ok(!sortsByMedian('const xs = clean(values).sort((a, b) => a - b); return median(xs)'))
  })

  it('takes a measure of the schema, not a value function', () => {
    assert.throws(() => judge([], [], (r) => r.doneMs), /measure must be one of the schema's measures/)
    assert.throws(() => judge([], [], { value: (r) => r.doneMs }), TypeError)
    assert.throws(() => measureNamed('run', 'noSuchMeasure'), /has no compared measure/)
  })

  it('judges a measure at its own noise whatever the default: requests/s at ±5%, done at --noise', () => {
    const spread = [1000, 1004, 998, 1002, 1001, 999, 1003, 997]
    const rates = (factor) => spread.map((v) => ({ ok: true, reqPerSec: { mean: v * factor } }))
    const reqPerSec = measureNamed('http', 'reqPerSec')
    // 4% fewer requests/s, tightly: beyond ±2%, inside ±5%.
    const rate = judge(rates(1), rates(0.96), reqPerSec, { noise: 0.02 })
    assert.equal(rate.noise, 0.05)
    assert.equal(rate.verdict, 'same')
    const times = (factor) => spread.map((v) => ({ ok: true, doneMs: (v / 10) * factor }))
    const done = judge(times(1), times(1.04), measureNamed('run', 'doneMs'))
    assert.equal(done.noise, 0.02)
    assert.equal(done.verdict, 'slower')
  })

  it('prints one figure for one comparison: the Summary\'s multiple is compare --json\'s ratio, paired where the rounds pair', () => {
    // 8 rounds of a machine whose speed drifts ±30% for both alike; winston about 5% slower in each.
    const drift = [1.21, 0.74, 1.05, 0.83, 1.29, 0.92, 0.71, 1.13]
    const runs = [...timed('pino', drift.map((f) => 1000 * f)), ...timed('winston', drift.map((f, i) => 1050 * f * (1 + 0.002 * i)))]
    const dataset = interleaved(runs)
    const [group] = findings(dataset).groups
    const winston = group.ranked.find((c) => c.name === 'winston')
    const row = compareWithBaseline(dataset, 'pino').comparisons.find((r) => r.measure === 'doneMs' && r.lib === 'winston')
    assert.equal(row.paired, true)
    assert.equal(winston.relative, row.ratio)
    assert.equal(winston.verdict, row.verdict)
    // Not the ratio of the raw medians, which the drift moves.
    const ratioOfMedians = winston.median / group.best.median
    assert.notEqual(winston.relative, ratioOfMedians)
  })

  it('pairs two cells by round only within one shard: a merged file\'s shards ran their rounds apart', () => {
    const drift = [1.21, 0.74, 1.05, 0.83, 1.29, 0.92, 0.71, 1.13]
    const runs = [...timed('pino', drift.map((f) => 1000 * f), { shard: '1/2' }), ...timed('winston', drift.map((f) => 1050 * f), { shard: '1/2' })]
    const elsewhere = timed('bunyan', drift.map((f) => 1100 * f), { shard: '2/2' })
    const of = (list, lib) => list.filter((r) => r.lib === lib)
    const roundOf = roundsOf(interleaved([...runs, ...elsewhere]))
    const same = judge(of(runs, 'pino'), of(runs, 'winston'), measureNamed('run', 'doneMs'), { roundOf })
    assert.equal(same.paired, true)
    assert.equal(same.pairs, 8)
    // Run r of shard 2 is not round r of shard 1: unpaired, and no rounds counted.
    const apart = judge(of(runs, 'pino'), elsewhere, measureNamed('run', 'doneMs'), { roundOf })
    assert.equal(apart.paired, false)
    assert.equal(apart.pairs, null)
    assert.equal(apart.higherIn, null)
  })

  it('says what a comparison that is not decided rests on, what would decide it, and an order every round showed', () => {
    // 5 rounds: too few to pair, and 5 + 5 unpaired runs whose spread hides a difference every round shows.
    const drift = [1.3, 0.7, 1.1, 0.8, 1.2]
    const runs = [...timed('pino', drift.map((f) => 1000 * f)), ...timed('bunyan', drift.map((f) => 1100 * f))]
    const of = (lib) => runs.filter((r) => r.lib === lib)
    const c = judge(of('pino'), of('bunyan'), measureNamed('run', 'doneMs'), { roundOf: roundsOf(interleaved(runs)) })
    assert.equal(c.verdict, 'unclear')
    assert.equal(verdictWord(c.verdict), 'not decided')
    assert.equal(orderWords(c), 'slower in each of 5 rounds')
    assert.match(notDecidedWords(c), /^not decided on 5 \+ 5 runs, unpaired; about [\d,]+ a side would decide it; slower in each of 5 rounds$/)
  })
})
