import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { ADAPTERS, leftovers, readJson, runCli, tmpDir, waitFor } from './helpers.js'

// How a run ends on a stop signal, timed: log-bench must exit within a few seconds of it, so this
// file runs alone (scripts/test.js); run-errors.test.js holds the refusals and failed runs, which
// assert reasons and exit codes only.
describe('Ctrl-C, SIGTERM, a hang-up and SIGQUIT all end a run the same way', () => {
  const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129, SIGQUIT: 131 }
  for (const signal of Object.keys(EXIT_CODES)) {
    it(`${signal} to the whole process group stops the workers, saves results so far and exits`, async () => {
      const out = path.join(tmpDir(), 'r.json')
      const tmp = tmpDir()
      let child
      // Blocked order: raw (fast) first, then the slow adapter that the signal interrupts. slow spends
      // 1 ms an event: 10,000 events keep its run going for 10 s, twenty times the wait below.
      const pending = runCli(['run', '--lib', `raw,${path.join(ADAPTERS, 'slow.js')}`, '--transport', 'file', '--cpus', '2', '--events', '10000', '--runs', '1', '--order', 'blocked', '--out', out], {
        env: { TMPDIR: tmp },
        detached: true,
        onSpawn: (c) => { child = c }
      })
      await waitFor(() => fs.existsSync(out) && readJson(out).runs.length === 1, 300_000)
      await new Promise((resolve) => setTimeout(resolve, 500))
      const sentAt = Date.now()
      process.kill(-child.pid, signal)
      const result = await pending
      assert.ok(Date.now() - sentAt < 5000, 'exits within a few seconds')
      assert.equal(result.code, EXIT_CODES[signal], result.stderr)
      const doc = readJson(out)
      assert.equal(doc.interrupted, true)
      assert.equal(doc.complete, false)
      assert.equal(doc.runs[0].lib, 'raw')
      assert.equal(doc.runs[0].ok, true)
      assert.equal(doc.runs[1].status, 'interrupted')
      assert.match(doc.runs[1].error, new RegExp(signal))
      assert.deepEqual(leftovers(result.tag), [])
      assert.deepEqual(fs.readdirSync(path.dirname(out)), ['r.json'], 'no temporary file, no lock')
      assert.deepEqual(fs.readdirSync(tmp), [], 'no run directory')
    })
  }
})
