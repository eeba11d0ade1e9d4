import fs from 'node:fs'
import { UsageError } from '../errors.js'

// Reads a JSON file named by the user (results, a pages file, a scenario, reference data) as bad
// input is read: a FIFO, a device or a directory is refused before it is opened for reading (a FIFO
// would block, /dev/zero never end), a file larger than any log-bench writes is refused, nesting
// deeper than any log-bench document is refused (recursive code downstream would overflow the
// stack), and a parse error says where, never quoting the file's content: the file may be anyone's.

// The largest JSON text V8 can hold as one string is about 512 MiB.
export const MAX_JSON_BYTES = 512 * 1024 * 1024
export const MAX_JSON_DEPTH = 64

// Returns the parsed value; throws UsageError(`${label}: …`) with one line.
export function readJsonFile (file, { label = String(file), what = 'a JSON file' } = {}) {
  let fd
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK)
  } catch (err) {
    throw new UsageError(`${label}: cannot read it (${err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a directory' : err.code ?? 'unreadable'}); give ${what}`)
  }
  let text
  try {
    const stat = fs.fstatSync(fd)
    if (!stat.isFile()) throw new UsageError(`${label} is ${kindOf(stat)}, not a regular file: give ${what}`)
    if (stat.size > MAX_JSON_BYTES) throw new UsageError(`${label} is ${(stat.size / 2 ** 20).toFixed(0)} MiB, more than the ${MAX_JSON_BYTES / 2 ** 20} MiB log-bench reads: give ${what}`)
    text = decodeUtf8(fs.readFileSync(fd), label, what)
  } catch (err) {
    if (err instanceof UsageError) throw err
    throw new UsageError(`${label}: cannot read it (${err.code ?? 'unreadable'})`)
  } finally {
    fs.closeSync(fd)
  }
  let value
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new UsageError(`${label}: not valid JSON (${whereInText(err, text)}); give ${what}`)
  }
  if (depthAbove(value, MAX_JSON_DEPTH)) throw new UsageError(`${label}: nested more than ${MAX_JSON_DEPTH} levels deep, which no log-bench file is; give ${what}`)
  return value
}

// JSON files are UTF-8 without a byte-order mark (RFC 8259): a file saved as UTF-16, or with a
// BOM, by an editor is named for what it is, rather than as a token JSON does not know.
function decodeUtf8 (bytes, label, what) {
  const starts = (...marks) => marks.every((b, i) => bytes[i] === b)
  let encoding = null
  if (starts(0xef, 0xbb, 0xbf)) throw new UsageError(`${label}: it starts with a UTF-8 byte-order mark (BOM), which JSON does not allow: save it as UTF-8 without a BOM; give ${what}`)
  // Without a BOM, UTF-16 shows as a NUL beside each ASCII character (a JSON text holds no raw NUL).
  if (starts(0xff, 0xfe) || (bytes.length >= 2 && bytes[0] !== 0 && bytes[1] === 0)) encoding = 'LE'
  else if (starts(0xfe, 0xff) || (bytes.length >= 2 && bytes[0] === 0 && bytes[1] !== 0)) encoding = 'BE'
  if (encoding) throw new UsageError(`${label}: it is UTF-16 text (${encoding === 'LE' ? 'little' : 'big'}-endian), and log-bench reads JSON as UTF-8: convert it (iconv -f UTF-16${encoding} -t UTF-8); give ${what}`)
  return bytes.toString('utf8')
}

function kindOf (stat) {
  if (stat.isDirectory()) return 'a directory'
  if (stat.isFIFO()) return 'a FIFO (named pipe)'
  if (stat.isSocket()) return 'a socket'
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device'
  return 'not a regular file'
}

// "line 3, column 12" from V8's "at position N" (or "line N column M"); the parser's own message
// quotes the text around the error, which is not ours to echo.
function whereInText (err, text) {
  const lineColumn = /line (\d+) column (\d+)/.exec(err.message)
  if (lineColumn) return `line ${lineColumn[1]}, column ${lineColumn[2]}`
  const position = /at position (\d+)/.exec(err.message)
  if (position) {
    const before = text.slice(0, Number(position[1]))
    const line = before.split('\n').length
    return `line ${line}, column ${before.length - before.lastIndexOf('\n')}`
  }
  if (/Unexpected end of JSON input/.test(err.message)) return 'it ends too early'
  if (/Unexpected non-whitespace character after JSON/.test(err.message)) return 'something follows the JSON value'
  return 'a token that is not JSON, such as NaN, Infinity, a comment or a trailing comma'
}

// Whether any value nests deeper than `limit` (iteratively: the point is not to overflow the stack).
function depthAbove (value, limit) {
  const stack = [[value, 1]]
  while (stack.length) {
    const [node, depth] = stack.pop()
    if (node === null || typeof node !== 'object') continue
    if (depth > limit) return true
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
    }
  }
  return false
}
