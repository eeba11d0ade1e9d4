// Syslog message parsing (RFC 5424, and the looser RFC 3164 "BSD" format with the variants the
// libraries really send) and TCP framing (RFC 6587: octet counting and non-transparent newline
// framing). Text is handled as latin1 so one character is one byte: octet counts stay exact.

const MAX_PRI = 191
const MAX_COUNT_DIGITS = 10

// Returns { format, pri, message } or null when the text is not a syslog message at all.
// `message` is the MSG part: what the application logged, without the header.
export function parseSyslog (text) {
  if (text.charCodeAt(0) !== 60 /* < */) return null
  const close = text.indexOf('>', 1)
  if (close < 2 || close > 4) return null
  const priText = text.slice(1, close)
  if (!/^\d+$/.test(priText) || (priText.length > 1 && priText[0] === '0')) return null
  const pri = Number(priText)
  if (pri > MAX_PRI) return null
  const rest = text.slice(close + 1)
  if (/^[1-9]\d{0,2} /.test(rest)) return parse5424(pri, rest)
  return { format: 'rfc3164', pri, message: bsdMessage(rest) }
}

// VERSION SP TIMESTAMP SP HOSTNAME SP APP-NAME SP PROCID SP MSGID SP STRUCTURED-DATA [SP MSG]
function parse5424 (pri, rest) {
  let pos = rest.indexOf(' ') + 1
  for (let field = 0; field < 5; field++) {
    const space = rest.indexOf(' ', pos)
    if (space === -1 || space === pos) return null
    pos = space + 1
  }
  const afterData = skipStructuredData(rest, pos)
  if (afterData === -1) return null
  if (afterData === rest.length) return { format: 'rfc5424', pri, message: '' }
  if (rest[afterData] !== ' ') return null
  return { format: 'rfc5424', pri, message: rest.slice(afterData + 1) }
}

// STRUCTURED-DATA is "-" or one or more [id param="value"...] with \" \] \\ escapes in values.
function skipStructuredData (text, pos) {
  if (text[pos] === '-') return pos + 1
  if (text[pos] !== '[') return -1
  while (text[pos] === '[') {
    let inValue = false
    pos++
    for (;;) {
      if (pos >= text.length) return -1
      const ch = text[pos]
      if (inValue && ch === '\\') pos += 2
      else {
        if (ch === '"') inValue = !inValue
        else if (ch === ']' && !inValue) break
        pos++
      }
    }
    pos++
  }
  return pos
}

const BSD_TIMESTAMP = /^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d /
const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d) /
const HOST_AND_TAG = /^(\S+ )?[^\s:[]{1,48}(\[[^\]\s]*\])?: ?/

// RFC 3164 allows anything after PRI; senders put TIMESTAMP HOSTNAME TAG[pid]: before the text,
// with a BSD or an ISO timestamp (bunyan-syslog). Whatever cannot be read as a header is message.
function bsdMessage (rest) {
  const stamp = BSD_TIMESTAMP.exec(rest) ?? ISO_TIMESTAMP.exec(rest)
  if (stamp === null) return rest
  const afterStamp = rest.slice(stamp[0].length)
  const header = HOST_AND_TAG.exec(afterStamp)
  return header === null ? afterStamp : afterStamp.slice(header[0].length)
}

// One datagram is one message (RFC 5426); a trailing newline some senders add is not part of it.
// The datagram is buffer[start, end): a whole buffer, or one record of the native receiver's batch.
export function datagramText (buffer, start = 0, end = buffer.length) {
  return buffer.latin1Slice(start, end > start && buffer[end - 1] === 10 ? end - 1 : end)
}

// Splits one TCP connection's byte stream into frames. Each frame starts either with a digit
// (octet counting: "MSG-LEN SP MSG") or with anything else (newline framing: "MSG LF").
// A frame above maxFrameBytes, an absurd or malformed octet count, or a frame cut off when the
// connection ends is reported through onCorrupt and skipped; memory stays bounded by maxFrameBytes.
export class TcpFramer {
  constructor ({ onFrame, onCorrupt, maxFrameBytes }) {
    this.onFrame = onFrame
    this.onCorrupt = onCorrupt
    this.maxFrameBytes = maxFrameBytes
    this.pending = ''
    this.mode = 'start'
    this.remaining = 0
  }

  push (chunk) {
    const text = this.pending === '' ? chunk.latin1Slice(0, chunk.length) : this.pending + chunk.latin1Slice(0, chunk.length)
    this.pending = ''
    let pos = 0
    while (pos < text.length) {
      if (this.mode === 'start') {
        const code = text.charCodeAt(pos)
        if (code === 10 || code === 13 || code === 0) pos++
        else this.mode = code >= 48 && code <= 57 ? 'count' : 'line'
      } else if (this.mode === 'count') {
        const space = text.indexOf(' ', pos)
        const digitsEnd = space === -1 ? text.length : space
        if (digitsEnd - pos > MAX_COUNT_DIGITS || !/^\d*$/.test(text.slice(pos, digitsEnd))) {
          this.onCorrupt('malformed octet count')
          this.mode = 'discardLine'
          continue
        }
        if (space === -1) break
        const count = Number(text.slice(pos, space))
        pos = space + 1
        if (count > this.maxFrameBytes) {
          this.onCorrupt(`octet count ${count} above the ${this.maxFrameBytes}-byte limit`)
          this.mode = 'skip'
          this.remaining = count
        } else {
          this.mode = 'octets'
          this.remaining = count
        }
      } else if (this.mode === 'octets') {
        if (text.length - pos < this.remaining) break
        this.onFrame(text.slice(pos, pos + this.remaining))
        pos += this.remaining
        this.mode = 'start'
      } else if (this.mode === 'skip') {
        const take = Math.min(this.remaining, text.length - pos)
        this.remaining -= take
        pos += take
        if (this.remaining === 0) this.mode = 'start'
      } else {
        const newline = text.indexOf('\n', pos)
        if (newline === -1) {
          if (this.mode === 'line' && text.length - pos > this.maxFrameBytes) {
            this.onCorrupt(`frame above the ${this.maxFrameBytes}-byte limit`)
            this.mode = 'discardLine'
          }
          if (this.mode === 'discardLine') pos = text.length
          break
        }
        if (this.mode === 'line') this.onFrame(stripCarriageReturn(text.slice(pos, newline)))
        pos = newline + 1
        this.mode = 'start'
      }
    }
    if (pos < text.length && (this.mode === 'line' || this.mode === 'count' || this.mode === 'octets')) this.pending = text.slice(pos)
  }

  // The connection closed. A newline-framed message without its LF is whole (many senders end
  // the stream without one); an octet-counted frame short of its count was cut off.
  end () {
    if (this.mode === 'line' && this.pending !== '') this.onFrame(stripCarriageReturn(this.pending))
    else if (this.mode === 'octets' || this.mode === 'count' || (this.mode === 'skip' && this.remaining > 0)) this.onCorrupt('connection closed inside a frame')
    this.pending = ''
    this.mode = 'start'
  }
}

function stripCarriageReturn (line) {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line
}
