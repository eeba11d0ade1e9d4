import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { UsageError } from '../errors.js'

const here = path.dirname(fileURLToPath(import.meta.url))

export const REAL_LIBS = ['log4js', 'winston', 'bunyan', 'pino']
export const BASELINES = ['noop', 'raw']
export const BUILTIN_LIBS = [...REAL_LIBS, ...BASELINES]

// A --lib entry that looks like a path (./x.js, /abs/x.mjs) is an outside adapter file.
export function isAdapterPath (entry) {
  return /[\\/]/.test(entry) || /\.[cm]?js$/.test(entry)
}

export function adapterFile (entry, cwd = process.cwd()) {
  if (BUILTIN_LIBS.includes(entry)) return path.join(here, `${entry}.js`)
  return path.resolve(cwd, entry)
}

// Expands "all" and checks every name; returns [{ name, file }] in the order given, without repeats.
export function resolveLibSpecs (entries, cwd = process.cwd()) {
  const specs = []
  for (const entry of entries.flatMap((e) => (e === 'all' ? REAL_LIBS : [e]))) {
    if (!BUILTIN_LIBS.includes(entry) && !isAdapterPath(entry)) {
      throw new UsageError(`unknown library "${entry}": use one of ${[...BUILTIN_LIBS, 'all'].join(', ')}, or a path to an adapter file such as ./my-logger.js`)
    }
    const file = adapterFile(entry, cwd)
    if (!specs.some((s) => s.file === file)) specs.push({ entry, file })
  }
  return specs
}

// Imports an adapter and checks it has the documented shape; a broken outside adapter is bad input.
export async function loadAdapter (file) {
  if (!fs.existsSync(file)) throw new UsageError(`adapter file not found: ${file}`)
  let mod
  try {
    mod = await import(pathToFileURL(file).href)
  } catch (err) {
    throw new UsageError(`adapter ${file} could not be loaded: ${err.message.split('\n')[0]}`)
  }
  const adapter = mod.default
  const problem = adapterProblem(adapter)
  if (problem) throw new UsageError(`adapter ${file} does not export the adapter interface: ${problem} (see README, "Writing an adapter")`)
  return adapter
}

function adapterProblem (adapter) {
  if (!adapter || typeof adapter !== 'object') return 'no default export object'
  if (typeof adapter.name !== 'string' || !/^[\w.@-]+$/.test(adapter.name)) return 'name must be a non-empty string of letters, digits, ".", "-", "_" or "@"'
  if (!Array.isArray(adapter.transports)) return 'transports must be an array of transport names'
  if (typeof adapter.create !== 'function') return 'create must be an async function returning { log, close }'
  return null
}

// Loads the adapters of checked --lib entries: [{ name, file, adapter, version }] for run and http
// alike (`http` puts its `none` baseline in front). `taken` are names already in use.
export async function loadLibraries (entries, taken = []) {
  const libs = []
  for (const spec of resolveLibSpecs(entries)) {
    const adapter = await loadAdapter(spec.file)
    if ([...taken, ...libs.map((l) => l.name)].includes(adapter.name)) throw new UsageError(`two adapters are both named "${adapter.name}": give each adapter a unique name`)
    libs.push({ name: adapter.name, file: spec.file, adapter, version: libraryVersion(adapter, spec.file) })
  }
  return libs
}

// The installed version of the library an adapter wraps, read from its package.json.
export function libraryVersion (adapter, adapterPath) {
  if (typeof adapter.version === 'string') return adapter.version
  if (!adapter.packageName) return adapter.baseline ? process.version : null
  let dir = path.dirname(adapterPath)
  for (;;) {
    const candidate = path.join(dir, 'node_modules', adapter.packageName, 'package.json')
    if (fs.existsSync(candidate)) return JSON.parse(fs.readFileSync(candidate, 'utf8')).version
    const parent = path.dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}
