// The seed's payload; --size pads (or cuts) it to exactly that many bytes.
export const SEED_PAYLOAD = 'Hello, world!'

export function payloadOfSize (size) {
  if (size == null) return SEED_PAYLOAD
  if (size <= SEED_PAYLOAD.length) return SEED_PAYLOAD.slice(0, size)
  return SEED_PAYLOAD + ' ' + 'x'.repeat(size - SEED_PAYLOAD.length - 1)
}

// What one event says: worker id and sequence number first, so the receiver can check each one.
export function messagePrefix (workerId) {
  return `w${workerId} `
}
