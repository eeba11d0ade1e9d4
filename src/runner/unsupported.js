import { adapterWorkloads, unsupportedWorkloadReason, workloadTransportUnsupported } from '../engine/workloads.js'
import { libLabel } from '../loggers/index.js'
import { transportIs } from '../engine/transports.js'

// Why a cell of `run` or `http` cannot run: recorded as unsupported, with the reason, never run as
// something else.

// Why no worker can run under this runtime (its probe failed), or a Node-only setting it cannot take.
export function runtimeUnsupported (runtime, maxOldSpaceSize = null) {
  if (runtime.unsupported) return `${runtime.label} cannot run a log-bench worker: ${runtime.unsupported}`
  if (maxOldSpaceSize && runtime.name !== 'node') return `--max-old-space-size is a Node (V8) flag; ${runtime.label} does not take it`
  return null
}

// Why a cell cannot run (recorded as unsupported, never run as something else), or null.
export function cellUnsupported (lib, variant, transport, workload) {
  if (!lib.adapter.transports.includes(transport)) return unsupportedReason(lib, transport)
  if (lib.range != null && transportIs(transport, 'collector')) return `${lib.name}@${lib.version} (installed by version) logs to console and file only: the ${transport} integration beside it is the project's, written for its ${lib.name}`
  if (lib.range != null && transportIs(transport, 'syslog')) return `${lib.name}@${lib.version} (installed by version) logs to console and file only: the syslog packages beside it (${lib.name}'s syslog transport) are the project's, written for its ${lib.name}`
  const versionReason = lib.version &&
    lib.adapter.unsupportedFor?.({ version: lib.version, transport, workload, variant })
  if (versionReason) return versionReason
  const variantTransports = lib.adapter.variants != null && Object.hasOwn(lib.adapter.variants, variant)
    ? lib.adapter.variants[variant]?.transports
    : undefined
  if (variantTransports && !variantTransports.includes(transport)) return `${libLabel(lib.name, variant)} writes to ${variantTransports.join(', ')} only`
  if (!adapterWorkloads(lib.adapter).includes(workload)) return unsupportedWorkloadReason(lib, workload)
  return workloadTransportUnsupported(lib, workload, transport)
}

// Why a library cannot do a transport: the adapter's own words where it gives them.
export function unsupportedReason (lib, transport) {
  return lib.adapter.unsupported?.[transport] ?? `${lib.name} has no ${transport} transport (it supports: ${lib.adapter.transports.join(', ') || 'none'})`
}
