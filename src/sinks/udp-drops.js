import fs from 'node:fs'

// How many datagrams the kernel dropped at a receiving UDP socket because its buffer was full:
// the `drops` column of /proc/net/udp for the socket bound to `port` (Linux; null elsewhere, or
// when no such socket is found). Read before the receiver closes, it tells a drop rate's share
// that was the receiver's buffer, as opposed to loss before the datagram reached it.
export function udpSocketDrops (port, table = '/proc/net/udp') {
  let text
  try {
    text = fs.readFileSync(table, 'latin1')
  } catch {
    return null
  }
  const wanted = port.toString(16).toUpperCase().padStart(4, '0')
  let drops = null
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/)
    if (fields.length < 13) continue
    const [, localPort] = fields[1].split(':')
    // st 07 is an unconnected socket: a listener, not a sender connected to that port.
    if (localPort !== wanted || fields[3] !== '07') continue
    drops = (drops ?? 0) + Number(fields[12])
  }
  return drops
}
