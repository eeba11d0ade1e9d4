import { once } from 'node:events'

// Resolves when a writable stream has handed every queued byte to the OS (pipes and files).
export async function drained (stream) {
  if (stream.writableNeedDrain) await once(stream, 'drain')
}

// Ends a writable stream and resolves once it has finished and its file descriptor is closed.
export async function endAndClose (stream) {
  const closed = once(stream, 'close')
  stream.end()
  await closed
}
