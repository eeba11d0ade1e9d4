// A profile's script URLs as paths relative to their package, so that no record or profile names
// the folders of the machine that measured: file:///home/x/node_modules/pino/node_modules/sonic-boom/
// index.js is sonic-boom/index.js, file:///home/x/log-bench/src/run/worker.js is
// log-bench/src/run/worker.js, an adapter given by path is adapter/<its file name>, any other script
// its file name. Node's own modules (node:fs), V8's frames (no URL) and what has no folder (wasm://,
// evalmachine.<anonymous>) stay as they are; a path already relative is left alone.

// roots: { adapter, harness } URLs (file:///…/adapter.js, file:///…/log-bench/src/).
export function packageRelative (url, roots = {}) {
  if (!url || url.startsWith('node:') || !url.startsWith('file:')) return url
  const modules = url.lastIndexOf('node_modules/')
  if (modules !== -1) return url.slice(modules + 'node_modules/'.length)
  if (roots.harness && url.startsWith(roots.harness)) return `log-bench/src/${url.slice(roots.harness.length)}`
  const name = url.split('/').pop() || 'script'
  return roots.adapter && url === roots.adapter ? `adapter/${name}` : name
}

// A .cpuprofile with every script URL made package-relative (a copy; the input is left as it is).
export function relativeProfile (profile, roots = {}) {
  return {
    ...profile,
    nodes: profile.nodes.map((node) => ({
      ...node,
      callFrame: { ...node.callFrame, url: packageRelative(node.callFrame.url, roots) }
    }))
  }
}
