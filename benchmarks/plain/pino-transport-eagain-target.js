import fs from 'node:fs'
import pino from 'pino'

// pino/file's own target (pino's file.js: pino.destination({ dest, sync: false })), with sonic-boom's
// retryEAGAIN hook counting each write that found the stdout pipe full: sonic-boom then retries after
// BUSY_WRITE_TIMEOUT (100 ms) whatever the reader does meanwhile. The count goes to stderr on close.
export default async function (opts = {}) {
  const at = []
  const destination = pino.destination({
    dest: opts.destination || 1,
    sync: false,
    retryEAGAIN: () => {
      at.push(Date.now())
      return true
    }
  })
  destination.on('close', () => {
    fs.writeSync(2, JSON.stringify({ eagain: at.length, at }) + '\n')
  })
  await new Promise((resolve) => destination.once('ready', resolve))
  return destination
}
