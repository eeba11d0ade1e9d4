import fs from 'node:fs'
import path from 'node:path'

// Whether a path named by a file someone else may have written (a scenario's output, a pages file's
// pages and references) stays inside `dir`: null when it does, else how it leaves, "outside" or
// "through a symbolic link" (its nearest existing part resolves elsewhere).
export function leavesDir (file, dir = process.cwd()) {
  const root = fs.realpathSync(dir)
  const resolved = path.resolve(dir, String(file))
  if (!isInside(resolved, path.resolve(dir)) && !isInside(resolved, root)) return 'outside'
  let existing = resolved
  while (!fs.existsSync(existing) && !isSymbolicLink(existing)) existing = path.dirname(existing)
  let real
  try { real = fs.realpathSync(existing) } catch { return 'through a symbolic link' }
  return isInside(real, root) ? null : 'through a symbolic link'
}

function isInside (file, dir) {
  return file === dir || file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep)
}

function isSymbolicLink (file) {
  try {
    return fs.lstatSync(file).isSymbolicLink()
  } catch {
    return false
  }
}
