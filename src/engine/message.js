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

// Delivery latency's sample: at most DELIVERY_SAMPLES events per worker, seq 0, k, 2k, … with
// k = deliveryEvery(events); none where the count is not known in advance (events null).
export const DELIVERY_SAMPLES = 1000
export const deliveryEvery = (events) => (events > 0 ? Math.max(1, Math.ceil(events / DELIVERY_SAMPLES)) : 0)
export const deliverySamples = (events) => (events > 0 ? Math.ceil(events / deliveryEvery(events)) : 0)
