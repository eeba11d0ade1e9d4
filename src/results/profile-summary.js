import { packageRelative } from './profile-paths.js'
import { functionRanges, splitByLine } from './profile-sources.js'

// Where a run's CPU time went, from its V8 CPU profiles (.cpuprofile JSON, run --profile): by package
// and the top functions, merged over every profiled thread of every worker, as shares of the sampled
// time and as µs per event. A pure function of the profiles (and of the scripts' sources, where given),
// aggregated the same way on every run, so that two runs (two libraries) can be set side by side
// (profileDiff).
//
// A sample's time is the gap to the next sample (the last: to the profile's end), credited to the
// function on top of its stack (self time). Two views of it:
// - by owner (packages, functions): the time of a frame that is not JavaScript a user can change (a
//   V8 builtin or C++ binding: Buffer.byteLength's fast call, JSON.stringify, an fs binding; or Node's
//   own modules, node:buffer, node:fs) is charged to the nearest JavaScript frame above it outside
//   Node's own modules, its owner, with the frame it called beside it (callee): sonic-boom's write →
//   byteLength (node:buffer, native). A JavaScript frame's own time is split by the lines its samples
//   fell on, each given to the innermost function of its source holding it (profile-sources.js), so
//   that a helper V8 inlined into its caller is named. The profiler's own frames ((idle), (program),
//   (garbage collector)) stay apart, owned by nobody.
// - by self time (self.packages, self.functions): the frame on top as it is, a frame without a script
//   by its own name and in the package of its nearest caller that has a script.
// Every file is package-relative (profile-paths.js): no record names the measuring machine's folders.

// The profiler's own pseudo-frames, each its own package: not a package's work. (idle) is a thread
// waiting, (program) V8 outside JavaScript, (garbage collector) the collector (its cost is the
// allocating code's, but not attributable from a sample).
export const PSEUDO = ['(garbage collector)', '(idle)', '(program)', '(root)']
export const TOP_FUNCTIONS = 20

// The package a script's URL (or package-relative path) belongs to: the last node_modules folder's
// package (scoped too), Node's own modules grouped (streams, fs, net, the rest), the harness, the
// adapter, else the file's name. roots: { adapter, harness } URL prefixes (file:///…/adapter.js,
// file:///…/log-bench/src/).
export function packageOf (url, roots = {}) {
  if (!url) return null
  const modules = url.lastIndexOf('node_modules/')
  if (modules !== -1) return packageAt(url.slice(modules + 'node_modules/'.length))
  if (url.startsWith('node:')) return nodeGroup(url.slice('node:'.length))
  if (roots.adapter && (url === roots.adapter || url === packageRelative(roots.adapter, roots))) return 'adapter'
  if (roots.harness && url.startsWith(roots.harness)) return 'log-bench'
  // A URL with a scheme (file:, wasm:), else a package-relative path: its first folder is the package.
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || !url.includes('/')) return url.split('/').pop() || url
  return packageAt(url)
}

const packageAt = (relative) => {
  const parts = relative.split('/')
  return parts[0].startsWith('@') && parts.length > 1 ? `${parts[0]}/${parts[1]}` : parts[0]
}

// Node's own modules by what they do: node:internal/streams/* and node:stream are streams, and so on.
function nodeGroup (name) {
  const module = name.replace(/^internal\//, '')
  if (/^(streams?\b|stream_base_commons)/.test(module)) return 'node:streams'
  if (/^fs\b/.test(module)) return 'node:fs'
  if (/^(net|dgram|dns|http|https|tls|tcp_wrap|udp)\b/.test(module)) return 'node:net'
  return 'node:other'
}

// JavaScript a user can change: a script that is not one of Node's own modules.
const isOwnerFrame = (frame) => Boolean(frame.url) && !frame.url.startsWith('node:')

// profiles: .cpuprofile objects; events: the events they cover together (the run's sent); roots:
// see packageOf; sourceOf(url): a script's source text or null (no source: no inlined function
// recovered). Returns { samples, sampledMs, threads,
// packages: [{ name, selfMs, share, usPerEvent }], functions: [{ name, file, line, package, callee,
// inlinedInto, selfMs, share, usPerEvent }], self: { packages, functions } }, each list largest first
// (functions: the top TOP_FUNCTIONS). callee: { name, file, native } or null; inlinedInto: the
// sampled frame's name where the function was recovered from its lines, else null.
export function summarizeProfiles (profiles, { events, roots = {}, top = TOP_FUNCTIONS, sourceOf = null } = {}) {
  const owned = { packages: new Map(), functions: new Map() }
  const self = { packages: new Map(), functions: new Map() }
  const add = (view, pkg, fn, us) => {
    view.packages.set(pkg, (view.packages.get(pkg) ?? 0) + us)
    const key = functionKey(fn)
    const entry = view.functions.get(key) ?? { ...fn, package: pkg, us: 0 }
    entry.us += us
    view.functions.set(key, entry)
  }
  const rangesOf = new Map()
  const sourceRanges = (url) => {
    if (!sourceOf || !isOwnerFrame({ url })) return null
    if (!rangesOf.has(url)) {
      const source = sourceOf(url)
      rangesOf.set(url, typeof source === 'string' ? functionRanges(source) : null)
    }
    return rangesOf.get(url)
  }
  let totalUs = 0
  let samples = 0
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
    const parents = new Map()
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id)
    const scriptedPackage = new Map()
    // A frame without a script is in the package of its nearest caller that has one.
    const nodePackage = (id) => {
      if (scriptedPackage.has(id)) return scriptedPackage.get(id)
      const frame = nodes.get(id).callFrame
      let name = PSEUDO.includes(frame.functionName) ? frame.functionName : packageOf(frame.url, roots)
      if (name === null) name = parents.has(id) ? nodePackage(parents.get(id)) : '(native)'
      scriptedPackage.set(id, name)
      return name
    }
    // An unnamed frame without a script (a fast API call: Buffer.byteLength's) by its caller's name.
    const nativeName = (id) => {
      const caller = parents.has(id) ? nodes.get(parents.get(id)).callFrame.functionName : ''
      return caller ? `(native, from ${caller})` : '(anonymous)'
    }
    const rawFunction = (id) => {
      const frame = nodes.get(id).callFrame
      return {
        name: frame.functionName || (frame.url ? '(anonymous)' : nativeName(id)),
        file: packageRelative(frame.url, roots) || (PSEUDO.includes(frame.functionName) ? '' : '(native)'),
        line: frame.url ? frame.lineNumber + 1 : null,
        callee: null,
        inlinedInto: null
      }
    }
    // The owner of a sample on id: { id, callee } (callee: the frame the owner called on the way to
    // id, null where the owner is on top), or null where no frame above is JavaScript outside Node's.
    const ownerOf = (id) => {
      let below = null
      for (let at = id; at !== undefined; below = at, at = parents.get(at)) {
        const frame = nodes.get(at)?.callFrame
        if (!frame || PSEUDO.includes(frame.functionName)) return null
        if (isOwnerFrame(frame)) return { id: at, callee: below }
      }
      return null
    }
    for (const [id, us] of sampleTimes(profile)) {
      const node = nodes.get(id)
      if (!node) continue
      const frame = node.callFrame
      totalUs += us
      add(self, nodePackage(id), rawFunction(id), us)
      const owner = PSEUDO.includes(frame.functionName) ? null : ownerOf(id)
      if (!owner) {
        add(owned, nodePackage(id), rawFunction(id), us)
        continue
      }
      const ownerFunction = rawFunction(owner.id)
      const pkg = nodePackage(owner.id)
      if (owner.callee !== null) {
        const callee = nodes.get(owner.callee).callFrame
        add(owned, pkg, {
          ...ownerFunction,
          callee: { name: callee.functionName || '(native)', file: packageRelative(callee.url, roots) || '(native)', native: !frame.url }
        }, us)
        continue
      }
      const parts = splitByLine(frame, node.positionTicks, us, sourceRanges(frame.url))
      for (const part of parts ?? [{ name: null, us }]) {
        const { name, line, inlinedInto } = part
        add(owned, pkg, name === null ? ownerFunction : { ...ownerFunction, name, line, inlinedInto }, part.us)
      }
    }
    samples += profile.samples?.length ?? 0
  }
  const figures = (us) => ({
    selfMs: round(us / 1000, 3),
    share: totalUs > 0 ? round(us / totalUs, 4) : null,
    usPerEvent: events > 0 ? round(us / events, 4) : null
  })
  const lists = (view) => ({
    packages: [...view.packages].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, ...figures(us) })),
    functions: [...view.functions.values()].sort((a, b) => b.us - a.us).slice(0, top)
      .map(({ us, ...fn }) => ({ ...fn, ...figures(us) }))
  })
  return {
    samples,
    sampledMs: round(totalUs / 1000, 3),
    threads: profiles.length,
    ...lists(owned),
    self: lists(self)
  }
}

// The time a profile's samples cover outside (idle), in ms: what the thread was doing something.
export function busyMs (profile) {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id))
  let us = 0
  for (const [id, time] of sampleTimes(profile)) if (!idle.has(id)) us += time
  return round(us / 1000, 3)
}
// Self time per node id, in µs: each sample until the next (the last until the profile's end).
function sampleTimes (profile) {
  const times = new Map()
  const { samples = [], timeDeltas = [] } = profile
  let at = profile.startTime
  const stamps = samples.map((_, i) => (at += timeDeltas[i] ?? 0))
  for (let i = 0; i < samples.length; i++) {
    const next = i + 1 < samples.length ? stamps[i + 1] : Math.max(stamps[i], profile.endTime ?? stamps[i])
    const us = Math.max(0, next - stamps[i])
    times.set(samples[i], (times.get(samples[i]) ?? 0) + us)
  }
  return times
}

const round = (value, digits) => Math.round(value * 10 ** digits) / 10 ** digits

// One cell's profile, from its runs' summaries: time summed over the runs, over the events of all
// of them, by owner and by self time (self; empty for a record from before owners were taken).
// Packages are whole in each summary; functions are each run's top TOP_FUNCTIONS, so a function
// outside one run's top counts nothing there. mainBusyMs and cpuMainThreadMs: the main threads'
// non-idle sampled time and their CPU time (the record's), summed where every run has both, else null.
export function mergeSummaries (runs) {
  const profiled = runs.filter((r) => r.profileSummary && r.sent > 0)
  if (!profiled.length) return null
  const sampledMs = profiled.reduce((sum, r) => sum + r.profileSummary.sampledMs, 0)
  const events = profiled.reduce((sum, r) => sum + r.sent, 0)
  const merge = (listOf, keyOf) => {
    const merged = new Map()
    for (const run of profiled) {
      for (const item of listOf(run.profileSummary) ?? []) {
        const key = keyOf(item)
        const entry = merged.get(key) ?? { ...item, selfMs: 0 }
        entry.selfMs += item.selfMs
        merged.set(key, entry)
      }
    }
    return [...merged.values()].map((item) => ({
      ...item,
      share: sampledMs > 0 ? round(item.selfMs / sampledMs, 4) : null,
      usPerEvent: round((item.selfMs * 1000) / events, 4)
    })).sort((a, b) => b.selfMs - a.selfMs)
  }
  const sumOf = (valueOf) => (profiled.every((r) => Number.isFinite(valueOf(r)))
    ? round(profiled.reduce((sum, r) => sum + valueOf(r), 0), 3)
    : null)
  return {
    runs: profiled.length,
    sampledMs,
    events,
    mainBusyMs: sumOf((r) => r.profileSummary.mainBusyMs),
    cpuMainThreadMs: sumOf((r) => r.cpuMainThreadMs),
    packages: merge((s) => s.packages, (p) => p.name),
    functions: merge((s) => s.functions, functionKey),
    self: {
      packages: merge((s) => s.self?.packages, (p) => p.name),
      functions: merge((s) => s.self?.functions, functionKey)
    }
  }
}

export const functionKey = (fn) => `${fn.name} ${fn.file}:${fn.line ?? ''}${fn.callee ? ` > ${fn.callee.name} ${fn.callee.file}${fn.callee.native ? ' native' : ''}` : ''}`

// A function as a page names it: its package and name, what it called where its time is a callee's
// ("sonic-boom write → byteLength (node:buffer, native)"), what it was inlined into.
export function ownerWords (fn) {
  const callee = fn.callee ? ` → ${fn.callee.name} (${[fn.callee.file, fn.callee.native && fn.callee.file !== '(native)' ? 'native' : null].filter(Boolean).join(', ')})` : ''
  const inlined = fn.inlinedInto ? ` (inlined into ${fn.inlinedInto})` : ''
  return `${fn.name}${inlined}${callee}`
}

// Two cells' profiles side by side (mergeSummaries of each): per package and per function, by owner
// (view 'self': by self time), each side's share and µs per event (null where that side has none),
// largest difference in µs per event first. The profiler's own frames ((idle), (program), the garbage
// collector) are never a package's extra work: they are apart, in their own list.
// { packages: [{ name, base, other, differenceUs }], functions: [{ name, file, line, package, callee,
// inlinedInto, base, other, differenceUs }], apart: [rows like packages'] }, base and other each
// { share, usPerEvent } or null.
export function profileDiff (base, other, { view = 'owner' } = {}) {
  const sides = view === 'self' ? [base.self ?? { packages: [], functions: [] }, other.self ?? { packages: [], functions: [] }] : [base, other]
  const rows = (list, keyOf) => {
    const keys = [...new Set([...sides[0][list], ...sides[1][list]].map(keyOf))]
    const find = (side, key) => side[list].find((item) => keyOf(item) === key) ?? null
    return keys.map((key) => {
      const [a, b] = [find(sides[0], key), find(sides[1], key)]
      const { name, file, line, package: pkg, callee = null, inlinedInto = null } = a ?? b
      const figures = (item) => (item ? { share: item.share, usPerEvent: item.usPerEvent } : null)
      return {
        name,
        ...(list === 'functions' ? { file, line, package: pkg, callee, inlinedInto } : {}),
        base: figures(a),
        other: figures(b),
        differenceUs: round((b?.usPerEvent ?? 0) - (a?.usPerEvent ?? 0), 4)
      }
    }).sort((x, y) => Math.abs(y.differenceUs) - Math.abs(x.differenceUs))
  }
  const packages = rows('packages', (p) => p.name)
  return {
    view,
    packages: packages.filter((p) => !PSEUDO.includes(p.name)),
    functions: rows('functions', functionKey).filter((f) => !PSEUDO.includes(f.name)),
    apart: packages.filter((p) => PSEUDO.includes(p.name))
  }
}

// The run's call tree for a flame graph (the report's, src/draw/flame.js), merged over its profiles:
// frames with the same function, script and line under the same parent are one node; a node whose
// total time is below minShare of the whole is left out (its time stays in its parent's total, as a
// gap beside the children drawn), and so is what lies deeper than maxDepth. Returns { nodes: [{
// name, package, file, line, selfUs, totalUs, parent }] }; the first is '(root)', every thread's.
export function profileTree (profiles, { roots = {}, minShare = 0.005, maxDepth = TREE_LEVELS - 1 } = {}) {
  const root = { name: '(root)', package: '(root)', file: '', line: null, selfUs: 0, totalUs: 0, children: [] }
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
    const self = sampleTimes(profile)
    const hasParent = new Set(profile.nodes.flatMap((node) => node.children ?? []))
    const add = (id, into, inherited) => {
      const node = nodes.get(id)
      if (!node) return 0
      const frame = node.callFrame
      const pkg = PSEUDO.includes(frame.functionName) ? frame.functionName : packageOf(frame.url, roots) ?? inherited
      const name = frame.functionName || (frame.url ? '(anonymous)' : '(native)')
      const key = `${name}\u0000${frame.url}\u0000${frame.lineNumber}`
      let merged = into.children.find((child) => child.key === key)
      if (!merged) {
        const line = frame.url ? frame.lineNumber + 1 : null
        const file = packageRelative(frame.url, roots)
        merged = { key, name, package: pkg, file, line, selfUs: 0, totalUs: 0, children: [] }
        into.children.push(merged)
      }
      const selfUs = self.get(id) ?? 0
      merged.selfUs += selfUs
      let totalUs = selfUs
      for (const child of node.children ?? []) totalUs += add(child, merged, pkg)
      merged.totalUs += totalUs
      return totalUs
    }
    for (const node of profile.nodes.filter((n) => !hasParent.has(n.id))) {
      // The profile's own root is the tree's root: its children merge under it.
      const tops = node.callFrame.functionName === '(root)' ? node.children ?? [] : [node.id]
      for (const child of tops) root.totalUs += add(child, root, '(program)')
    }
  }
  // Flat, depth first, each node naming its parent's index (-1: the root): a results file nests no
  // deeper for a deep stack (the reader refuses documents nested past 64 levels).
  const minUs = root.totalUs * minShare
  const nodes = []
  const visit = (node, parent, depth) => {
    const index = nodes.length
    const { name, package: pkg, file, line } = node
    const [selfUs, totalUs] = [Math.round(node.selfUs), Math.round(node.totalUs)]
    nodes.push({ name, package: pkg, file, line, selfUs, totalUs, parent })
    if (depth >= maxDepth) return
    const drawn = node.children.filter((c) => c.totalUs >= minUs).sort((a, b) => b.totalUs - a.totalUs)
    for (const child of drawn) visit(child, index, depth + 1)
  }
  visit(root, -1, 0)
  return { nodes }
}

// The levels a flat tree has at most, its root's included: what profileTree writes, and what a reader
// accepts (treeProblem), so that whatever walks a tree from a file walks at most this deep.
export const TREE_LEVELS = 65

// What the schema cannot say of a flat tree read from a file, in words, or null: the first node is
// the root (parent -1), every other names an earlier node as its caller (depth first: no cycle, no
// index out of range) and none lies deeper than TREE_LEVELS.
export function treeProblem ({ nodes }) {
  const levels = new Uint8Array(nodes.length)
  if (nodes[0].parent !== -1) return `nodes[0].parent must be -1 (the root comes first), got ${nodes[0].parent}`
  levels[0] = 1
  for (let i = 1; i < nodes.length; i++) {
    const { parent } = nodes[i]
    if (!(parent >= 0 && parent < i)) return `nodes[${i}].parent must be the index of an earlier node (its caller's, depth first: 0 to ${i - 1}), got ${parent}`
    levels[i] = levels[parent] + 1
    if (levels[i] > TREE_LEVELS) return `nodes[${i}] lies ${levels[i]} levels deep: a profile tree has at most ${TREE_LEVELS}`
  }
  return null
}

// The flat tree (profileTree) as nested nodes: { ...node, children }, the root first.
export function nestedTree ({ nodes }) {
  const nested = nodes.map((node) => ({ ...node, children: [] }))
  for (const node of nested) if (node.parent >= 0) nested[node.parent].children.push(node)
  return nested[0]
}
