// Where a run's CPU time went, from its V8 CPU profiles (.cpuprofile JSON, run --profile): self
// time by package and the top functions, merged over every profiled thread of every worker, as
// shares of the sampled time and as µs per event. A pure function of the profiles, aggregated the
// same way on every run, so that two runs (two libraries) can be set side by side (profileDiff).
//
// A sample's time is the gap to the next sample (the last: to the profile's end), credited to the
// function on top of its stack (self time). A frame without a script (a V8 builtin or a C++
// binding: `writeUtf8String`, `writeSync`) is listed under its own name among the functions, and
// its time goes to the package of the nearest caller that has a script: the binding under
// fs.writeSync is the file system's time, not a package of its own.

// The profiler's own pseudo-frames, each its own package.
const PSEUDO = ['(garbage collector)', '(idle)', '(program)', '(root)']
export const TOP_FUNCTIONS = 20

// The package a script's URL belongs to: the last node_modules folder's package (scoped too), Node's
// own modules grouped (streams, fs, net, the rest), the harness, the adapter, else the file's name.
// roots: { adapter, harness } URL prefixes (file:///…/adapter.js, file:///…/log-bench/src/).
export function packageOf (url, roots = {}) {
  if (!url) return null
  const modules = url.lastIndexOf('node_modules/')
  if (modules !== -1) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/')
    return parts[0].startsWith('@') && parts.length > 1 ? `${parts[0]}/${parts[1]}` : parts[0]
  }
  if (url.startsWith('node:')) return nodeGroup(url.slice('node:'.length))
  if (roots.adapter && url === roots.adapter) return 'adapter'
  if (roots.harness && url.startsWith(roots.harness)) return 'log-bench'
  return url.split('/').pop() || url
}

// Node's own modules by what they do: node:internal/streams/* and node:stream are streams, and so on.
function nodeGroup (name) {
  const module = name.replace(/^internal\//, '')
  if (/^(streams?\b|stream_base_commons)/.test(module)) return 'node:streams'
  if (/^fs\b/.test(module)) return 'node:fs'
  if (/^(net|dgram|dns|http|https|tls|tcp_wrap|udp)\b/.test(module)) return 'node:net'
  return 'node:other'
}

// profiles: .cpuprofile objects; events: the events they cover together (the run's sent); roots:
// see packageOf. Returns { samples, sampledMs, threads,
// packages: [{ name, selfMs, share, usPerEvent }], functions: [{ name, file, line, package, selfMs,
// share, usPerEvent }] }, each list largest first (functions: the top TOP_FUNCTIONS).
export function summarizeProfiles (profiles, { events, roots = {}, top = TOP_FUNCTIONS } = {}) {
  const packages = new Map()
  const functions = new Map()
  let totalUs = 0
  let samples = 0
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
    const parents = new Map()
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id)
    const packageOfNode = new Map()
    const nodePackage = (id) => {
      if (packageOfNode.has(id)) return packageOfNode.get(id)
      const frame = nodes.get(id).callFrame
      let name = PSEUDO.includes(frame.functionName) ? frame.functionName : packageOf(frame.url, roots)
      if (name === null) name = parents.has(id) ? nodePackage(parents.get(id)) : '(native)'
      packageOfNode.set(id, name)
      return name
    }
    // An unnamed frame without a script (a fast API call: Buffer.byteLength's) by its caller's name.
    const nativeName = (id) => {
      const caller = parents.has(id) ? nodes.get(parents.get(id)).callFrame.functionName : ''
      return caller ? `(native, from ${caller})` : '(anonymous)'
    }
    const selfUs = sampleTimes(profile)
    for (const [id, us] of selfUs) {
      const frame = nodes.get(id)?.callFrame
      if (!frame) continue
      totalUs += us
      const name = nodePackage(id)
      packages.set(name, (packages.get(name) ?? 0) + us)
      const file = frame.url || (PSEUDO.includes(frame.functionName) ? '' : '(native)')
      const line = frame.url ? frame.lineNumber + 1 : null
      const fn = frame.functionName || (frame.url ? '(anonymous)' : nativeName(id))
      const key = `${fn}\u0000${file}\u0000${line}`
      const entry = functions.get(key) ?? { name: fn, file, line, package: name, us: 0 }
      entry.us += us
      functions.set(key, entry)
    }
    samples += profile.samples?.length ?? 0
  }
  const figures = (us) => ({
    selfMs: round(us / 1000, 3),
    share: totalUs > 0 ? round(us / totalUs, 4) : null,
    usPerEvent: events > 0 ? round(us / events, 4) : null
  })
  return {
    samples,
    sampledMs: round(totalUs / 1000, 3),
    threads: profiles.length,
    packages: [...packages].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, ...figures(us) })),
    functions: [...functions.values()].sort((a, b) => b.us - a.us).slice(0, top)
      .map(({ us, ...fn }) => ({ ...fn, ...figures(us) }))
  }
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

// One cell's profile, from its runs' summaries: self time summed over the runs, over the events of
// all of them. Packages are whole in each summary; functions are each run's top TOP_FUNCTIONS, so a
// function outside one run's top counts nothing there.
export function mergeSummaries (runs) {
  const profiled = runs.filter((r) => r.profileSummary && r.sent > 0)
  if (!profiled.length) return null
  const sampledMs = profiled.reduce((sum, r) => sum + r.profileSummary.sampledMs, 0)
  const events = profiled.reduce((sum, r) => sum + r.sent, 0)
  const merge = (list, keyOf) => {
    const merged = new Map()
    for (const run of profiled) {
      for (const item of run.profileSummary[list]) {
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
  return {
    runs: profiled.length,
    sampledMs,
    events,
    packages: merge('packages', (p) => p.name),
    functions: merge('functions', functionKey)
  }
}

export const functionKey = (fn) => `${fn.name} ${fn.file}:${fn.line ?? ''}`

// Two cells' profiles side by side (mergeSummaries of each): per package and per function, each
// side's share and µs per event (null where that side has none), largest difference in µs per event
// first: { packages: [{ name, base, other, differenceUs }], functions: [{ name, file, line, package,
// base, other, differenceUs }] }, base and other each { share, usPerEvent } or null.
export function profileDiff (base, other) {
  const rows = (list, keyOf) => {
    const keys = [...new Set([...base[list], ...other[list]].map(keyOf))]
    const find = (side, key) => side[list].find((item) => keyOf(item) === key) ?? null
    return keys.map((key) => {
      const [a, b] = [find(base, key), find(other, key)]
      const { name, file, line, package: pkg } = a ?? b
      const figures = (item) => (item ? { share: item.share, usPerEvent: item.usPerEvent } : null)
      return {
        name,
        ...(list === 'functions' ? { file, line, package: pkg } : {}),
        base: figures(a),
        other: figures(b),
        differenceUs: round((b?.usPerEvent ?? 0) - (a?.usPerEvent ?? 0), 4)
      }
    }).sort((x, y) => Math.abs(y.differenceUs) - Math.abs(x.differenceUs))
  }
  return { packages: rows('packages', (p) => p.name), functions: rows('functions', functionKey) }
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
        merged = { key, name, package: pkg, file: frame.url, line, selfUs: 0, totalUs: 0, children: [] }
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
