// Where an adapter's library comes from, in the process that logs: the project's own dependency,
// or, for `--lib NAME@RANGE`, the version installed in the cache (its own node_modules, with its own
// dependencies). Adapters call load('pino') instead of importing the library at the top, so a
// worker never loads a second copy beside the one it measures.
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

// libDir: the cache directory holding node_modules/<library>, or null for the project's.
// Returns load(specifier): the module's default export (module.exports for CommonJS), or its
// namespace when it has no default.
export function libraryLoader (libDir) {
  const require = libDir ? createRequire(path.join(libDir, 'package.json')) : null
  return async function load (specifier) {
    const ns = require ? await import(pathToFileURL(require.resolve(specifier)).href) : await import(specifier)
    return ns.default ?? ns
  }
}

// The project's own libraries: what an adapter loads when it is given no loader (a direct call).
export const loadProjectLibrary = libraryLoader(null)
