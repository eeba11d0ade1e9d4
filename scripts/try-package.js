// What a user gets from npm: packs log-bench, installs the tarball into a fresh `npm init -y`
// project in a temporary directory (npm 11 writes "type": "commonjs" there), runs the shipped
// `quick` scenario by name, checks `--version` is log-bench's, and a CommonJS adapter on console and file, checking
// that every event arrived. Needs the npm registry for the dependencies. `npm run try:package [-- --keep]`.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const keep = process.argv.includes('--keep')
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'log-bench-package-'))
const project = path.join(work, 'project')

const say = (line) => process.stdout.write(`${line}\n`)
const sh = (command, args, cwd, { quiet = false } = {}) => {
  say(`$ ${[command, ...args].join(' ')}`)
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', quiet ? 'pipe' : 'inherit', 'inherit'] })
}
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'))
const problems = []

try {
  const [pack] = JSON.parse(sh('npm', ['pack', '--json', '--pack-destination', work], ROOT, { quiet: true }))
  say(`tarball ${pack.filename}: ${(pack.size / 1024).toFixed(0)} kB packed, ${(pack.unpackedSize / 1024).toFixed(0)} kB unpacked, ${pack.files.length} files`)

  fs.mkdirSync(project)
  sh('npm', ['init', '-y'], project, { quiet: true })
  say(`package.json type: ${readJson(path.join(project, 'package.json')).type ?? '(none)'}`)
  const started = Date.now()
  sh('npm', ['install', '--no-audit', '--no-fund', path.join(work, pack.filename)], project)
  say(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s`)

  // log-bench's version, not the project's (npm init -y writes 1.0.0).
  const version = sh('npx', ['log-bench', '--version'], project, { quiet: true }).trim()
  say(`npx log-bench --version: ${version}`)
  if (version !== readJson(path.join(ROOT, 'package.json')).version) problems.push(`--version printed ${version}, not log-bench's ${readJson(path.join(ROOT, 'package.json')).version}`)

  sh('npx', ['log-bench', 'run', '--scenario', 'quick', '--quiet'], project, { quiet: true })
  const quick = readJson(path.join(project, 'results', 'quick.json'))
  const failed = quick.runs.filter((r) => r.status === 'failed')
  say(`--scenario quick: ${quick.runs.length} runs, complete: ${quick.complete}, failed: ${failed.length}`)
  for (const r of failed) say(`  failed: ${r.type ?? 'run'} ${r.lib} ${r.transport} ${r.cpus} cpu: ${r.error}`)
  if (!quick.complete) problems.push('the quick scenario did not complete')

  fs.copyFileSync(path.join(project, 'node_modules', 'log-bench', 'docs', 'examples', 'lines.cjs'), path.join(project, 'lines.js'))
  sh('npx', ['log-bench', 'run', '--lib', './lines.js', '--transport', 'console,file', '--workload', 'string,object', '--events', '100000', '--runs', '1', '--quiet', '--out', 'adapter.json'], project, { quiet: true })
  for (const r of readJson(path.join(project, 'adapter.json')).runs) {
    const line = `${r.lib} ${r.transport} ${r.workload}: ${r.received} of ${r.sent} events arrived${r.ok ? '' : `, failed: ${r.error}`}`
    say(`CommonJS adapter, ${line}`)
    if (!r.ok || r.received !== r.sent) problems.push(line)
  }
} finally {
  if (keep) say(`kept ${work}`)
  else fs.rmSync(work, { recursive: true, force: true })
}

if (problems.length) {
  say(`FAILED: ${problems.join('; ')}`)
  process.exitCode = 1
} else {
  say('ok: the packed log-bench runs from a fresh project')
}
