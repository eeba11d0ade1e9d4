// Every transport once: its name, its title in reports, the receiving end it has unless a syslog
// set-up names another, and what it can do. Code that behaves differently by transport asks these
// capabilities, never a transport's name, so that a new transport is one entry here, its receiver
// (src/sinks/index.js) and each adapter's entry. The fields:
// - syslog: RFC 5424 lines to a syslog server (--syslog chooses the embedded sink or rsyslogd)
// - collector: a collector protocol whose embedded receiver is bounded by --receiver-max-* and
//   refuses what is past them (src/sinks/collector.js); refuses says how, in --help
// - reaches: where a worker's events go: 'stdout' (the pipe log-bench reads), 'file' (a file the
//   worker is given) or 'socket' (a receiver over the network)
// - slowable: the receiving end's reading can be slowed or stalled (--receiver-rate, --receiver-stall)
// - socketDrops: what the receiving socket says of a loss: 'counter' (the kernel counts what it
//   dropped), 'none' (a stream the socket does not drop: a loss happened before it) or null (not
//   located)
export const TRANSPORT_DESCRIPTORS = Object.freeze([
  { name: 'console', title: 'Console', sink: 'pipe', syslog: false, collector: false, reaches: 'stdout', slowable: true, socketDrops: null },
  { name: 'file', title: 'Filesystem', sink: 'file', syslog: false, collector: false, reaches: 'file', slowable: false, socketDrops: null },
  { name: 'udp', title: 'Syslog UDP', sink: 'embedded-udp', syslog: true, collector: false, reaches: 'socket', slowable: false, socketDrops: 'counter' },
  { name: 'tcp', title: 'Syslog TCP', sink: 'embedded-tcp', syslog: true, collector: false, reaches: 'socket', slowable: true, socketDrops: 'none' },
  { name: 'otlp', title: 'OpenTelemetry OTLP/HTTP', sink: 'embedded-otlp', syslog: false, collector: true, refuses: 'OTLP: answered 413', reaches: 'socket', slowable: false, socketDrops: null },
  { name: 'forward', title: 'Fluent forward', sink: 'embedded-forward', syslog: false, collector: true, refuses: 'forward: the connection is closed', reaches: 'socket', slowable: false, socketDrops: null }
].map(Object.freeze))

export const TRANSPORTS = TRANSPORT_DESCRIPTORS.map((t) => t.name)
// The names of the transports that have a capability, in TRANSPORTS' order: transportsWith('collector').
export const transportsWith = (capability, value = true) =>
  TRANSPORT_DESCRIPTORS.filter((t) => t[capability] === value).map((t) => t.name)
export const SYSLOG_TRANSPORTS = transportsWith('syslog')
export const COLLECTOR_TRANSPORTS = transportsWith('collector')
export const SLOWABLE_TRANSPORTS = transportsWith('slowable')

// Names in a sentence: listOf(['otlp', 'forward']) is 'otlp and forward', listOf(names, 'or') 'otlp or forward'.
export const listOf = (names, word = 'and') =>
  new Intl.ListFormat('en', { type: word === 'or' ? 'disjunction' : 'conjunction' }).format(names)

// Names people try that are not transports, with what they mean here.
export const TRANSPORT_HINTS = {
  syslog: 'syslog goes over udp or tcp: give --transport udp, tcp or udp,tcp (--syslog chooses the receiving end)',
  stdout: 'stdout is the console transport: give --transport console',
  fs: 'give --transport file'
}

export function transportDescriptor (name) {
  return TRANSPORT_DESCRIPTORS.find((t) => t.name === name) ?? null
}

// Whether a transport (by name; an unknown name has none) has a capability: transportIs('tcp', 'slowable').
export function transportIs (name, capability, value = true) {
  return transportDescriptor(name)?.[capability] === value
}
