import { fork } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import semver from 'semver'
import { UsageError } from '../errors.js'
import { signalChild } from '../engine/children.js'
import { cacheRoot, checkRange, ensureInstalled } from '../versions/cache.js'
import { parseLocalRange, prepareLocal, readLocalPackage } from '../versions/local.js'
import { BUILTIN_LIBS, LIB_SETS, VERSIONED_LIBS } from '../engine/library-names.js'

export { BUILTIN_LIBS, EVERY_LIB, LIB_SETS, POPULAR_LIBS, REAL_LIBS } from '../engine/library-names.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const PROBE = path.join(here, 'adapter-probe.js')

// A --lib entry that looks like a path (./x.js, /abs/x.mjs) is an outside adapter file.
export function isAdapterPath (entry) {
  return /[\\/]/.test(entry) || /\.[cm]?js$/.test(entry)
}

export function adapterFile (entry, cwd = process.cwd()) {
  if (BUILTIN_LIBS.includes(entry)) return path.join(here, `${entry}.js`)
  return path.resolve(cwd, entry)
}

// "pino:sync": a library and one of the variants its adapter declares; "pino" is its default.
// "pino@9", "pino@9:sync": a published version of a shipped library (a semver range or a dist-tag),
// installed into the version cache; range null: the project's own installed version.
export const DEFAULT_VARIANT = 'default'
export function splitVariant (given) {
  const match = /^(.+):([A-Za-z][\w-]*)$/.exec(given)
  const { entry, variant } = match && (isLibName(match[1]) || isAdapterPath(match[1]))
    ? { entry: match[1], variant: match[2] }
    : { entry: given, variant: DEFAULT_VARIANT }
  // pino@9, pino@./pino, pino+sonic-boom@./sb (src/versions/local.js): a range, or local parts.
  const versioned = /^([a-z][\w-]*)@(.+)$/.exec(entry) ?? /^([a-z][\w-]*)(\+.+)$/.exec(entry)
  if (versioned && BUILTIN_LIBS.includes(versioned[1])) return { entry: versioned[1], variant, range: versioned[2] }
  return { entry, variant, range: null }
}

function isLibName (name) {
  return BUILTIN_LIBS.includes(name.replace(/@.*$/, ''))
}

// Expands "all" and "every" and checks every name; returns [{ entry, file, variant }] in the order
// given, without repeats.
export function resolveLibSpecs (entries, cwd = process.cwd()) {
  const specs = []
  for (const given of entries.flatMap((e) => LIB_SETS[e] ?? [e])) {
    const { entry, variant, range } = splitVariant(given)
    if (!BUILTIN_LIBS.includes(entry) && !isAdapterPath(entry)) {
      throw new UsageError(`unknown library "${given}": use one of ${[...BUILTIN_LIBS, ...Object.keys(LIB_SETS)].join(', ')} (a variant as name:variant, e.g. pino:sync; a published version as name@range, e.g. pino@9), or a path to an adapter file such as ./my-logger.js`)
    }
    if (range !== null && !parseLocalRange(range)) checkRange(entry, range)
    const file = adapterFile(entry, cwd)
    if (!specs.some((s) => s.file === file && s.variant === variant && s.range === range)) {
      specs.push({ entry, file, variant, range })
    }
  }
  return specs
}

// The variants an adapter declares, by name; a name it does not declare is bad input.
export function checkVariant (adapter, variant) {
  if (variant === DEFAULT_VARIANT || Object.hasOwn(adapter.variants ?? {}, variant)) return
  const offered = Object.keys(adapter.variants ?? {})
  throw new UsageError(`${adapter.name} has no variant "${variant}": ${offered.length ? `it offers ${offered.join(', ')}` : 'it offers none'} (see log-bench list)`)
}

// How a library and variant are shown and selected: "pino", "pino:sync".
// A version is named where the library was asked for by version: "pino@9.14.0:sync".
export function libLabel (lib, variant, version = null) {
  const name = version ? `${lib}@${version}` : lib
  return variant && variant !== DEFAULT_VARIANT ? `${name}:${variant}` : name
}

// An adapter that never finishes importing (a top-level await that never settles) is refused
// after this long instead of leaving Node to exit silently with code 13.
export const ADAPTER_LOAD_TIMEOUT_MS = 10_000

// Loads an adapter and checks it has the documented shape; a broken outside adapter is bad input.
// The built-in adapters are imported here; an outside adapter file is imported in a process of its
// own (adapter-probe.js), which sends back its declarations: its top-level code cannot take the
// harness down (`process.exit(0)`, `throw null`), and it runs in the workers only.
export async function loadAdapter (file) {
  if (!fs.existsSync(file)) throw new UsageError(`adapter file not found: ${file}`)
  const adapter = isBuiltin(file) ? (await import(pathToFileURL(file).href)).default : await probeAdapter(file)
  const problem = adapterProblem(adapter)
  if (problem) throw new UsageError(`adapter ${file} does not export the adapter interface: ${problem} (see docs/adapters.md)`)
  return adapter
}

const isBuiltin = (file) => BUILTIN_LIBS.some((name) => path.join(here, `${name}.js`) === file)

function probeAdapter (file) {
  return new Promise((resolve, reject) => {
    const child = fork(PROBE, [file], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], execArgv: [] })
    let answer = null
    const timer = setTimeout(() => {
      signalChild(child)
      reject(new UsageError(`adapter ${file} did not finish loading within ${ADAPTER_LOAD_TIMEOUT_MS / 1000} s (a top-level await that never settles?)`))
    }, ADAPTER_LOAD_TIMEOUT_MS)
    child.on('message', (msg) => { answer ??= msg })
    child.on('error', (err) => { clearTimeout(timer); reject(new UsageError(`adapter ${file} could not be loaded: ${err.message}`)) })
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      if (answer?.type === 'adapter' && answer.adapter?.kind === 'object') {
        const { data, createIsFunction } = answer.adapter
        return resolve(data && typeof data === 'object' ? { ...data, create: createIsFunction ? PROBED_CREATE : undefined } : null)
      }
      if (answer?.type === 'adapter') return reject(new UsageError(`adapter ${file} does not export the adapter interface: its default export is ${EXPORT_KINDS[answer.adapter?.kind] ?? 'not an object'}${answer.adapter?.kind === 'promise' ? ' (the result of an async function?): export the adapter object itself, and await inside create()' : ': export the adapter object'} (see docs/adapters.md)`))
      if (answer?.type === 'error' && typeof answer.message === 'string') return reject(new UsageError(`adapter ${file} could not be loaded: ${answer.message}${moduleKindHint(answer)}`))
      if (code === 13) return reject(new UsageError(`adapter ${file} did not finish loading: a top-level await that never settles (Node exits with code 13)`))
      reject(new UsageError(`adapter ${file} ended its process while loading (${signal ? `killed by ${signal}` : `exit code ${code}`}): an adapter's top-level code must not exit; build the logger in create()`))
    })
  })
}

const EXPORT_KINDS = { promise: 'a Promise', function: 'a function', undefined: 'missing (no export default)', null: 'null', string: 'a string', number: 'a number', boolean: 'a boolean', bigint: 'a bigint', symbol: 'a symbol' }

// Stands for an outside adapter's create(), which only ever runs in the workers.
function PROBED_CREATE () {
  throw new Error('an outside adapter is created in the workers only')
}

// An ES module loaded as CommonJS, or the other way round: which file name or form fits.
function moduleKindHint (err) {
  const message = String(err?.message)
  if (/Cannot use import statement outside a module|Unexpected token 'export'/.test(message)) return ' (it is an ES module, but the nearest package.json makes .js files CommonJS: name it .mjs, or write it with require and module.exports; see docs/adapters.md)'
  if (/(require|module|exports) is not defined in ES module scope/.test(message)) return ' (it is CommonJS, but the nearest package.json makes .js files ES modules: name it .cjs, or write it with import and export default; see docs/adapters.md)'
  return ''
}

function adapterProblem (adapter) {
  if (!adapter || typeof adapter !== 'object') return 'no default export object'
  if (typeof adapter.name !== 'string' || !/^[\w.@-]+$/.test(adapter.name)) return 'name must be a non-empty string of letters, digits, ".", "-", "_" or "@"'
  if (!Array.isArray(adapter.transports) || adapter.transports.some((t) => typeof t !== 'string')) return 'transports must be an array of transport names'
  if (typeof adapter.create !== 'function') return 'create must be an async function returning { log, close }'
  if (adapter.workloads !== undefined && !Array.isArray(adapter.workloads)) return 'workloads must be an array of workload names'
  if (adapter.variants !== undefined && (typeof adapter.variants !== 'object' || adapter.variants === null)) return 'variants must be an object of { name: { describe, docs } }'
  return null
}

// Loads the adapters of checked --lib entries: [{ name, file, adapter, version }] for run and http
// alike (`http` puts its `none` baseline in front). `taken` are names already in use.
// variants: false where a command runs each library on its default only (http).
// A versioned entry (pino@9) is installed into the version cache (`cache`: --cache DIR) on first use:
// every library is installed, or refused, before anything runs. Its lib carries libDir (where it
// was installed) and range (what was asked for).
export async function loadLibraries (
  entries,
  taken = [],
  { variants = true, cache = null, progress, signal = null } = {}
) {
  const libs = []
  for (const spec of resolveLibSpecs(entries)) {
    if (!variants && spec.variant !== DEFAULT_VARIANT) throw new UsageError(`--lib ${spec.entry}:${spec.variant}: this command runs each library on its default configuration; variants are for \`log-bench run\``)
    const adapter = await loadAdapter(spec.file)
    checkVariant(adapter, spec.variant)
    const clash = taken.includes(adapter.name) || libs.some((l) => l.name === adapter.name && l.file !== spec.file)
    if (clash) throw new UsageError(`two adapters are both named "${adapter.name}": give each adapter a unique name`)
    // A packageName or version that is not one (a path that climbs out, markup, escapes) makes every
    // run of the adapter a failed run with the reason; nothing is read or installed by that name.
    let problem = declarationProblem(adapter)
    let installed = { version: null, dir: null }
    const local = spec.range === null ? null : parseLocalRange(spec.range)
    if (!problem) {
      installed = spec.range === null
        ? { version: libraryVersion(adapter, spec.file), dir: null }
        : local
          ? await localLibrary(adapter, spec, local, { cache, progress, signal })
          : await installLibrary(adapter, spec, { cache, progress, signal })
    }
    if (!problem && installed.version != null && !isVersionText(installed.version)) {
      problem = `the version of ${adapter.packageName ?? adapter.name} it found, ${shown(installed.version)}, is not a version (a short string such as 1.2.3)`
      installed = { version: null, dir: installed.dir }
    }
    const lib = { name: adapter.name, variant: spec.variant, file: spec.file, adapter, version: installed.version, libDir: installed.dir, range: spec.range, ...(installed.source ? { source: installed.source } : {}), ...(problem ? { problem: `the ${adapter.name} adapter cannot be run: ${problem}` } : {}) }
    const same = libs.find((l) => l.name === lib.name && l.variant === lib.variant && l.version === lib.version)
    if (same) throw new UsageError(`--lib ${libLabel(lib.name, lib.variant)}${rangeText(lib.range)} and ${libLabel(same.name, same.variant)}${rangeText(same.range)} are both ${lib.name} ${lib.version}: give each version once`)
    libs.push(lib)
  }
  return libs
}

// Installs (or finds in the cache) the version a NAME@RANGE asks for; only adapters that say which
// versions they handle (`versions`, a semver range) take one.
async function installLibrary (adapter, spec, { cache, progress, signal }) {
  if (!adapter.packageName || !adapter.versions) {
    throw new UsageError(`--lib ${spec.entry}@${spec.range}: the ${adapter.name} adapter runs the installed ${adapter.packageName ?? adapter.name} only; published versions work for ${VERSIONED_LIBS.join(', ')}`)
  }
  const handles = `the ${adapter.name} adapter follows the documented API of ${adapter.packageName} ${adapter.versions}`
  if (semver.validRange(spec.range) && !semver.intersects(semver.validRange(spec.range), adapter.versions)) throw new UsageError(`--lib ${spec.entry}@${spec.range}: ${handles}, and no such version matches "${spec.range}"`)
  const installed = await ensureInstalled({ root: cacheRoot(cache), kind: 'libs', packageName: adapter.packageName, range: spec.range, progress, signal })
  if (!semver.satisfies(installed.version, adapter.versions)) {
    throw new UsageError(`--lib ${spec.entry}@${spec.range} gave ${adapter.packageName} ${installed.version}, which the ${adapter.name} adapter does not handle (${handles})`)
  }
  return installed
}

// A local copy (--lib pino@./pino, pino+sonic-boom@./sb): the release it stands beside (installed
// by range, or the project's own), and the folders or tarballs given, each checked to be the package
// it is given as, built into the version cache (src/versions/local.js).
async function localLibrary (adapter, spec, local, { cache, progress, signal }) {
  if (!adapter.packageName || !adapter.versions) {
    throw new UsageError(`--lib ${spec.entry}${rangeText(spec.range)}: the ${adapter.name} adapter runs the installed ${adapter.packageName ?? adapter.name} only; local copies work for ${VERSIONED_LIBS.join(', ')}`)
  }
  const root = cacheRoot(cache)
  const scratch = path.join(root, 'libs', 'local', '.unpacked')
  const lib = local.libPath ? readLocalPackage(local.libPath, adapter.packageName, scratch) : null
  const overrides = local.overrides.map((o) => ({ name: o.name, ...readLocalPackage(o.path, o.name, scratch) }))
  if (lib && !semver.satisfies(semver.coerce(lib.version) ?? '0.0.0', adapter.versions)) {
    throw new UsageError(`--lib ${spec.entry}${rangeText(spec.range)}: ${local.libPath} is ${adapter.packageName} ${lib.version}, which the ${adapter.name} adapter does not handle (it follows ${adapter.versions})`)
  }
  const base = local.release !== null
    ? await installLibrary(adapter, { ...spec, range: local.release }, { cache, progress, signal })
    : { version: libraryVersion(adapter, spec.file), dir: installedRoot(adapter, spec.file) }
  if (!base.dir) throw new UsageError(`--lib ${spec.entry}${rangeText(spec.range)}: ${adapter.packageName} is not installed here to stand beside (give a release: ${adapter.packageName}@<version>+…)`)
  const built = prepareLocal({ root, packageName: adapter.packageName, base, lib, overrides })
  progress?.(`local ${adapter.packageName} ${built.version} in ${built.dir}`)
  return built
}

// What followed the library's name in --lib: @9, @./pino, +sonic-boom@./sb.
const rangeText = (range) => (range === null ? '' : range.startsWith('+') ? range : `@${range}`)

// The folder whose node_modules holds the library an adapter wraps, found from the adapter's file up.
function installedRoot (adapter, adapterPath) {
  for (let dir = path.dirname(adapterPath); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'node_modules', adapter.packageName, 'package.json'))) return dir
    if (path.dirname(dir) === dir) return null
  }
}

// npm's rule for a package name (lower case, URL-safe, an optional @scope/, at most 214 characters):
// no "..", no "/" but the scope's, so a name can never lead out of node_modules.
const PACKAGE_NAME = /^(@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/
// A version as results and pages show it: short, printable, no spaces or markup (1.2.3, v20.1.0, 2.0.0-rc.1+build).
const VERSION_TEXT = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/
const isVersionText = (value) => typeof value === 'string' && VERSION_TEXT.test(value)
const shown = (value) => {
  try { return (JSON.stringify(value) ?? String(value)).slice(0, 80) } catch { return typeof value }
}

// What is wrong with an adapter's packageName or version, or null.
export function declarationProblem (adapter) {
  const { packageName, version } = adapter
  if (packageName !== undefined && packageName !== null && !(typeof packageName === 'string' && packageName.length <= 214 && PACKAGE_NAME.test(packageName))) {
    return `its packageName ${shown(packageName)} is not an npm package name (such as pino or @scope/name)`
  }
  if (version !== undefined && version !== null && !isVersionText(version)) return `its version ${shown(version)} is not a version (a short string such as 1.2.3)`
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
