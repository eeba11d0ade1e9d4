import assert from 'node:assert/strict'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { describe, it } from 'node:test'
import { nativePipeReader } from '../src/sinks/pipe.js'
import { findRsyslogd, freePort, startRsyslog } from '../src/sinks/rsyslog.js'
import { ADAPTERS, leftovers, readJson, ROOT, rsyslogSkip, runCli, tmpDir } from './helpers.js'

// The console transport's reader: native where built (CI requires it), node's stream reading as
// the fallback (LOG_BENCH_PIPE_READER=node). Both must count exactly what the logger did wrong.
const nativeSkip = nativePipeReader() || process.env.LOG_BENCH_REQUIRE_NATIVE ? false : 'the native pipe reader is not built (npm rebuild needs python3, make, a C compiler)'
const READERS = [
  { name: 'native', env: {}, skip: nativeSkip },
  { name: 'node', env: { LOG_BENCH_PIPE_READER: 'node' }, skip: false }
]

for (const reader of READERS) {
  // Each test is its own run into its own directory: two at a time, here and in --pipe-bytes and --dir.
  describe(`console reader: ${reader.name}`, { skip: reader.skip, concurrency: 2 }, () => {
    it('counts exactly the events a lossy logger dropped, and says which reader ran', async () => {
      const out = path.join(tmpDir(), 'r.json')
      const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'lossy.js'), '--transport', 'console', '--cpus', '2', '--events', '1000', '--runs', '1', '--out', out], { env: reader.env })
      assert.equal(result.code, 0, result.stderr)
      const [run] = readJson(out).runs
      assert.equal(run.sent, 2000)
      assert.equal(run.received, 1800)
      assert.equal(run.dropRate, 0.1)
      assert.equal(run.corrupt, 0)
      assert.equal(run.consoleReader, reader.name)
      if (reader.name === 'native') assert.ok(run.pipeBytes >= 65536, `pipeBytes ${run.pipeBytes}`)
      else assert.equal(run.pipeBytes, null)
      assert.match(run.doneMeans, /last byte read from the workers' stdout pipes/)
      assert.deepEqual(leftovers(result.tag), [])
    })

    it('counts truncated lines as corrupt and repeats as duplicates', async () => {
      const out = path.join(tmpDir(), 'r.json')
      const result = await runCli(['run', '--lib', path.join(ADAPTERS, 'truncating.js'), '--transport', 'console', '--events', '700', '--runs', '1', '--out', out], { env: reader.env })
      assert.equal(result.code, 0, result.stderr)
      const [run] = readJson(out).runs
      assert.equal(run.corrupt, 140)
      assert.equal(run.received, 700 - 140 + 20)
      assert.equal(run.duplicates, 100 - 20)
    })

    it('delivers every event of pino and raw from 2 workers', async () => {
      const out = path.join(tmpDir(), 'r.json')
      const result = await runCli(['run', '--lib', 'pino,raw', '--transport', 'console', '--cpus', '2', '--events', '20000', '--runs', '1', '--out', out], { env: reader.env })
      assert.equal(result.code, 0, result.stderr)
      for (const run of readJson(out).runs) {
        assert.equal(run.received, 40000, run.lib)
        assert.equal(run.corrupt, 0, run.lib)
        assert.ok(run.startSpreadMs >= 0 && run.doneMs >= run.unblockedMs, `${run.startSpreadMs} ${run.doneMs} ${run.unblockedMs}`)
      }
    })
  })
}

describe('native pipe reader', { skip: nativeSkip }, () => {
  it('copies everything written to the pipe into the capture file, counts lines, stamps the last data', async () => {
    const native = nativePipeReader()
    const capture = path.join(tmpDir(), 'capture.log')
    let end
    const ended = new Promise((resolve) => { end = resolve })
    const [handle, writeFd, pipeBytes] = native.open(
      1 << 20,
      capture,
      (lastDataNs, bytes, error) => end({ lastDataNs, bytes, error })
    )
    assert.ok(pipeBytes >= 65536)
    const line = Buffer.from('w0 1: Hello, world!\n')
    const chunk = Buffer.concat(Array.from({ length: 10_000 }, () => line))
    const before = process.hrtime.bigint()
    for (let i = 0; i < 10; i++) fs.writeSync(writeFd, chunk)
    fs.closeSync(writeFd)
    const result = await ended
    assert.equal(result.error, null)
    assert.equal(result.bytes, chunk.length * 10)
    assert.ok(result.lastDataNs > before)
    assert.equal(fs.statSync(capture).size, chunk.length * 10)
    assert.deepEqual(native.stats(handle), [chunk.length * 10, 100_000])
  })

  it('refuses a capture path that exists (it never writes through a planted file or symlink)', () => {
    const dir = tmpDir()
    const target = path.join(dir, 'target')
    fs.writeFileSync(target, 'keep')
    fs.symlinkSync(target, path.join(dir, 'capture.log'))
    assert.throws(() => nativePipeReader().open(65536, path.join(dir, 'capture.log'), () => {}), /File exists/)
    assert.equal(fs.readFileSync(target, 'utf8'), 'keep')
  })

  it('stop() ends a reader whose pipe is still open', async () => {
    const native = nativePipeReader()
    let end
    const ended = new Promise((resolve) => { end = resolve })
    const [handle, writeFd] = native.open(65536, path.join(tmpDir(), 'c.log'), (lastDataNs, bytes, error) => end({ bytes, error }))
    native.stop(handle)
    assert.deepEqual(await ended, { bytes: 0, error: null })
    fs.closeSync(writeFd)
  })
})

describe('--pipe-bytes', { skip: nativeSkip, concurrency: 2 }, () => {
  it('the system default (64 KiB) unless asked; a larger buffer is granted and recorded', async () => {
    const out = path.join(tmpDir(), 'r.json')
    const plain = await runCli(['run', '--lib', 'raw', '--transport', 'console', '--events', '1000', '--runs', '1', '--out', out])
    assert.equal(plain.code, 0, plain.stderr)
    assert.equal(readJson(out).runs[0].pipeBytes, 65536)
    const big = path.join(tmpDir(), 'r.json')
    const asked = await runCli(['run', '--lib', 'raw', '--transport', 'console', '--events', '1000', '--runs', '1', '--pipe-bytes', '1048576', '--out', big])
    assert.equal(asked.code, 0, asked.stderr)
    assert.equal(readJson(big).runs[0].pipeBytes, 1048576)
    assert.equal(readJson(big).runs[0].received, 1000)
  })

  for (const args of [['--transport', 'file', '--pipe-bytes', '65536'], ['--transport', 'console', '--pipe-bytes', '100'], ['--transport', 'console', '--pipe-bytes', String(2 ** 40)]]) {
    it(`refuses ${args.join(' ')} with one line`, async () => {
      const result = await runCli(['run', '--lib', 'raw', '--events', '10', ...args])
      assert.equal(result.code, 2, result.stderr)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.match(result.stderr, /pipe-bytes/)
    })
  }
})

describe('--dir', { concurrency: 2 }, () => {
  it('puts the runs\' files there and records its file system type', async () => {
    const dir = tmpDir()
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'raw', '--transport', 'file,console', '--events', '1000', '--runs', '1', '--dir', dir, '--out', out])
    assert.equal(result.code, 0, result.stderr)
    const doc = readJson(out)
    const file = doc.runs.find((r) => r.transport === 'file')
    assert.match(file.fsType, /^(ext2\/3\/4|tmpfs|overlay|xfs|btrfs|0x[0-9a-f]+)$/)
    assert.match(file.doneMeans, /close\(\) resolved/)
    assert.equal(doc.runs.find((r) => r.transport === 'console').fsType, null)
    assert.equal(doc.env.options.dir, dir)
    assert.ok(doc.env.options.dirFsType)
    assert.deepEqual(fs.readdirSync(dir), [], 'the run directory is removed after each run')
  })

  for (const [what, value] of [['a file', path.join(ROOT, 'package.json')], ['a missing directory', '/nonexistent/log-bench']]) {
    it(`refuses ${what} with one line and exit code 2`, async () => {
      const out = path.join(tmpDir(), 'r.json')
      const result = await runCli(['run', '--lib', 'raw', '--transport', 'file', '--events', '10', '--dir', value, '--out', out])
      assert.equal(result.code, 2)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.match(result.stderr, /--dir/)
      assert.equal(fs.existsSync(out), false)
    })
  }
})

// An rsyslog the user runs (in Docker, say) with log-bench's docker/rsyslog.conf, its output shared
// through a volume: --syslog-output counts what it wrote. Here the same configuration runs locally,
// on free loopback ports, and is treated as external.
// docker/rsyslog.conf listens on one port number for UDP and TCP: one free for both (a UDP port the OS
// calls free may be another test's TCP port at that moment, and rsyslogd then cannot bind it).
async function freeUdpAndTcpPort () {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await freePort('udp')
    const free = await new Promise((resolve) => {
      const server = net.createServer()
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error('no port free for both UDP and TCP on 127.0.0.1 in 50 tries')
}

describe('--syslog-output: an external rsyslog from docker/rsyslog.conf', { skip: rsyslogSkip }, () => {
  it('counts every event from its output file, ignoring what was there before the run', async () => {
    const dir = tmpDir()
    const port = await freeUdpAndTcpPort()
    const configText = fs.readFileSync(path.join(ROOT, 'docker', 'rsyslog.conf'), 'utf8')
      .replaceAll('/var/log/logbench', dir)
      .replaceAll('/var/spool/rsyslog', dir)
      .replaceAll('port="5514"', `address="127.0.0.1" port="${port}"`)
    const rsyslog = await startRsyslog({ binary: findRsyslogd(), dir, configText, udpPort: port, tcpPort: port })
    try {
      const output = path.join(dir, 'received.log')
      fs.appendFileSync(output, '<14>1 - - - - - - w0 0: Hello, world!\n')
      const out = path.join(tmpDir(), 'r.json')
      const result = await runCli(['run', '--lib', 'raw,pino', '--transport', 'udp,tcp', '--events', '2000', '--runs', '1', '--syslog-host', '127.0.0.1', '--syslog-port', String(port), '--syslog-output', output, '--out', out])
      assert.equal(result.code, 0, result.stderr)
      for (const run of readJson(out).runs) {
        const cell = `${run.lib} ${run.transport}`
        assert.equal(run.ok, true, `${cell}: ${run.error}`)
        assert.equal(run.received, 2000, cell)
        assert.equal(run.duplicates, 0, cell)
        assert.equal(run.corrupt, 0, cell)
        assert.equal(run.dropRate, 0, cell)
        assert.match(run.doneMeans, /last line your syslog server wrote/, cell)
      }
      assert.doesNotMatch(result.stdout, /cannot see what arrived/)
    } finally {
      await rsyslog.stop()
    }
  })

  it('needs --syslog-host, and a regular file', async () => {
    for (const args of [['--syslog-output', '/tmp/x.log'], ['--syslog-host', '127.0.0.1', '--syslog-output', '/tmp']]) {
      const result = await runCli(['run', '--lib', 'raw', '--transport', 'udp', '--events', '10', ...args])
      assert.equal(result.code, 2, result.stderr)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
    }
  })
})
