import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { proseWords, README_WORDS_MAX } from '../scripts/readme-words.js'
import { ROOT } from './helpers.js'

test('words are counted outside fenced code blocks only', () => {
  assert.equal(proseWords('one two\n\n```sh\nnpx log-bench run --lib pino\n```\nthree `npm test`\n~~~\nfour five\n~~~\n'), 5)
})

test(`README stays an entrance: at most ${README_WORDS_MAX} words outside code blocks, the rest in docs/`, () => {
  const words = proseWords(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'))
  assert.ok(words <= README_WORDS_MAX, `README.md has ${words} words outside code blocks: move the detail into docs/`)
})

// CI runs the test command README gives a clone, and developers look for it there.
test('README gives the clone\'s test command, npm test, and it runs the lint and every test file', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  assert.match(readme, /`npm test` for the lint and the test suite/)
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
  assert.match(scripts.test, /^npm run lint && /)
})
