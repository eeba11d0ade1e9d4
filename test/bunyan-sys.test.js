import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { readJson, rsyslogSkip, runCli, syntheticRun, tmpDir } from './helpers.js'
import { summarize } from '../src/results/model.js'
import { thenAndNowSection } from '../src/report/run/then-and-now.js'

// syslog(3) writes only to /dev/log: the run needs it free and may create it (root).
const devLogTaken = fs.existsSync('/dev/log')
let devWritable = true
try { fs.accessSync('/dev', fs.constants.W_OK) } catch { devWritable = false }
const skip = rsyslogSkip || (devLogTaken ? '/dev/log is taken here (the system\'s syslog): bunyan:sys refuses it by design' : !devWritable ? '/dev is not writable: bunyan:sys needs root to serve /dev/log' : false)

describe('bunyan:sys: syslog(3) to the local socket', () => {
  it('is received and counted event by event by an rsyslogd the run starts on /dev/log, and /dev/log goes with it', { skip }, async () => {
    const out = path.join(tmpDir(), 'r.json')
    const result = await runCli(['run', '--lib', 'bunyan:sys', '--transport', 'udp', '--events', '3000', '--runs', '1', '--out', out, '--quiet'])
    assert.equal(result.code, 0, result.stderr)
    const [run] = readJson(out).runs
    assert.equal(run.ok, true, run.error)
    assert.equal(run.variant, 'sys')
    assert.equal(run.sink, 'rsyslog-local')
    assert.equal(run.received, 3000)
    assert.equal(run.corrupt, 0)
    assert.equal(fs.existsSync('/dev/log'), false, 'the socket the run served is gone')
  })

  it('Then and now sets the article\'s bunyan "UDP" beside bunyan:sys, and bunyan over real UDP in a row of its own', () => {
    const runs = []
    for (let run = 1; run <= 4; run++) {
      runs.push(syntheticRun({ lib: 'bunyan', variant: 'sys', run, doneMs: 900 + run, transport: 'udp', sink: 'rsyslog-local', cores: 1 }))
      runs.push(syntheticRun({ lib: 'bunyan', run, doneMs: 400 + run, transport: 'udp', sink: 'embedded-udp', cores: 1 }))
    }
    const reference = {
      source: { title: 'An article', publisher: 'P', year: 2019, code: 'c' },
      hardware: { cpu: 'x', cores: 4, threads: 8, memory: '32 GB', node: '8' },
      events: 1000,
      file: 'ref.json',
      cells: [{ transport: 'udp', lib: 'bunyan', variant: 'sys', cpus: 1, unblockedMs: 104350, doneMs: 104370, dropRate: 0 }]
    }
    const { blocks } = thenAndNowSection.render({ env: { cpuModel: 'x', cpuCount: 2, node: 'v20' }, runs, summary: summarize(runs) }, { reference })
    const table = blocks.find((b) => b.columns && b.rows.some((r) => r[1] === 'bunyan:sys'))
    const sys = table.rows.find((r) => r[1] === 'bunyan:sys')
    assert.equal(sys[4], '104,350')
    assert.equal(sys.at(-2), '903', 'bunyan:sys median done')
    const plain = table.rows.find((r) => r[1] === 'bunyan')
    assert.equal(plain[4], 'not the article\'s')
    assert.equal(plain.at(-2), '403')
  })
})
