import { dimensionValue, ofType } from '../results/model.js'
import { median, maxOf } from '../stats.js'
import { formatNumber, unique } from '../draw/labels.js'
import { startEnvs } from '../results/env.js'
import { loadSamplesOf } from './limits.js'
import { transportIs } from '../engine/transports.js'
import { escapeMarkdown } from '../results/judge/anomalies.js'

// The conditions a headline was measured in, said beside it: the machine (a VM or not, in a
// container or not), the load while the runs went on (median and maximum of the samples), each
// receiving end with its version, and the versions of the packages each transport went through.
// From the results only: what an older log-bench did not record is said to be not recorded.

const SINK_WORDS = {
  pipe: 'the console pipe (native reader)',
  file: 'the file (read back)',
  // Records from before the sink named its protocol: 'embedded' and 'rsyslog'.
  embedded: 'log-bench\'s embedded syslog receiver',
  'embedded-udp': 'log-bench\'s embedded syslog receiver (UDP)',
  'embedded-tcp': 'log-bench\'s embedded syslog receiver (TCP)',
  'embedded-otlp': 'log-bench\'s embedded OTLP/HTTP receiver',
  'embedded-forward': 'log-bench\'s embedded Fluent forward receiver',
  'external-udp': 'a syslog server of the user\'s (UDP)',
  'external-tcp': 'a syslog server of the user\'s (TCP)'
}

export function conditionsText (dataset) {
  const envs = startEnvs(dataset.envs ?? [{ env: dataset.env }]).map((e) => e.env).filter(Boolean)
  const env = dataset.env ?? envs[0] ?? {}
  const parts = [`${env.cpuModel ?? 'CPU not recorded'}, ${env.cpuCount ?? '?'} cores, ${machineWords(envs.some((e) => e.machine) ? envs : [env])}`, loadWords(envs.length ? envs : [env])]
  const receivers = receiverWords(dataset, env)
  if (receivers) parts.push(`receiving ends: ${receivers}`)
  const packages = packageWords(dataset, envs.length ? envs : [env])
  if (packages) parts.push(`transport packages: ${packages}`)
  // Every part holds strings from the results file (a CPU model, a sink, a package's name): escaped.
  return `Conditions: ${escapeMarkdown(parts.join('; '))}.`
}

// Each shard's machine (merge keeps it in env.shards); a file merged before that kept none: the
// merged env's.
function machineWords (envs) {
  const kinds = envs.map((e) => e.machine).filter(Boolean)
  if (!kinds.length) return 'VM or not: not recorded'
  const words = unique(kinds.map((m) => {
    const what = m.virtual === true ? `a virtual machine${m.hypervisor ? ` (${m.hypervisor})` : ''}` : m.virtual === false ? 'not a virtual machine' : 'virtual machine or not: not known'
    return `${what}${m.container ? `, in a ${m.container} container` : ''}`
  }))
  return words.join(' and ') + (kinds.length < envs.length ? ' (not recorded for every shard)' : '')
}

function loadWords (envs) {
  const samples = envs.flatMap(loadSamplesOf)
  if (!samples.length) return 'load during the runs not recorded'
  return `load during the runs median ${formatNumber(median(samples), 2)}, maximum ${formatNumber(maxOf(samples), 2)} (${samples.length} samples of the 1-minute load, the runs' own included)`
}

function receiverWords (dataset, env) {
  const sinks = unique([...ofType(dataset.runs ?? [], 'run'), ...ofType(dataset.runs ?? [], 'http')].map((r) => dimensionValue(r, 'sink')).filter(Boolean))
  if (!sinks.length) return null
  const own = env.logBenchVersion ? `log-bench ${env.logBenchVersion}'s` : 'log-bench\'s'
  const rsyslog = sinks.filter((sink) => String(sink).startsWith('rsyslog'))
  const protocols = rsyslog.map((sink) => (sink.endsWith('udp') ? 'UDP' : sink.endsWith('tcp') ? 'TCP' : sink.endsWith('local') ? '/dev/log' : null)).filter(Boolean)
  const rsyslogd = `rsyslogd ${env.receiverVersions?.rsyslogd ?? '(version not recorded)'}${protocols.length ? ` over ${protocols.join(' and ')}` : ''}`
  return [...sinks.filter((sink) => !rsyslog.includes(sink)).map((sink) => {
    const words = SINK_WORDS[sink] ?? String(sink)
    return String(sink).startsWith('embedded') ? words.replace('log-bench\'s', own) : words
  }), ...(rsyslog.length ? [rsyslogd] : [])].join(', ')
}

// Only where a transport needs a package of its own (those that reach a socket: syslog, OTLP,
// forward): console and file go through the library alone.
function packageWords (dataset, envs) {
  const transports = unique(ofType(dataset.runs ?? [], 'run').map((r) => r.transport)).filter((t) => transportIs(t, 'reaches', 'socket'))
  if (!transports.length) return null
  const recorded = envs.filter((e) => e.transportVersions && typeof e.transportVersions === 'object')
  if (!recorded.length) return 'versions not recorded (results from before log-bench recorded them; the Versions section has the libraries\')'
  const versions = new Map()
  for (const e of recorded) {
    for (const [name, version] of Object.entries(e.transportVersions)) versions.set(name, unique([...(versions.get(name) ?? []), version ?? 'version not found']))
  }
  return [...versions].map(([name, list]) => `${name} ${list.join(', ')}`).join(', ')
}
