// The runtimes --runtime names, and the check of its list: a module of its own, so that the option
// tables (and --help) read them without loading what installs and probes a runtime (runtimes.js).
import path from 'node:path'
import { UsageError } from '../errors.js'

export const DEFAULT_RUNTIME = 'node'
export const RUNTIME_NAMES = ['node', 'node@20', 'node@22', 'node@24', 'node@26', 'bun', 'deno']

// Checks the --runtime list (before anything installs): [{ spec, kind, range, file }].
export function parseRuntimes (entries) {
  const parsed = []
  for (const entry of entries) {
    if (/[\\/]/.test(entry)) {
      parsed.push({ spec: entry, kind: 'path', file: path.resolve(entry) })
      continue
    }
    const match = /^(node|bun|deno)(?:@(.+))?$/.exec(entry)
    if (!match) throw new UsageError(`unknown runtime "${entry}": use ${RUNTIME_NAMES.join(', ')}, name@range (node@22.11, bun@1.2), or a path to a binary (./bin/node)`)
    parsed.push({ spec: entry, kind: match[1], range: match[2] ?? null })
  }
  return parsed.filter((r, i) => parsed.findIndex((o) => o.spec === r.spec) === i)
}
