import { createRequire } from 'node:module'
import { rawLine } from '../engine/workloads.js'

// The fluent organisation's own forward client, @fluent-org/logger's FluentClient, as its README
// shows it: new FluentClient(tag, { socket: { host, port, timeout } }) on its defaults (PackedForward
// mode, its send queue and flush interval), one emit({ message }) per event. No logger integrates it,
// so it is measured as a plain client beside raw (raw:fluent-org). emit's promise resolves once the
// event is written to the socket; close waits for every one, then disconnects.
const require = createRequire(import.meta.url)

export async function createFluentOrgClient ({ host, port, workload }) {
  const { FluentClient } = require('@fluent-org/logger')
  const client = new FluentClient('log-bench', { socket: { host, port, timeout: 3000 } })
  const line = rawLine(workload)
  let pending = 0
  let failure = null
  let onIdle = null
  const settled = () => {
    pending--
    if (pending === 0) onIdle?.()
  }
  const log = (message) => {
    pending++
    client.emit({ message: line(message) }).then(settled, (err) => {
      failure ??= err
      settled()
    })
  }
  return {
    log: line === null ? () => {} : log,
    async close () {
      if (pending > 0) await new Promise((resolve) => { onIdle = resolve })
      await client.disconnect()
      if (failure) throw failure
    }
  }
}
