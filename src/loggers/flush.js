import { once } from 'node:events'

// Resolves when a writable stream (stdout as a pipe, a file stream) has handed every queued byte to
// the OS. writableNeedDrain alone is not enough: bytes below the high-water mark still wait in the
// queue, and a process that exits then loses them. A write callback fires only after all before it.
export async function drained (stream) {
  if (stream.writableLength === 0 && !stream.writableNeedDrain) return
  await new Promise((resolve, reject) => stream.write('', (err) => (err ? reject(err) : resolve())))
}

// Ends a writable stream and resolves once it has finished and its file descriptor is closed.
export async function endAndClose (stream) {
  const closed = once(stream, 'close')
  stream.end()
  await closed
}
