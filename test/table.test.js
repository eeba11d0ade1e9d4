import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { code, csvTable, em, figureColumns, left, markdownBlocks, markdownTable, right, strong, terminalBlocks, terminalTable, terminalWidth } from '../src/draw/table.js'
import { renderTerminal } from '../src/report/terminal.js'
import { loadResults } from '../src/results/read.js'
import { readPages } from '../src/report/pages.js'

// One table value, drawn by each renderer: emphasis, spans, a cell of several entries, a "|" from
// the data, a number, an empty cell, and a note with a mark markdown must escape.
const TABLE = {
  columns: [left('Library'), right('Done ms'), left('Notes')],
  rows: [
    ['pino', [strong('12.3'), ' (2 of 3 runs)'], { lines: ['a|b', em('lost')] }],
    [strong('Average'), 4, null]
  ],
  notes: [[{ markdown: '\\*', plain: '*' }, ' few runs; see ', code('--runs')]]
}

describe('the table model and its renderers', () => {
  it('markdown: padded cells, right-aligned figures, the marks, <br> between entries, "|" escaped', () => {
    assert.equal(markdownTable(TABLE), [
      '| Library     |                Done ms | Notes          |',
      '|-------------|-----------------------:|----------------|',
      '| pino        | **12.3** (2 of 3 runs) | a\\|b<br>_lost_ |',
      '| **Average** |                      4 |                |',
      '',
      '\\* few runs; see `--runs`'
    ].join('\n'))
  })

  it('terminal: the same grid without marks, one line per entry of a cell', () => {
    assert.equal(terminalTable(TABLE), [
      '| Library |            Done ms | Notes |',
      '|---------|--------------------|-------|',
      '| pino    | 12.3 (2 of 3 runs) | a\\|b  |',
      '|         |                    | lost  |',
      '| Average |                  4 |       |',
      '',
      '* few runs; see --runs'
    ].join('\n'))
  })

  it('terminal on a TTY: emphasis in ANSI bold and italic, padded by the visible width', () => {
    const text = terminalTable(TABLE, { color: true })
    assert.ok(text.includes('| \x1b[1mAverage\x1b[22m |'), text)
    assert.ok(text.includes('| \x1b[3mlost\x1b[23m  |'), text)
    assert.ok(text.includes('| \x1b[1m12.3\x1b[22m (2 of 3 runs) |'), text)
  })

  it('CSV: titles, then plain text quoted where needed; entries of a cell on lines of one field', () => {
    assert.equal(csvTable(TABLE), 'Library,Done ms,Notes\npino,12.3 (2 of 3 runs),"a|b\nlost"\nAverage,4,\n')
    assert.equal(csvTable({ columns: [left('say "hi", twice')], rows: [[true], [Infinity]] }), '"say ""hi"", twice"\ntrue\n\n')
  })

  it('blocks: headings and paragraphs as values; markdown written for the page alone stays off the terminal', () => {
    const blocks = [{ heading: 'At a glance' }, { text: ['Runs of ', code('none'), ' and ', em('pino')] }, '![chart](c.png)', { heading: 'Details', level: 3 }, TABLE]
    assert.equal(markdownBlocks(blocks), `## At a glance\n\nRuns of \`none\` and _pino_\n\n![chart](c.png)\n\n### Details\n\n${markdownTable(TABLE)}`)
    assert.equal(terminalBlocks(blocks), `At a glance\n===========\n\nRuns of none and pino\n\nDetails\n-------\n\n${terminalTable(TABLE)}`)
  })

  it('terminal paragraphs are wrapped between words at 100 columns, ANSI marks taking none', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`)
    for (const color of [false, true]) {
      const text = terminalBlocks([{ text: [strong('Control.'), ' ', words.join(' ')] }], { color })
      const lines = text.split('\n')
      assert.ok(lines.length > 3, text)
      for (const line of lines) assert.ok(line.replace(/\x1b\[\d+m/g, '').length <= 100, line)
      assert.equal(text.replace(/\x1b\[\d+m/g, '').replace(/\n/g, ' '), `Control. ${words.join(' ')}`)
    }
  })

  it('a table wider than the terminal: split into tables that repeat the row names, then wrapped; nothing lost', () => {
    const titles = ['Library', ...Array.from({ length: 12 }, (_, i) => `measure ${i + 1}`)]
    const rows = [['pino', ...titles.slice(1).map((_, i) => `${(i + 1) * 1111} ms`)], ['winston', ...titles.slice(1).map(() => '—')]]
    const text = terminalTable({ columns: figureColumns(titles), rows }, { width: 60 })
    const lines = text.split('\n')
    for (const line of lines) assert.ok(line.length <= 60, line)
    const parts = text.split('\n\n')
    assert.ok(parts.length > 1, text)
    for (const part of parts) assert.match(part, /^\| Library \|/, 'each part names its rows')
    for (const cell of [...titles, ...rows[0]]) assert.ok(text.includes(cell), `${cell} is shown`)
    // One column wider than the width on its own: its cells are wrapped between words.
    const long = 'log4js has no syslog appender of its own, and the one that installs beside it sends over UDP only'
    const wrapped = terminalTable({ columns: [left('Transport'), left('Why')], rows: [['tcp', long]], notes: [long] }, { width: 50 })
    for (const line of wrapped.split('\n')) assert.ok(line.length <= 50, line)
    assert.equal(wrapped.split('\n').filter((l) => l.startsWith('| ')).slice(1).map((l) => l.split('|')[2].trim()).join(' '), long)
    // A table that fits is drawn as before.
    assert.equal(terminalTable(TABLE, { width: 60 }), terminalTable(TABLE))
  })

  it('the width: $COLUMNS, else the terminal\'s, else 100 for a pipe; never below 40', () => {
    assert.equal(terminalWidth({ isTTY: true, columns: 132 }, { COLUMNS: '80' }), 80)
    assert.equal(terminalWidth({ isTTY: true, columns: 132 }, {}), 132)
    assert.equal(terminalWidth({ isTTY: false }, {}), 100)
    assert.equal(terminalWidth({ isTTY: false }, { COLUMNS: '10' }), 40)
    assert.equal(terminalWidth({ isTTY: false }, { COLUMNS: 'wide' }), 100)
  })
})

// Marks that markdown would draw and a terminal would print as they are.
const MARKS = [/\*\*/, /<br>/, /(^|[\s|(])_[^_\s|]([^_|]*[^_\s|])?_(?=[\s|.,;:)]|$)/m, /`/, /!\[/]

describe('the terminal export of real results', () => {
  // Each committed page drawn once (a page is seconds of work), for every test that reads it.
  const drawn = new Map()
  const terminalText = (results) => {
    const key = results.join('\0')
    if (!drawn.has(key)) drawn.set(key, renderTerminal(loadResults(results)))
    return drawn.get(key)
  }
  for (const page of readPages('results/pages.json')) {
    it(`${page.results.join(', ')}: the page's tables without a markdown mark`, () => {
      const text = terminalText(page.results)
      for (const mark of MARKS) assert.doesNotMatch(text, mark)
      assert.match(text, /^\| /m, 'it has tables')
      assert.match(text, /At a glance\n=+\n/)
    })
  }

  it('an http page: the control\'s verdicts first, then the tables per cell, with the server\'s event-loop delay', () => {
    const text = terminalText(['results/http-cost.json'])
    const control = text.indexOf('Control: 0 logs per request.')
    assert.ok(control > 0, 'the control is shown')
    assert.ok(control < text.indexOf('| Latency'), 'before the seed\'s tables')
    assert.match(text, /Loop delay p99/)
  })
})
