import os from 'node:os'
import fs from 'node:fs'
import path from 'node:path'
import { UsageError } from '../errors.js'
import { sinkName } from '../sinks/syslog.js'
import { defaultUdpReceivers, udpReaderName, probeUdpReceiveBuffer, UDP_RECEIVE_BUFFER_BYTES } from '../sinks/embedded-sink.js'
import { requireRsyslogd, rsyslogString } from '../sinks/rsyslog.js'
import { SYSLOG_TRANSPORTS } from '../engine/transports.js'
import { SYSLOG_OPTIONS } from './option-tables.js'
import { givenOptions, optionNamed, parseOption } from './options.js'

// The receiver options for the udp and tcp transports; throws UsageError on anything wrong,
// including --syslog rsyslog on a machine without rsyslogd.
export async function parseSyslogOptions (argv, transports) {
  const usesSyslog = transports.some((t) => SYSLOG_TRANSPORTS.includes(t))
  const given = givenOptions(SYSLOG_OPTIONS, argv)
  if (given.length && !usesSyslog) throw new UsageError(`--${given[0]} applies to the udp and tcp transports only: add --transport udp or tcp`)
  if (!usesSyslog) return {}
  const syslog = parseOption(optionNamed(SYSLOG_OPTIONS, 'syslog'), argv) ?? 'embedded'
  let syslogHost = null
  let syslogPort = null
  if (argv.syslogHost != null) {
    syslogHost = String(argv.syslogHost).trim()
    if (syslogHost === '') throw new UsageError('--syslog-host is empty: give the host name or address of your syslog server')
    if (argv.syslog != null) throw new UsageError('--syslog-host sends to your own server: it cannot be combined with --syslog')
    syslogPort = parseOption(optionNamed(SYSLOG_OPTIONS, 'syslog-port'), argv)
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
  return {
    ...options,
    sinkName: (transport) => SYSLOG_TRANSPORTS.includes(transport) ? sinkName(transport, options) : undefined
  }
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
