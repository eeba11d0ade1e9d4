import { spawnSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { safeName } from './cache.js'

// A maintainer's loop: a library, or one of its dependencies, from a local folder or a tarball (npm
// pack's .tgz), run as a cell of its own beside the published release (docs/versions.md, "Local
// copies"):
//   --lib pino@./pino                       the folder (or pino-10.4.0.tgz) as pino
//   --lib pino+sonic-boom@./sonic-boom      the installed pino, its sonic-boom from the folder
//   --lib pino@10.4.0+sonic-boom@./sb       pino 10.4.0 (installed by range), its sonic-boom the folder's
// The copy is built in the version cache (libs/local/<package>-<id>/node_modules): the library and
// each dependency given are copied there (without their own node_modules or .git), every other
// package the release has is linked from the release's node_modules. So the library's own requires
// reach the dependency given; a package of the release that requires that dependency itself still
// gets the release's copy. The id is a hash of what was given (each folder's files) and the release.

// A package name as npm allows it, then '@', then the local folder or tarball.
const OVERRIDE = /\+((?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*)@/g
const MAX_FILES = 20_000

// A local folder or tarball as --lib gives it: ./x, ../x, /x, ~/x, or a name ending in .tgz.
export const isLocalPath = (text) => /^(\.{1,2}(\/|$)|\/|~\/)/.test(text) || /\.(tgz|tar\.gz)$/.test(text)

// What follows NAME@ (or NAME+…): { release, libPath, overrides: [{ name, path }] } where any part is
// local, else null. release: the range to install (null: the project's installed copy).
export function parseLocalRange (range) {
  const starts = [...range.matchAll(OVERRIDE)]
  const base = range.slice(0, starts[0]?.index ?? range.length)
  const overrides = starts.map((match, i) => ({
    name: match[1],
    path: range.slice(match.index + match[0].length, starts[i + 1]?.index ?? range.length)
  }))
  if (!overrides.length && !isLocalPath(base)) return null
  for (const o of overrides) {
    if (!isLocalPath(o.path)) throw new UsageError(`--lib …+${o.name}@${o.path}: a dependency is given as a local folder or .tgz (./${o.name}, ../${o.name}-1.0.0.tgz)`)
  }
  const local = isLocalPath(base)
  return { release: local || base === '' ? null : base, libPath: local ? base : null, overrides }
}

// A folder or tarball given for package `name`: { given, folder, version, sha256 }, the tarball
// unpacked under `scratch`. Refused with one line where it is not that package.
export function readLocalPackage (given, name, scratch, cwd = process.cwd()) {
  const where = path.resolve(cwd, given.replace(/^~(?=\/)/, process.env.HOME ?? '~'))
  let stat
  try { stat = fs.statSync(where) } catch { throw new UsageError(`--lib: ${given} does not exist (give the folder of ${name}, or its npm pack .tgz)`) }
  let folder = where
  if (stat.isFile()) {
    if (!/\.(tgz|tar\.gz)$/.test(where)) throw new UsageError(`--lib: ${given} is a file, not a folder or a .tgz of ${name}`)
    fs.mkdirSync(scratch, { recursive: true })
    const into = fs.mkdtempSync(path.join(scratch, 'tgz-'))
    const tar = spawnSync('tar', ['-xzf', where, '-C', into, '--no-same-owner'], { encoding: 'utf8' })
    if (tar.status !== 0) throw new UsageError(`--lib: ${given} is not a tarball tar can unpack: ${(tar.stderr || tar.error?.message || '').trim().split('\n')[0]}`)
    folder = path.join(into, 'package')
  } else if (!stat.isDirectory()) {
    throw new UsageError(`--lib: ${given} is neither a folder nor a .tgz of ${name}`)
  }
  let manifest = null
  try { manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) } catch {}
  if (manifest?.name !== name) {
    throw new UsageError(`--lib: ${given} is not ${name}: ${manifest ? `its package.json names ${JSON.stringify(String(manifest.name)).slice(0, 80)}` : 'it has no readable package.json'}`)
  }
  const version = typeof manifest.version === 'string' && /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,40}$/.test(manifest.version) ? manifest.version : '0.0.0'
  return { given, folder, version, sha256: hashFiles(folder) }
}

// The files of a package folder (not its node_modules or .git), by path and content, in one hash.
export function hashFiles (folder) {
  const hash = createHash('sha256')
  let count = 0
  const walk = (dir, prefix) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      if (entry.name === 'node_modules' || entry.name === '.git') continue
      const rel = `${prefix}${entry.name}`
      const full = path.join(dir, entry.name)
      if (++count > MAX_FILES) throw new UsageError(`--lib: ${folder} holds more than ${MAX_FILES} files outside node_modules: is it the package's folder?`)
      if (entry.isDirectory()) walk(full, `${rel}/`)
      else if (entry.isSymbolicLink()) hash.update(`${rel}\0link\0${fs.readlinkSync(full)}\0`)
      else if (entry.isFile()) hash.update(`${rel}\0`).update(fs.readFileSync(full)).update('\0')
    }
  }
  walk(folder, '')
  return hash.digest('hex')
}

// Builds (or finds) the local copy: { dir, version, source }. base: { dir, version } of the release
// (dir holds its node_modules); lib: readLocalPackage's, or null (the release's own); overrides:
// [{ name, ...readLocalPackage's }]. version: the copy's own, with +local.<id> so that its cell is
// never the release's.
export function prepareLocal ({ root, packageName, base, lib, overrides }) {
  const id = createHash('sha256').update(JSON.stringify([packageName, base.dir, base.version, lib?.sha256 ?? null, overrides.map((o) => [o.name, o.sha256])])).digest('hex').slice(0, 16)
  const dir = path.join(root, 'libs', 'local', `${safeName(packageName)}-${id}`)
  if (!fs.existsSync(path.join(dir, '.complete'))) build({ dir, packageName, base, lib, overrides })
  const described = (pkg) => ({ path: pkg.given, version: pkg.version, sha256: pkg.sha256 })
  return {
    dir,
    version: `${lib ? lib.version : base.version}+local.${id.slice(0, 8)}`,
    source: {
      lib: lib ? described(lib) : null,
      release: lib ? null : base.version,
      overrides: overrides.map((o) => ({ name: o.name, ...described(o) }))
    }
  }
}

function build ({ dir, packageName, base, lib, overrides }) {
  const staging = `${dir}.${randomBytes(4).toString('hex')}.tmp`
  const modules = path.join(staging, 'node_modules')
  fs.mkdirSync(modules, { recursive: true })
  try {
    const given = new Set([packageName, ...overrides.map((o) => o.name)])
    const from = path.join(base.dir, 'node_modules')
    for (const name of packagesIn(from)) {
      if (given.has(name)) continue
      fs.mkdirSync(path.dirname(path.join(modules, name)), { recursive: true })
      fs.symlinkSync(fs.realpathSync(path.join(from, name)), path.join(modules, name))
    }
    // The release's own copy keeps its nested node_modules, but for the dependencies given.
    const libFolder = lib ? lib.folder : path.join(from, packageName)
    copyPackage(libFolder, path.join(modules, packageName), { nested: !lib, except: given })
    for (const o of overrides) copyPackage(o.folder, path.join(modules, o.name), { nested: false, except: given })
    fs.writeFileSync(path.join(staging, '.complete'), '')
    try {
      fs.renameSync(staging, dir)
    } catch (err) {
      // Another run built the same copy meanwhile: it is the same files.
      if (!fs.existsSync(path.join(dir, '.complete'))) throw err
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true })
  }
}

// The packages of a node_modules folder, scoped ones as @scope/name; .bin and dot folders left out.
function packagesIn (modules) {
  if (!fs.existsSync(modules)) return []
  return fs.readdirSync(modules).filter((name) => !name.startsWith('.')).flatMap((name) => (name.startsWith('@')
    ? fs.readdirSync(path.join(modules, name)).filter((sub) => !sub.startsWith('.')).map((sub) => `${name}/${sub}`)
    : [name]))
}

function copyPackage (from, to, { nested, except }) {
  fs.cpSync(from, to, {
    recursive: true,
    dereference: true,
    filter: (source) => {
      const parts = path.relative(from, source).split(path.sep)
      if (parts.includes('.git')) return false
      if (parts[0] !== 'node_modules') return true
      if (!nested) return false
      const name = parts[1]?.startsWith('@') ? `${parts[1]}/${parts[2] ?? ''}` : parts[1]
      return !except.has(name)
    }
  })
}
