import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { describe, it } from 'node:test'
import { ADAPTERS, leftovers, readJson, runCli, taggedPids, tmpDir, waitFor, rsyslogSkip } from './helpers.js'

// Each fault: the affected run is recorded as failed with a reason a person understands, the
// rest goes on, the results file stays valid JSON, and nothing the harness started is left.
// (Out of memory, a logger that hangs past --timeout, and Ctrl-C: see run-errors and scenario tests.)

// Runs the CLI; as soon as a process matching `pattern` is up, waits `afterMs`, then kills it. The
// slow fixtures below spend at least 1 ms an event, so 1,000 events keep a run logging for a second
// after any of its processes started: past the kill, however long the workers took to start.
async function killMidRun (args, pattern, afterMs = 500) {
  const out = path.join(tmpDir(), 'r.json')
  let tag
  const pending = runCli([...args, '--out', out], { onSpawn: (_, t) => { tag = t } })
  await waitFor(() => tag && taggedPids(tag, pattern).length)
  await new Promise((resolve) => setTimeout(resolve, afterMs))
  // Look the process up again at kill time: a short-lived process matching the pattern (e.g. a
  // config check) may have come and gone; the target must be the one alive now.
  await waitFor(() => {
    for (const pid of taggedPids(tag, pattern)) {
      try {
        process.kill(pid, 'SIGKILL')
        return true
      } catch (err) {
        if (err.code !== 'ESRCH') throw err
      }
    }
    return false
  })
  const result = await pending
  assert.equal(result.code, 0, result.stderr)
  assert.deepEqual(leftovers(result.tag), [])
  const doc = readJson(out)
  assert.equal(doc.complete, true)
  return doc
}

function assertFirstFailedSecondOk (doc, reason) {
  assert.equal(doc.runs.length, 2)
  assert.equal(doc.runs[0].ok, false)
  assert.equal(doc.runs[0].status, 'failed')
  assert.match(doc.runs[0].error, reason)
  assert.equal(doc.runs[1].ok, true, doc.runs[1].error)
  assert.equal(doc.runs[1].received, doc.runs[1].sent)
}

describe('faults the harness survives', () => {
  it('a worker killed with SIGKILL mid-run', async () => {
    const doc = await killMidRun(['run', '--lib', path.join(ADAPTERS, 'slow.js'), '--transport', 'file', '--cpus', '2', '--events', '1000', '--runs', '2'], /src\/run\/worker\.js/)
    assertFirstFailedSecondOk(doc, /worker \d was killed by SIGKILL/)
  })

  it('the embedded syslog sink killed mid-run', async () => {
    const doc = await killMidRun(['run', '--lib', path.join(ADAPTERS, 'trickle.js'), '--transport', 'udp', '--events', '1000', '--runs', '2'], /sinks\/embedded\/sink-process\.js/)
    assertFirstFailedSecondOk(doc, /sink .*killed by SIGKILL/)
  })

  it('rsyslogd killed mid-run', { skip: rsyslogSkip }, async () => {
    const doc = await killMidRun(['run', '--lib', path.join(ADAPTERS, 'trickle.js'), '--transport', 'tcp', '--syslog', 'rsyslog', '--events', '1000', '--runs', '2'], /rsyslogd -n /, 800)
    assertFirstFailedSecondOk(doc, /rsyslogd/)
  })

  it('the http port already taken', async () => {
    const blocker = net.createServer()
    await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address()
    try {
      const out = path.join(tmpDir(), 'h.json')
      const result = await runCli(['http', '--lib', 'none,pino', '--logs-per-request', '1', '--duration', '0.5', '--warmup', '0', '--runs', '1', '--port', String(port), '--out', out])
      assert.equal(result.code, 0, result.stderr)
      const doc = readJson(out)
      assert.equal(doc.complete, true)
      assert.equal(doc.runs.length, 2)
      for (const run of doc.runs) {
        assert.equal(run.ok, false)
        assert.match(run.error, new RegExp(`${port}.*in use|in use.*${port}`))
      }
      assert.deepEqual(leftovers(result.tag), [])
    } finally {
      blocker.close()
    }
  })

  it('the disk full under the file transport', async (t) => {
    const mount = tmpDir('lb-tinyfs-')
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mount], { stdio: 'ignore' })
    } catch {
      return t.skip('cannot mount a small tmpfs here (needs root): the disk-full fault is not exercised')
    }
    try {
      const out = path.join(tmpDir(), 'r.json')
      const result = await runCli(['run', '--lib', 'raw,bunyan,log4js', '--transport', 'file', '--events', '20000', '--runs', '1', '--timeout', '10', '--out', out], { env: { TMPDIR: mount } })
      assert.equal(result.code, 0, result.stderr)
      const doc = readJson(out)
      assert.equal(doc.complete, true)
      assert.equal(doc.runs.length, 3)
      for (const run of doc.runs) {
        assert.equal(run.ok, false)
        assert.match(run.error, /ENOSPC: no space left on device/)
      }
      assert.deepEqual(leftovers(result.tag), [])
      assert.deepEqual(fs.readdirSync(mount), [])
    } finally {
      execFileSync('umount', [mount])
      fs.rmdirSync(mount)
    }
  })
})
