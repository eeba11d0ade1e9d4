// Characters that act on a terminal or hide text rather than show it: C0 controls but tab and
// newline, DEL, C1 controls (\x9b is a CSI of its own), bidi overrides and isolates, zero-width
// characters and the byte-order mark. Every one is shown as its escape (\x1b, \u202e), in the
// terminal and on pages alike, so that text from a results file or an adapter can neither move the
// cursor, retitle the window, link elsewhere (OSC 8) nor reorder what a reader sees.
const INVISIBLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g
export function visibleControls (text) {
  return String(text ?? '').replace(INVISIBLE, (ch) => {
    const code = ch.charCodeAt(0)
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
}

// JSON text with the same characters written as \u escapes (JSON.stringify escapes only C0): the
// values read back unchanged, and the text shown on a terminal acts on nothing.
export function jsonWithEscapedControls (json) {
  return json.replace(INVISIBLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

// A value someone else gave (an API caller's option, a child's message), short enough for one line
// of an error, as it was written: JSON would say null for NaN and Infinity, and throws on a BigInt.
export function describeValue (value) {
  if (value === undefined) return 'missing'
  let shown
  try {
    if (typeof value === 'number') shown = String(value)
    else if (typeof value === 'bigint') shown = `${value}n (a BigInt)`
    else if (Array.isArray(value)) shown = `[${value.map(describeValue).join(', ')}]`
    else shown = JSON.stringify(value) ?? String(value)
  } catch {
    shown = typeof value
  }
  return shown.length > 40 ? `${shown.slice(0, 40)}…` : shown
}
