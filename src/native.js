import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const loaded = new Map()

// The compiled receivers (native/*.c, built by npm install where a compiler exists). null when not
// built, not Linux, or switched off by the user (an environment variable naming the fallback), so
// every caller has its pure-JavaScript path.
export function loadNative (name, { disabled = false } = {}) {
  if (disabled) return null
  if (!loaded.has(name)) {
    let addon = null
    try {
      addon = require(`../build/Release/${name}.node`)
    } catch {}
    loaded.set(name, addon)
  }
  return loaded.get(name)
}
