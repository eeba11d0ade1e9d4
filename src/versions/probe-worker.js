// Started under a --runtime as a node:cluster worker, the way run and http start theirs: says which
// runtime it is over IPC, then exits. A runtime that cannot do this cannot run a worker.
const name = typeof globalThis.Bun !== 'undefined' ? 'bun' : typeof globalThis.Deno !== 'undefined' ? 'deno' : 'node'
const version = name === 'bun' ? globalThis.Bun.version : name === 'deno' ? globalThis.Deno.version.deno : process.versions.node
process.send({ type: 'runtime', name, version }, () => process.exit(0))
