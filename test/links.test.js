import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { ROOT, readJson } from './helpers.js'

// The documentation a reader follows: README.md, CHANGELOG.md and every page of docs/.
const DOCS = ['README.md', 'CHANGELOG.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

// Lines outside fenced code blocks.
function proseLines (text) {
  let fenced = false
  return text.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced
      return false
    }
    return !fenced
  })
}

// GitHub's anchor for a heading: the text as rendered (links, code and emphasis marks dropped),
// lower case, without punctuation other than "-" and "_", spaces as "-"; a repeat gets -1, -2, ...
export function slug (heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*+/g, '')
    .replace(/(^|\s)_+|_+(?=\s|$)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

const anchorsCache = new Map()
function anchorsOf (file) {
  if (!anchorsCache.has(file)) {
    const anchors = new Set()
    const seen = new Map()
    const text = fs.readFileSync(file, 'utf8')
    for (const line of proseLines(text)) {
      const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
      if (heading) {
        const base = slug(heading[1])
        const n = seen.get(base) ?? 0
        seen.set(base, n + 1)
        anchors.add(n ? `${base}-${n}` : base)
      }
      for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1])
    }
    anchorsCache.set(file, anchors)
  }
  return anchorsCache.get(file)
}

function linksOf (file, { absolute = false } = {}) {
  const links = []
  for (const line of proseLines(fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
    const prose = line.replace(/`[^`]*`/g, '')
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|\bhref="([^"]+)"|\bsrc="([^"]+)"/g)) links.push(match[1] ?? match[2] ?? match[3])
  }
  return absolute ? links : links.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link))
}

test('the anchor of a heading is GitHub\'s', () => {
  assert.equal(slug('`log-bench http`: the cost of logging under HTTP load'), 'log-bench-http-the-cost-of-logging-under-http-load')
  assert.equal(slug('Long runs: live progress, stalls and skipping'), 'long-runs-live-progress-stalls-and-skipping')
  assert.equal(slug('Do the numbers match a plain script?'), 'do-the-numbers-match-a-plain-script')
  assert.equal(slug('What `close()` must wait for'), 'what-close-must-wait-for')
})

test('every relative link in README, CHANGELOG and docs/ resolves, file and anchor', () => {
  const broken = []
  let checked = 0
  for (const file of DOCS) {
    for (const link of linksOf(file)) {
      checked++
      const [target, anchor] = link.split('#')
      const resolved = target
        ? path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(target))
        : path.join(ROOT, file)
      if (!fs.existsSync(resolved)) {
        broken.push(`${file}: ${link} (no such file)`)
        continue
      }
      if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${file}: ${link} (no such heading)`)
    }
  }
  assert.ok(checked > 20, `only ${checked} links found: is the link pattern still right?`)
  assert.deepEqual(broken, [])
})

// What `npm pack` puts in the tarball (its file list, without writing it).
function packedPaths () {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  return new Set(JSON.parse(out)[0].files.map((f) => f.path))
}

// README is also the package's page on the registry, and the package ships its docs: in every
// markdown file the package holds, a relative link resolves only to what the package ships, so a
// link to anything else (results/, docker/, test/fixtures/, images/) must be absolute, to the
// repository that package.json names (repository, homepage and bugs, one base).
test('the packaged docs link by relative path only to what the package ships, and to the rest by the repository\'s address', () => {
  const pkg = readJson(path.join(ROOT, 'package.json'))
  const base = pkg.homepage.replace(/#.*$/, '')
  assert.match(base, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/)
  assert.deepEqual(pkg.repository, { type: 'git', url: `git+${base}.git` })
  assert.deepEqual(pkg.bugs, { url: `${base}/issues` })
  const packed = packedPaths()
  const pages = [...packed].filter((p) => p.endsWith('.md'))
  assert.ok(pages.includes('README.md') && pages.includes('docs/api.md'), pages.join(', '))
  const problems = []
  let repositoryLinks = 0
  for (const page of pages) {
    for (const link of linksOf(page, { absolute: true })) {
      const [target, anchor] = link.split('#')
      if (link.startsWith(`${base}/`)) {
        repositoryLinks++
        const inRepository = /^\/(?:blob|tree)\/main\/(.+)$/.exec(link.slice(base.length).split('#')[0])?.[1]
        if (inRepository == null) {
          if (link !== `${base}/issues`) problems.push(`${page}: ${link}: not a file of the repository (${base}/blob/main/<path>)`)
          continue
        }
        const file = path.join(ROOT, decodeURIComponent(inRepository))
        if (!fs.existsSync(file)) problems.push(`${page}: ${link}: no such file in the repository`)
        else if (packed.has(inRepository)) problems.push(`${page}: ${link}: the package ships ${inRepository}: link it by relative path`)
        else if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) problems.push(`${page}: ${link}: no such heading`)
        continue
      }
      if (/^[a-z][a-z0-9+.-]*:/i.test(link) || target === '') continue
      const inPackage = path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURIComponent(target))).replace(/\/$/, '')
      const shipped = packed.has(inPackage) || [...packed].some((p) => p.startsWith(`${inPackage}/`))
      if (!shipped) problems.push(`${page}: ${link}: not in the package ("files" in package.json): link ${base}/blob/main/${inPackage}`)
    }
  }
  assert.ok(repositoryLinks >= 4, `only ${repositoryLinks} links to the repository: is the base still ${base}?`)
  assert.deepEqual(problems, [])
})
