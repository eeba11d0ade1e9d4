import os from 'node:os'
import fs from 'node:fs'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { sinkName } from '../sinks/syslog.js'
import { defaultUdpReceivers, udpReaderName, probeUdpReceiveBuffer, UDP_RECEIVE_BUFFER_BYTES } from '../sinks/embedded-sink.js'
import { requireRsyslogd, rsyslogString } from '../sinks/rsyslog.js'
import { oneOf, positiveInt } from './validate.js'

export const SYSLOG_SINKS = ['embedded', 'rsyslog']
const SYSLOG_TRANSPORTS = ['udp', 'tcp']

export const SYSLOG_OPTION_NAMES = ['syslog', 'syslog-host', 'syslog-port', 'syslog-output']

export function addSyslogOptions (yargs) {
  return yargs
    .option('syslog', { type: 'string', describe: 'Receiving end for udp/tcp: embedded (a sink process that counts every event) or rsyslog (a real rsyslogd started for each run) [default: embedded]' })
    .option('syslog-host', { type: 'string', describe: 'Send udp/tcp events to a syslog server you run instead (nothing can be counted there: drop rate unknown)' })
    .option('syslog-port', { type: 'string', describe: 'Port of the server given by --syslog-host [default: 514]' })
    .option('syslog-output', { type: 'string', describe: 'The output file of the server given by --syslog-host, when it is an rsyslog using docker/rsyslog.conf with its output shared with this machine (docker/compose.yaml): its events are then counted from that file like a local rsyslog\'s' })
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
  if (syslogHost === null && syslog === 'rsyslog') {
    requireRsyslogd()
    // The runs' directory is named in rsyslogd's configuration: checked before anything runs.
    rsyslogString(argv.dir ?? os.tmpdir())
  }
  const syslogOutput = argv.syslogOutput == null ? null : outputFileOption(argv.syslogOutput, syslogHost)
  const options = { syslog: syslogHost === null ? syslog : 'external', syslogHost, syslogPort, syslogOutput }
  // rsyslogd sets its buffer with SO_RCVBUFFORCE when it may, so only the embedded sink's is known.
  if (options.syslog === 'embedded') options.udpReceiveBufferBytes = await probeUdpReceiveBuffer()
  return { ...options, sinkName: (transport) => SYSLOG_TRANSPORTS.includes(transport) ? sinkName(transport, options) : undefined }
}

// --syslog-output: a file the user's server writes (it may not exist yet: rsyslog creates it with
// its first line); it must be a regular file in an existing directory, and readable.
function outputFileOption (value, syslogHost) {
  if (syslogHost === null) throw new UsageError('--syslog-output reads the output file of your own server: give --syslog-host too (a local --syslog rsyslog is counted anyway)')
  const file = path.resolve(String(value))
  let stat = null
  try { stat = fs.statSync(file) } catch {}
  if (stat && !stat.isFile()) throw new UsageError(`--syslog-output ${value} is not a regular file: give the file your syslog server writes (received.log with docker/rsyslog.conf)`)
  if (stat) {
    try { fs.accessSync(file, fs.constants.R_OK) } catch { throw new UsageError(`--syslog-output ${value} cannot be read: give a file this user may read`) }
  } else {
    let dirStat = null
    try { dirStat = fs.statSync(path.dirname(file)) } catch {}
    if (!dirStat?.isDirectory()) throw new UsageError(`--syslog-output ${value}: its directory does not exist: give the path where your syslog server writes (the volume shared in docker/compose.yaml)`)
  }
  return file
}

// What the results document records about the syslog set-up (env.options.syslog).
export function describeSyslog (receiverOptions) {
  if (!receiverOptions?.syslog) return null
  const { syslog, syslogHost, syslogPort, syslogOutput, udpReceiveBufferBytes } = receiverOptions
  return {
    sink: syslog,
    host: syslogHost,
    port: syslogPort,
    output: syslogOutput ?? null,
    udpReceiveBufferRequestedBytes: syslog === 'external' ? null : UDP_RECEIVE_BUFFER_BYTES,
    udpReceiveBufferBytes: udpReceiveBufferBytes ?? null,
    udpReader: syslog === 'embedded' ? udpReaderName() : null,
    udpReaderProcesses: syslog === 'embedded' ? defaultUdpReceivers() : null
  }
}

export function externalNote (syslog) {
  if (syslog?.sink !== 'external' || syslog.output) return ''
  return `\nsyslog server ${syslog.host}:${syslog.port} is yours: the harness cannot see what arrived there, so received, corrupt, duplicates and drop rate are unknown (null in the results), not 0.\n`
}

function camel (name) {
  return name.replace(/-(\w)/g, (_, c) => c.toUpperCase())
}
