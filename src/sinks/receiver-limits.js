import zlib from 'node:zlib'
import protobuf from 'protobufjs'

export { receiverLimits } from '../engine/receiver-limits.js'

const UNITS = [['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]]
export function sizeText (bytes) {
  const [unit, size] = UNITS.find(([, size]) => bytes >= size) ?? ['bytes', 1]
  const amount = bytes / size
  return `${Number.isInteger(amount) ? amount : amount.toFixed(1)} ${unit}`
}

// Inflates a gzip body with the output capped as it is produced (zlib stops at maxOutputLength,
// on the thread pool): { bytes }, or { refused } (`what` inflates past the limit), or { malformed } for bytes that are
// no gzip.
export function gunzipWithin (bytes, maxBytes, what) {
  return new Promise((resolve) => {
    zlib.gunzip(bytes, { maxOutputLength: maxBytes }, (err, inflated) => {
      if (!err) resolve({ bytes: inflated })
      else if (err.code === 'ERR_BUFFER_TOO_LARGE') resolve({ refused: `${what} past ${sizeText(maxBytes)}` })
      else resolve({ malformed: err.message })
    })
  })
}

// OTLP/JSON: every object, array and string becomes one value. Counts up to max + 1.
export function jsonValues (bytes, max) {
  let values = 0
  let inString = false
  for (let i = 0; i < bytes.length && values <= max; i++) {
    const byte = bytes[i]
    if (inString) {
      if (byte === 0x5c) i++
      else if (byte === 0x22) inString = false
    } else if (byte === 0x22) {
      inString = true
      values++
    } else if (byte === 0x7b || byte === 0x5b) values++
  }
  return values
}

// OTLP/protobuf: every length-delimited field (a message, a string, bytes) of the message type
// becomes one value, counted through the schema's nested messages. Counts up to max + 1;
// malformed bytes end the count (the decoder refuses them next).
export function protobufValues (bytes, type, max) {
  const reader = protobuf.Reader.create(bytes)
  let values = 0
  const count = (end, messageType) => {
    while (reader.pos < end && values <= max) {
      const key = reader.uint32()
      if ((key & 7) !== 2) {
        reader.skipType(key & 7)
        continue
      }
      const length = reader.uint32()
      const fieldEnd = reader.pos + length
      if (fieldEnd > end) return
      values++
      const nested = messageType.fieldsById[key >>> 3]?.resolvedType
      if (nested instanceof protobuf.Type) count(fieldEnd, nested)
      reader.pos = fieldEnd
    }
  }
  try {
    count(bytes.length, type)
  } catch {
    // What was counted before the malformed bytes is what the decoder would build before refusing them.
  }
  return values
}

// msgpack: where the value that starts at state.pos ends, found on its bytes without decoding it.
// state ({ pos, pending: values still to read, values: read so far, of this value and any counted
// before it }, from msgpackStart) moves on
// as far as the bytes go, so a value that arrives in pieces is scanned once: { end, values },
// { incomplete } (call again with more bytes and the same state), { refused } when a header
// announces a string, bin, ext or container past the limits, { malformed } for the byte msgpack never uses.
export const msgpackStart = (pos = 0, values = 0) => ({ pos, pending: 1, values })

export function msgpackExtent (bytes, state, { maxBytes, maxValues }) {
  while (state.pending > 0) {
    if (state.pos >= bytes.length) return { incomplete: true }
    const head = bytes[state.pos]
    const kind = msgpackKind(head)
    if (!kind) return { malformed: `byte 0x${head.toString(16)} is not msgpack` }
    if (state.pos + kind.header > bytes.length) return { incomplete: true }
    const size = kind.sizeBytes ? readSize(bytes, state.pos + 1, kind.sizeBytes) : kind.size
    state.values++
    state.pending--
    if (kind.container) {
      const children = size * (kind.container === 'map' ? 2 : 1)
      if (children > maxValues) return { refused: `announces ${kind.container === 'map' ? 'a map' : 'an array'} of ${size} entries, past the limit of ${maxValues} values` }
      if (state.values + state.pending + children > maxValues) return { refused: `holds more than ${maxValues} values` }
      state.pending += children
      state.pos += kind.header
    } else {
      if (size > maxBytes) return { refused: `announces a ${sizeText(size)} ${kind.name}, over the ${sizeText(maxBytes)} limit` }
      state.pos += kind.header + size
    }
  }
  return state.pos > bytes.length ? { incomplete: true } : { end: state.pos, values: state.values }
}

// A big-endian size field (the decoder's buffers are Uint8Arrays, without Buffer's readers).
function readSize (bytes, at, width) {
  let size = 0
  for (let i = 0; i < width; i++) size = size * 256 + bytes[at + i]
  return size
}

// A head byte's shape: header bytes (with the size field), the size (or where it is read from),
// whether it is a container of `size` entries.
function msgpackKind (head) {
  if (head <= 0x7f || head >= 0xe0 || head === 0xc0 || head === 0xc2 || head === 0xc3) return { header: 1, size: 0 }
  if (head <= 0x8f) return { header: 1, size: head & 0x0f, container: 'map' }
  if (head <= 0x9f) return { header: 1, size: head & 0x0f, container: 'array' }
  if (head <= 0xbf) return { header: 1, size: head & 0x1f, name: 'str' }
  return HEADS[head] ?? null
}

const HEADS = {
  0xc4: { header: 2, sizeBytes: 1, name: 'bin' },
  0xc5: { header: 3, sizeBytes: 2, name: 'bin' },
  0xc6: { header: 5, sizeBytes: 4, name: 'bin' },
  0xc7: { header: 3, sizeBytes: 1, name: 'ext' },
  0xc8: { header: 4, sizeBytes: 2, name: 'ext' },
  0xc9: { header: 6, sizeBytes: 4, name: 'ext' },
  0xca: { header: 5, size: 0 },
  0xcb: { header: 9, size: 0 },
  0xcc: { header: 2, size: 0 },
  0xcd: { header: 3, size: 0 },
  0xce: { header: 5, size: 0 },
  0xcf: { header: 9, size: 0 },
  0xd0: { header: 2, size: 0 },
  0xd1: { header: 3, size: 0 },
  0xd2: { header: 5, size: 0 },
  0xd3: { header: 9, size: 0 },
  0xd4: { header: 3, size: 0 },
  0xd5: { header: 4, size: 0 },
  0xd6: { header: 6, size: 0 },
  0xd7: { header: 10, size: 0 },
  0xd8: { header: 18, size: 0 },
  0xd9: { header: 2, sizeBytes: 1, name: 'str' },
  0xda: { header: 3, sizeBytes: 2, name: 'str' },
  0xdb: { header: 5, sizeBytes: 4, name: 'str' },
  0xdc: { header: 3, sizeBytes: 2, container: 'array' },
  0xdd: { header: 5, sizeBytes: 4, container: 'array' },
  0xde: { header: 3, sizeBytes: 2, container: 'map' },
  0xdf: { header: 5, sizeBytes: 4, container: 'map' }
}
