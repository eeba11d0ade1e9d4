import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { busyMs, profileTree, summarizeProfiles } from '../results/profile-summary.js'
import { relativeProfile } from '../results/profile-paths.js'
import { writeNewFile } from '../results/write.js'

// run --profile, the primary's side: each worker wrote its threads' .cpuprofile files into the run's
// directory (src/engine/profiler.js) and named them in its last message. They are read from there
// (only under the names this side gave: a message is untrusted, src/engine/messages.js), summarised
// (src/results/profile-summary.js) and written into the results file's profile folder (results.json:
// results.profiles/) under new names, each created exclusively: a file already there is never
// replaced. What is written names no folder of this machine: every script URL is package-relative
// (src/results/profile-paths.js); the summary reads the scripts' sources from here first.

const HARNESS_SRC = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')).href + '/'
// A profile is a few hundred kB to a few MB (its call tree, and one sample per millisecond).
const MAX_PROFILE_BYTES = 512 * 1024 * 1024
// A script larger than this is not parsed for its inlined functions (a bundle: slow, and no help).
const MAX_SOURCE_BYTES = 4 * 1024 * 1024

// Where worker workerId writes its profiles: <prefix>-main.cpuprofile, <prefix>-thread<n>.cpuprofile.
export const profilePrefix = (dir, workerId) => path.join(dir, `profile-w${workerId}`)

// The folder of a results file's profiles, beside it and named after it: results.json's is
// results.profiles.
export function profileFolder (out) {
  return path.join(path.dirname(out), `${fileNamePart(path.basename(out).replace(/\.json$/, ''))}.profiles`)
}

// --force replaces a results file: the profiles of the one it replaces go with it (only the
// .cpuprofile files of its folder, and the folder where that leaves it empty).
export function removeProfiles (out) {
  const folder = profileFolder(out)
  let names
  try { names = fs.readdirSync(folder) } catch { return }
  for (const name of names) if (name.endsWith('.cpuprofile')) fs.rmSync(path.join(folder, name), { force: true })
  try { fs.rmdirSync(folder) } catch {}
}

// Names from a results file, a library or a transport become part of a path: only [A-Za-z0-9._-],
// no leading dot, bounded.
export function fileNamePart (text) {
  return String(text).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 80) || 'x'
}

// The record's fields for a profiled run: cpuProfiles (per worker and thread: the file beside the
// results, relative to it, or why the thread was not profiled), profileSummary and profileTree.
// reports: each worker's profiles message, in worker order. Throws (the run then fails) when a file
// cannot be read or written.
export function saveProfiles ({ reports, runDir, settings, sent }) {
  const out = settings.profileOut
  const outDir = profileFolder(out)
  fs.mkdirSync(outDir, { recursive: true })
  const adapter = settings.adapterFile ? pathToFileURL(settings.adapterFile).href : null
  const roots = { adapter, harness: HARNESS_SRC }
  const cell = fileNamePart([settings.lib, settings.variant !== 'default' ? settings.variant : null, settings.transport, `${settings.cpus}w`].filter(Boolean).join('-'))
  // One run's files share an id no other run has (a --resume, a rerun with --force).
  const runId = randomBytes(4).toString('hex')
  const cpuProfiles = []
  const profiles = []
  let mainBusyMs = 0
  reports.forEach((workerReports, workerId) => {
    const prefix = profilePrefix(runDir, workerId)
    for (const report of workerReports ?? []) {
      const { thread, fromMs = null, until = null, note = null } = report
      const entry = { worker: workerId, thread, file: null, samples: null, fromMs, until, note }
      const suffix = report.file == null ? null : ownSuffix(report.file, prefix)
      if (report.file != null && suffix === null) {
        cpuProfiles.push({ ...entry, note: 'not profiled: the worker named a file outside its run directory' })
        continue
      }
      if (report.file == null) {
        cpuProfiles.push(entry)
        continue
      }
      const profile = readProfile(report.file)
      const name = `${cell}.${runId}.w${workerId}-${suffix}.cpuprofile`
      if (!writeNewFile(path.join(outDir, name), JSON.stringify(relativeProfile(profile, roots)))) throw new Error(`${path.join(outDir, name)} exists already: a profile is never written over another file`)
      profiles.push(profile)
      if (suffix === 'main') mainBusyMs += busyMs(profile)
      cpuProfiles.push({ ...entry, file: `${path.basename(outDir)}/${name}`, samples: profile.samples.length })
    }
  })
  const summary = profiles.length ? summarizeProfiles(profiles, { events: sent, roots, sourceOf: readSource }) : null
  return {
    cpuProfiles,
    profileSummary: summary && { ...summary, mainBusyMs: Math.round(mainBusyMs * 1000) / 1000 },
    profileTree: profiles.length ? profileTree(profiles, { roots }) : null
  }
}

// A script's source where its URL is a file of this machine, else null (Node's own modules, eval, wasm).
function readSource (url) {
  if (!url.startsWith('file:')) return null
  try {
    const file = fileURLToPath(url)
    if (fs.statSync(file).size > MAX_SOURCE_BYTES) return null
    return fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

// `main` or `thread<n>` for the files this side named (profilePrefix), else null.
function ownSuffix (file, prefix) {
  if (!file.startsWith(`${prefix}-`)) return null
  const suffix = file.slice(prefix.length + 1).replace(/\.cpuprofile$/, '')
  return /^(main|thread\d{1,3})$/.test(suffix) && file === `${prefix}-${suffix}.cpuprofile` ? suffix : null
}

// Opened without following a symbolic link: the worker's process runs the adapter's code.
function readProfile (file) {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
  let text
  try {
    const { size } = fs.fstatSync(fd)
    if (size > MAX_PROFILE_BYTES) throw new Error(`a CPU profile of ${size} bytes is more than the ${MAX_PROFILE_BYTES} a profile may be`)
    text = fs.readFileSync(fd, 'utf8')
  } finally {
    fs.closeSync(fd)
  }
  const profile = JSON.parse(text)
  const ok = profile && Array.isArray(profile.nodes) && Array.isArray(profile.samples) &&
    Array.isArray(profile.timeDeltas) &&
    Number.isFinite(profile.startTime) && Number.isFinite(profile.endTime) &&
    profile.nodes.every((n) => n && Number.isInteger(n.id) && n.callFrame && typeof n.callFrame.functionName === 'string' && typeof n.callFrame.url === 'string')
  if (!ok) throw new Error(`${path.basename(file)} is not a V8 CPU profile`)
  return profile
}
