// Every transport once: its name, its title in reports, the receiving end it has unless a syslog
// set-up names another, and whether it is syslog. The receiver that each one gets is in
// src/sinks/index.js, keyed by these names; every list of transports is derived from here.
export const TRANSPORT_DESCRIPTORS = Object.freeze([
  { name: 'console', title: 'Console', sink: 'pipe', syslog: false },
  { name: 'file', title: 'Filesystem', sink: 'file', syslog: false },
  { name: 'udp', title: 'Syslog UDP', sink: 'embedded-udp', syslog: true },
  { name: 'tcp', title: 'Syslog TCP', sink: 'embedded-tcp', syslog: true },
  { name: 'otlp', title: 'OpenTelemetry OTLP/HTTP', sink: 'embedded-otlp', syslog: false },
  { name: 'forward', title: 'Fluent forward', sink: 'embedded-forward', syslog: false }
])

export const TRANSPORTS = TRANSPORT_DESCRIPTORS.map((t) => t.name)
export const SYSLOG_TRANSPORTS = TRANSPORT_DESCRIPTORS.filter((t) => t.syslog).map((t) => t.name)

// Names people try that are not transports, with what they mean here.
export const TRANSPORT_HINTS = {
  syslog: 'syslog goes over udp or tcp: give --transport udp, tcp or udp,tcp (--syslog chooses the receiving end)',
  stdout: 'stdout is the console transport: give --transport console',
  fs: 'give --transport file'
}

export function transportDescriptor (name) {
  return TRANSPORT_DESCRIPTORS.find((t) => t.name === name) ?? null
}
