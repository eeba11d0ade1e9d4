import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

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

// log-bench's own directory: a clone's root, or node_modules/log-bench where it is installed.
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

// A command that pages and messages give as run from a clone's root (`node benchmarks/x.js`,
// `npm run bench:x`), as it runs where log-bench is installed (under node_modules): the script's
// path from the current directory, since the user's own package.json has no bench scripts.
// Unchanged in a clone.
export function runnableHere (text, { root = PACKAGE_ROOT, cwd = process.cwd() } = {}) {
  if (!root.split(path.sep).includes('node_modules')) return text
  const dir = (path.relative(cwd, root) || '.').split(path.sep).join('/')
  return text
    .replace(/npm run bench:([\w-]+)/g, (_, name) => `node benchmarks/${name}.js`)
    .replace(/(^|[\s`(])benchmarks\//g, (_, before) => `${before}${dir}/benchmarks/`)
}
