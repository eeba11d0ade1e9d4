import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const BUILD_DIR = path.join(ROOT, 'build')
const loaded = new Map()

// The compiled receivers (native/*.c, built by npm install where a compiler exists). null when not
// built, not Linux, or switched off by the user (an environment variable naming the fallback), so
// every caller has its pure-JavaScript path.
export function loadNative (name, { disabled = false } = {}) {
  if (disabled) return null
  return load(name).addon
}

function load (name) {
  if (!loaded.has(name)) {
    let addon = null
    let error = null
    try {
      addon = require(path.join(BUILD_DIR, 'Release', `${name}.node`))
    } catch (err) {
      error = err
    }
    loaded.set(name, { addon, error })
  }
  return loaded.get(name)
}

// Installed into a project (node_modules/log-bench), or a checkout of the repository.
const INSTALLED = ROOT.split(path.sep).includes('node_modules')

// Why a compiled receiver is not in use, in words a user can act on; null when it is.
// disabledBy: the environment variable that switched it off, when one did.
export function nativeAbsence (name, { disabledBy = null } = {}) {
  if (disabledBy) return `${disabledBy} asks for the fallback`
  const { addon, error } = load(name)
  if (addon) return null
  if (process.platform !== 'linux') return 'the native readers are built on Linux only'
  const rebuild = INSTALLED ? 'npm rebuild log-bench' : 'npm install (or node scripts/build-native.js) in the log-bench checkout'
  if (!fs.existsSync(BUILD_DIR)) {
    return INSTALLED
      ? `it was never built: npm did not run log-bench's install script (npm 12 runs a dependency's install script only once approved; --ignore-scripts skips it): run npm install-scripts approve log-bench, then ${rebuild}`
      : `it was never built: run ${rebuild}`
  }
  if (error?.code === 'MODULE_NOT_FOUND') return `its build failed (it needs python3, make and a C compiler): install them, then run ${rebuild}`
  return `it does not load (${String(error?.message ?? error).split('\n')[0]}): run ${rebuild}`
}
