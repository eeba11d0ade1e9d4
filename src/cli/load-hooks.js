// A module loader hook (node:module register) for the command line: at most a few of log-bench's
// files are read at once. Node's loader reads every import of a module at the same time, and
// log-bench's graph opened more files at once than `ulimit -n 64` allows (EMFILE before even
// --help could answer). Loading takes the same time either way: the files are small and cached.
const MAX_OPEN = 4
let open = 0
const waiting = []

export async function load (url, context, nextLoad) {
  if (!url.startsWith('file:')) return nextLoad(url, context)
  if (open >= MAX_OPEN) await new Promise((resolve) => waiting.push(resolve))
  open++
  try {
    return await nextLoad(url, context)
  } finally {
    open--
    waiting.shift()?.()
  }
}
