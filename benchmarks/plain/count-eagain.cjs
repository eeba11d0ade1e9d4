// A preload (node -r) that counts what a logger's asynchronous writes to stdout met: fs.write calls
// on fd 1 and how many of them failed with EAGAIN (a full non-blocking pipe). pino's SonicBoom
// retries such a write after a 100 ms timer, so each EAGAIN is 100 ms of done in which nothing is
// done: the count tells a gap of waiting from a gap of work (docs/measured.md). At exit, one JSON line
// { side, pid, writes, eagain } is appended to the file named by EAGAIN_COUNT_FILE (required), side
// from EAGAIN_SIDE. Through NODE_OPTIONS it also loads into log-bench's workers; the commands that
// set the plain script beside log-bench are in docs/measured.md.
'use strict'
const fs = require('node:fs')

const countFile = process.env.EAGAIN_COUNT_FILE
if (!countFile) {
  process.stderr.write('count-eagain.cjs: set EAGAIN_COUNT_FILE to the file to append the counts to\n')
  process.exit(2)
}
const write = fs.write
let writes = 0
let eagain = 0
fs.write = function (fd, ...rest) {
  if (fd !== 1 || typeof rest[rest.length - 1] !== 'function') return write.call(this, fd, ...rest)
  writes++
  const callback = rest.pop()
  return write.call(this, fd, ...rest, (err, ...results) => {
    if (err?.code === 'EAGAIN') eagain++
    callback(err, ...results)
  })
}
// Only a process that wrote to stdout this way: log-bench's primary loads it too, and writes none.
process.on('exit', () => {
  if (writes) fs.appendFileSync(countFile, JSON.stringify({ side: process.env.EAGAIN_SIDE ?? null, pid: process.pid, writes, eagain }) + '\n')
})
