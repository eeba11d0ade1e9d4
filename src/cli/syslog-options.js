import { UsageError } from '../errors.js'
import { sinkName } from '../sinks/syslog.js'
import { defaultUdpReceivers, udpReaderName, probeUdpReceiveBuffer, UDP_RECEIVE_BUFFER_BYTES } from '../sinks/embedded-sink.js'
import { requireRsyslogd } from '../sinks/rsyslog.js'
import { oneOf, positiveInt } from './validate.js'

export const SYSLOG_SINKS = ['embedded', 'rsyslog']
const SYSLOG_TRANSPORTS = ['udp', 'tcp']

export const SYSLOG_OPTION_NAMES = ['syslog', 'syslog-host', 'syslog-port']

export function addSyslogOptions (yargs) {
  return yargs
    .option('syslog', { type: 'string', describe: 'Receiving end for udp/tcp: embedded (a sink process that counts every event) or rsyslog (a real rsyslogd started for each run) [default: embedded]' })
    .option('syslog-host', { type: 'string', describe: 'Send udp/tcp events to a syslog server you run instead (nothing can be counted there: drop rate unknown)' })
    .option('syslog-port', { type: 'string', describe: 'Port of the server given by --syslog-host [default: 514]' })
}

// The receiver options for the udp and tcp transports; throws UsageError on anything wrong,
// including --syslog rsyslog on a machine without rsyslogd.
export async function parseSyslogOptions (argv, transports) {
  const usesSyslog = transports.some((t) => SYSLOG_TRANSPORTS.includes(t))
  const given = SYSLOG_OPTION_NAMES.filter((name) => argv[camel(name)] != null)
  if (given.length && !usesSyslog) throw new UsageError(`--${given[0]} applies to the udp and tcp transports only: add --transport udp or tcp`)
  if (!usesSyslog) return {}
  const syslog = argv.syslog == null ? 'embedded' : oneOf([String(argv.syslog)], SYSLOG_SINKS, 'syslog sink (--syslog)')[0]
  let syslogHost = null
  let syslogPort = null
  if (argv.syslogHost != null) {
    syslogHost = String(argv.syslogHost).trim()
    if (syslogHost === '') throw new UsageError('--syslog-host is empty: give the host name or address of your syslog server')
    if (argv.syslog != null) throw new UsageError('--syslog-host sends to your own server: it cannot be combined with --syslog')
    syslogPort = argv.syslogPort == null ? 514 : positiveInt(argv.syslogPort, 'syslog-port', { max: 65535 })
  } else if (argv.syslogPort != null) {
    throw new UsageError('--syslog-port needs --syslog-host (the embedded sink and rsyslog use free ports of their own)')
  }
  if (syslogHost === null && syslog === 'rsyslog') requireRsyslogd()
  const options = { syslog: syslogHost === null ? syslog : 'external', syslogHost, syslogPort }
  // rsyslogd sets its buffer with SO_RCVBUFFORCE when it may, so only the embedded sink's is known.
  if (options.syslog === 'embedded') options.udpReceiveBufferBytes = await probeUdpReceiveBuffer()
  return { ...options, sinkName: (transport) => SYSLOG_TRANSPORTS.includes(transport) ? sinkName(transport, options) : undefined }
}

// What the results document records about the syslog set-up (env.options.syslog).
export function describeSyslog (receiverOptions) {
  if (!receiverOptions?.syslog) return null
  const { syslog, syslogHost, syslogPort, udpReceiveBufferBytes } = receiverOptions
  return {
    sink: syslog,
    host: syslogHost,
    port: syslogPort,
    udpReceiveBufferRequestedBytes: syslog === 'external' ? null : UDP_RECEIVE_BUFFER_BYTES,
    udpReceiveBufferBytes: udpReceiveBufferBytes ?? null,
    udpReader: syslog === 'embedded' ? udpReaderName() : null,
    udpReaderProcesses: syslog === 'embedded' ? defaultUdpReceivers() : null
  }
}

export function externalNote (syslog) {
  if (syslog?.sink !== 'external') return ''
  return `\nsyslog server ${syslog.host}:${syslog.port} is yours: the harness cannot see what arrived there, so received, corrupt, duplicates and drop rate are unknown (null in the results), not 0.\n`
}

function camel (name) {
  return name.replace(/-(\w)/g, (_, c) => c.toUpperCase())
}
