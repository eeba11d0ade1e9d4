import stringWidth from 'string-width'

// How many columns a terminal gives a text: the one measure for every column padded, cut or wrapped
// (the terminal's tables and paragraphs, the help, the progress line). Neither UTF-16 units ('📁'
// is 2) nor code points ('e' + a combining accent is 2, a family emoji 7) are columns: string-width
// (Sindre Sorhus', as cliui and yargs use it) counts grapheme clusters by Unicode's East Asian Width,
// emoji as two columns, combining marks and zero-width characters as none, and ANSI marks as none.
export const displayWidth = (text) => stringWidth(String(text ?? ''))

const segmenter = new Intl.Segmenter()
const ANSI_MARK = /(\x1b\[\d+m)/

// The least width the terminal's tables, paragraphs and help are laid out for: narrower, a table's
// columns or the help's key and description have no room beside each other.
export const MIN_WIDTH = 40

// The terminal's columns as asked: $COLUMNS where it is set (a shell's, or `COLUMNS=100 log-bench
// run`), else the stream's own when it is a terminal, else null (a pipe, a file).
export function terminalColumns (stream = process.stdout, env = process.env) {
  const asked = Number.parseInt(env.COLUMNS, 10)
  return asked > 0 ? asked : stream?.isTTY && stream.columns > 0 ? stream.columns : null
}

// The text as the pieces a line may be cut between: whole grapheme clusters and whole ANSI marks
// (of width 0), each with its width.
export function displayUnits (text) {
  const units = []
  for (const part of String(text ?? '').split(ANSI_MARK)) {
    if (ANSI_MARK.test(part)) units.push({ text: part, width: 0 })
    else for (const { segment } of segmenter.segment(part)) units.push({ text: segment, width: stringWidth(segment) })
  }
  return units
}

// The longest beginning of the text that is at most `width` columns wide, a cluster never cut.
export function truncateToWidth (text, width) {
  let out = ''
  let shown = 0
  for (const unit of displayUnits(text)) {
    if (shown + unit.width > width) break
    out += unit.text
    shown += unit.width
  }
  return out
}

// The text padded with spaces to `width` columns, on its right (align 'left') or its left ('right');
// a text already wider is left as it is.
export function padToWidth (text, width, align = 'left', shown = displayWidth(text)) {
  const fill = ' '.repeat(Math.max(0, width - shown))
  return align === 'right' ? fill + text : text + fill
}
