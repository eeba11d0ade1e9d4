import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { rank } from '../src/results/judge/rank.js'
import { measureNamed } from '../src/results/model.js'

// Cells of eight runs each, done around `ms`, spread ±0.4% (well inside --noise's ±2% where two
// cells' centres are that close, far outside it where they are 20% apart).
const SPREAD = [1.000, 1.004, 0.998, 1.002, 1.001, 0.999, 1.003, 0.997]
const cell = (name, ms, lost = 0) => ({ name, lost, runs: SPREAD.map((f) => ({ ok: true, doneMs: ms * f })) })
const options = { measure: measureNamed('run', 'doneMs'), runsOf: (c) => c.runs, lostOf: (c) => c.lost }
const names = (cells) => cells.map((c) => c.name)

describe('rank: the one ranking, on the verdict', () => {
  it('names the fastest of the cells that lost nothing, and those the verdict does not put behind it', () => {
    const ranking = rank([cell('slow', 1200), cell('close', 1001), cell('best', 1000)], options)
    assert.equal(ranking.best.name, 'best')
    assert.deepEqual(names(ranking.firsts), ['best', 'close'])
    assert.deepEqual(names(ranking.ranked), ['best', 'close', 'slow'])
    assert.equal(ranking.versus(ranking.ranked[2]).verdict, 'slower')
  })

  it('puts a cell that lost events after those that lost none, and names it faster only where the verdict does', () => {
    const ranking = rank([cell('whole', 1000), cell('lossy-fast', 700, 0.1), cell('lossy-near', 999, 0.1)], options)
    assert.equal(ranking.best.name, 'whole')
    assert.deepEqual(names(ranking.ranked), ['whole', 'lossy-fast', 'lossy-near'])
    // lossy-near's median is below whole's, inside the noise: not faster by the verdict.
    assert.deepEqual(names(ranking.fasterButLossy), ['lossy-fast'])
  })

  it('has no fastest where every cell lost events, and lists them fastest first', () => {
    const ranking = rank([cell('a', 900, 0.2), cell('b', 800, 0.1)], options)
    assert.equal(ranking.best, null)
    assert.deepEqual(ranking.firsts, [])
    assert.deepEqual(names(ranking.fasterButLossy), ['b', 'a'])
  })

  it('orders a measure where higher is better highest first, and leaves out a cell without a finished run', () => {
    const rate = (name, perSec) => ({ name, runs: SPREAD.map((f) => ({ ok: true, reqPerSec: { mean: perSec * f } })) })
    const failed = { name: 'failed', runs: [{ ok: false }] }
    const ranking = rank([rate('low', 5000), failed, rate('high', 9000)], { ...options, measure: measureNamed('http', 'reqPerSec') })
    assert.deepEqual(names(ranking.ranked), ['high', 'low'])
    assert.equal(ranking.median(failed), null)
  })
})
