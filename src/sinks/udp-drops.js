import { spawnSync } from 'node:child_process'
import fs from 'node:fs'

// What the kernel says about a receiving UDP socket (Linux; null elsewhere, or where it cannot be
// read): how many datagrams it dropped because its buffer was full, and how large a buffer it got.
// They tell a drop rate's share that was the receiver's buffer, as opposed to loss before the
// datagram reached it, and what that buffer was.

export const UDP_TABLES = ['/proc/net/udp', '/proc/net/udp6']

// The `drops` column of /proc/net/udp (and udp6) for the sockets bound to `port`, summed (the
// embedded sink's readers may share one port). null when no table can be read or no such socket is
// found. tables: a path or a list of paths.
export function udpSocketDrops (port, tables = UDP_TABLES) {
  const wanted = port.toString(16).toUpperCase().padStart(4, '0')
  let drops = null
  for (const table of [tables].flat()) {
    let text
    try {
      text = fs.readFileSync(table, 'latin1')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (fields.length < 13) continue
      const localPort = fields[1].slice(fields[1].lastIndexOf(':') + 1)
      // st 07 is an unconnected socket: a listener, not a sender connected to that port.
      if (localPort !== wanted || fields[3] !== '07') continue
      drops = (drops ?? 0) + Number(fields[12])
    }
  }
  return drops
}

// The socket's drop counter over a run: read here, once the receiver listens, and again by after(),
// before it closes: the difference, or null where either reading is unknown.
export function dropCounter (port) {
  const before = port == null ? null : udpSocketDrops(port)
  return {
    after () {
      if (before === null) return null
      const now = udpSocketDrops(port)
      return now === null ? null : Math.max(0, now - before)
    }
  }
}

// The receive buffer the kernel granted the socket listening on `port` (another process's, such as
// rsyslogd's): the `rb` of `ss -uamn` (iproute2) for it, as SO_RCVBUF reports it (Linux doubles what
// was asked for, up to net.core.rmem_max unless the owner could force it). null without ss or socket.
export function udpReceiveBuffer (port, ss = 'ss') {
  const out = spawnSync(ss, ['-uamnH', 'sport', '=', `:${port}`], { encoding: 'utf8', timeout: 5000 })
  if (out.status !== 0 || typeof out.stdout !== 'string') return null
  return parseReceiveBuffer(out.stdout)
}

// ss's skmem:(r0,rb8388608,…) → 8388608, the first socket's; null where there is none.
export function parseReceiveBuffer (text) {
  const match = /skmem:\([^)]*\brb(\d+)/.exec(text)
  return match ? Number(match[1]) : null
}
