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

// An adapter that never finishes importing (a top-level await that never settles) is refused
// after this long instead of leaving Node to exit silently with code 13.
export const ADAPTER_LOAD_TIMEOUT_MS = 10_000

// Imports an adapter and checks it has the documented shape; a broken outside adapter is bad input.
export async function loadAdapter (file) {
  if (!fs.existsSync(file)) throw new UsageError(`adapter file not found: ${file}`)
  let mod
  let timer
  const tooLong = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new UsageError(`adapter ${file} did not finish loading within ${ADAPTER_LOAD_TIMEOUT_MS / 1000} s (a top-level await that never settles?)`)), ADAPTER_LOAD_TIMEOUT_MS)
  })
  try {
    mod = await Promise.race([import(pathToFileURL(file).href), tooLong])
  } catch (err) {
    if (err instanceof UsageError) throw err
    throw new UsageError(`adapter ${file} could not be loaded: ${err.message.split('\n')[0]}`)
  } finally {
    clearTimeout(timer)
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

// The installed version of the library an adapter wraps, read from its package.json.
export function libraryVersion (adapter, adapterPath) {
  if (typeof adapter.version === 'string') return adapter.version
  if (!adapter.packageName) return adapter.baseline ? process.version : null
  let dir = path.dirname(adapterPath)
  for (;;) {
    const candidate = path.join(dir, 'node_modules', adapter.packageName, 'package.json')
    if (fs.existsSync(candidate)) return packageVersion(candidate)
    const parent = path.dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}

function packageVersion (file) {
  try {
    const version = JSON.parse(fs.readFileSync(file, 'utf8')).version
    return typeof version === 'string' ? version : null
  } catch (err) {
    throw new UsageError(`${file} cannot be read for the library's version: ${err.message.split('\n')[0]}`)
  }
}
