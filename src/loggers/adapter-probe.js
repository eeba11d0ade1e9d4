// Imports one outside adapter file in a process of its own and sends back what it declares (its
// data: name, transports, variants…; functions only as "is a function"). An adapter's top-level code
// is anyone's code: `throw null` or `process.exit(0)` there ends this process, never the harness.
import { pathToFileURL } from 'node:url'

const file = process.argv[2]
// The harness gone (SIGTERM or SIGHUP to it alone, SIGKILL): this process goes too, even while an
// adapter's top-level await never settles. The channel may have closed already, while this module loaded.
process.on('disconnect', () => process.exit(0))
if (!process.connected) process.exit(0)
// Listening keeps the channel referenced; it must not keep this process alive by itself, so that a
// top-level await with nothing left to wait for still ends it (Node's exit code 13).
process.channel?.unref()

function describe (adapter) {
  if (adapter === null || typeof adapter !== 'object') return { kind: adapter === null ? 'null' : typeof adapter }
  if (adapter instanceof Promise || typeof adapter.then === 'function') return { kind: 'promise' }
  const data = JSON.parse(JSON.stringify(adapter) ?? 'null')
  return { kind: 'object', data, createIsFunction: typeof adapter.create === 'function' }
}

try {
  const mod = await import(pathToFileURL(file).href)
  process.send({ type: 'adapter', adapter: describe(mod.default) }, () => process.exit(0))
} catch (err) {
  const message = err instanceof Error ? err.message : `it threw ${(() => { try { return JSON.stringify(err) ?? String(err) } catch { return typeof err } })()}`
  process.send({ type: 'error', message: String(message).split('\n')[0].slice(0, 300) }, () => process.exit(0))
}
