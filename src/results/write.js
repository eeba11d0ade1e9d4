import fs from 'node:fs'
import path from 'node:path'

// Writes through a temporary file in the same directory and renames it into place: a reader (or a
// Ctrl-C at the wrong moment) sees the previous complete document or the new one, never half of one.
export function writeJsonAtomic (file, value) {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`)
  const fd = fs.openSync(tmp, 'w')
  try {
    fs.writeSync(fd, JSON.stringify(value, null, 2) + '\n')
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  fs.renameSync(tmp, file)
}
