#!/usr/bin/env node
// Words a reader of README.md reads: whitespace-separated tokens outside fenced code blocks
// (a command in a code block is copied, not read). `node scripts/readme-words.js [file]` prints them.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const README_WORDS_MAX = 1500

export function proseWords (markdown) {
  let fenced = false
  const prose = markdown.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced
      return false
    }
    return !fenced
  })
  return prose.join(' ').split(/\s+/).filter(Boolean).length
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md')
  process.stdout.write(`${proseWords(fs.readFileSync(file, 'utf8'))} words outside code blocks in ${file} (at most ${README_WORDS_MAX})\n`)
}
