#!/usr/bin/env node
// Brings results files written before profiles named their owners and left the measuring machine's
// folders out (issue 65) to what `run --profile` writes now: each profiled run's .cpuprofile files
// moved into the folder named after its results file (results.json: results.profiles/) with every
// script URL package-relative, and its profileSummary and profileTree taken again from them (by
// owner and by self time, src/results/profile-summary.js). Deterministic: the same files give the
// same output, and a file already brought over is left as it is.
//
// The summaries are taken without the scripts' sources (the checkout that measured is not here, and
// what is installed now may be other versions): no inlined function is recovered in them (docs/costs.md).
//
//   node scripts/relative-profiles.js [results.json …]   (default: every results file under results/)
import fs from 'node:fs'
import path from 'node:path'
import { busyMs, profileTree, summarizeProfiles } from '../src/results/profile-summary.js'
import { relativeProfile } from '../src/results/profile-paths.js'
import { profileFolder } from '../src/run/profiles.js'
import { writeJsonAtomic } from '../src/results/write.js'

const HARNESS = /^(file:\/\/.*?\/|log-bench\/)src\/(run|engine|loggers|api|sinks)\//

function resultsFiles (dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return resultsFiles(file)
    return entry.name.endsWith('.json') ? [file] : []
  }).sort()
}

// The URLs the profiles were taken with (or their package-relative forms, in a file already brought
// over): the harness's src/ folder, and the built-in adapter's file.
function rootsOf (profiles, lib) {
  for (const profile of profiles) {
    for (const node of profile.nodes) {
      const match = HARNESS.exec(node.callFrame.url)
      if (match) {
        const harness = `${match[1]}src/`
        return { harness, adapter: /^[a-z0-9-]+$/.test(lib) ? `${harness}loggers/${lib}.js` : null }
      }
    }
  }
  return {}
}

function bringOver (file) {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'))
  if (!Array.isArray(doc?.runs)) return false
  const dir = path.dirname(file)
  const folder = profileFolder(file)
  const stem = path.basename(folder).replace(/\.profiles$/, '')
  let changed = false
  const runs = doc.runs.map((run) => {
    const entries = (run.cpuProfiles ?? []).filter((entry) => typeof entry.file === 'string')
    if (!entries.length) return run
    const read = entries.map((entry) => JSON.parse(fs.readFileSync(path.join(dir, entry.file), 'utf8')))
    const roots = rootsOf(read, run.lib)
    const profiles = read.map((profile) => relativeProfile(profile, roots))
    const moved = new Map()
    entries.forEach((entry, i) => {
      const name = path.basename(entry.file).replace(new RegExp(`^${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`), '')
      const target = path.join(folder, name)
      fs.mkdirSync(folder, { recursive: true })
      fs.writeFileSync(target, JSON.stringify(profiles[i]))
      if (path.resolve(dir, entry.file) !== path.resolve(target)) fs.rmSync(path.join(dir, entry.file))
      moved.set(entry, `${path.basename(folder)}/${name}`)
    })
    const mainBusyMs = entries.reduce((sum, entry, i) => sum + (entry.thread === 'main' ? busyMs(profiles[i]) : 0), 0)
    const summary = summarizeProfiles(profiles, { events: run.sent, roots })
    changed = true
    return {
      ...run,
      cpuProfiles: run.cpuProfiles.map((entry) => (moved.has(entry) ? { ...entry, file: moved.get(entry) } : entry)),
      profileSummary: { ...summary, mainBusyMs: Math.round(mainBusyMs * 1000) / 1000 },
      profileTree: profileTree(profiles, { roots })
    }
  })
  if (changed) writeJsonAtomic(file, { ...doc, runs })
  return changed
}

const files = process.argv.length > 2 ? process.argv.slice(2) : resultsFiles('results')
for (const file of files) {
  if (bringOver(file)) process.stdout.write(`${file}: profiles in ${path.relative(process.cwd(), profileFolder(file))}, summaries by owner\n`)
}
