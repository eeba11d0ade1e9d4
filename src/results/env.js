import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export function toolVersion () {
  return JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version
}

function gitCommit () {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

function osName () {
  try {
    const release = fs.readFileSync('/etc/os-release', 'utf8')
    const pretty = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(release)
    if (pretty) return `${pretty[1]} (${os.type()} ${os.release()} ${os.arch()})`
  } catch {}
  return `${os.type()} ${os.release()} ${os.arch()}`
}

// Everything a reader needs to judge or reproduce the numbers.
// command: the command line that gives the same options (the API's options written as one).
export function collectEnv ({ options, libVersions, command }) {
  const cpus = os.cpus()
  return {
    node: process.version,
    v8: process.versions.v8,
    os: osName(),
    platform: process.platform,
    arch: process.arch,
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    cpuCount: cpus.length,
    memoryBytes: os.totalmem(),
    hostname: os.hostname(),
    logBenchVersion: toolVersion(),
    gitCommit: gitCommit(),
    libVersions,
    command,
    options,
    time: new Date().toISOString()
  }
}

// { name: version } of the libraries measured; a library measured at several versions (pino@9,
// pino@10) has them all, comma-separated.
export function libVersionsOf (libs) {
  // Keyed by names that are data ("constructor", "__proto__"): no inherited property answers.
  const versions = Object.create(null)
  for (const lib of libs) {
    const known = Object.hasOwn(versions, lib.name) && versions[lib.name] ? versions[lib.name].split(', ') : []
    if (lib.version != null && !known.includes(lib.version)) known.push(lib.version)
    versions[lib.name] = known.length ? known.join(', ') : lib.version
  }
  return versions
}
