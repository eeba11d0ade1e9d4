import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { UsageError } from '../src/errors.js'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { availableCpus, cpusOf, findTaskset, formatCpuList, parseCpuList, pin, placementRecord, planPlacement } from '../src/http/placement.js'

const TASKSET = '/usr/bin/taskset'

describe('http placement: server and load on disjoint CPUs', () => {
  it('reads and writes CPU lists as taskset -c does', () => {
    assert.deepEqual(parseCpuList('0', 'x'), [0])
    assert.deepEqual(parseCpuList('3,0-1, 1', 'x'), [0, 1, 3])
    assert.equal(formatCpuList([0, 1, 2, 5, 7, 8]), '0-2,5,7-8')
    assert.equal(formatCpuList([4]), '4')
    for (const bad of ['', 'a', '1-0', '-1', '1.5', '0,,1', '99999']) {
      assert.throws(() => parseCpuList(bad, 'server-cpus'), (err) => err instanceof UsageError && /--server-cpus must be a list of CPU numbers/.test(err.message), bad)
    }
  })

  it('reads the CPUs this process may use from Cpus_allowed_list', () => {
    assert.deepEqual(availableCpus('Name:\tnode\nCpus_allowed:\t5\nCpus_allowed_list:\t0,2\n'), [0, 2])
    assert.ok(availableCpus(null).length >= 1)
  })

  it('on 2 CPUs puts the load (and the primary with the receiving end) on CPU 0 and the server on CPU 1', () => {
    assert.deepEqual(planPlacement({ available: [0, 1], taskset: TASKSET }), { pinned: true, serverCpus: '1', loadCpus: '0', taskset: TASKSET })
  })

  it('gives the load a quarter of a larger machine and the server the rest', () => {
    const plan = planPlacement({ available: [0, 1, 2, 3, 4, 5, 6, 7], taskset: TASKSET })
    assert.equal(plan.loadCpus, '0-1')
    assert.equal(plan.serverCpus, '2-7')
  })

  it('takes the CPUs given, and the rest for the side not given', () => {
    assert.equal(planPlacement({ serverCpus: '0', available: [0, 1, 2], taskset: TASKSET }).loadCpus, '1-2')
    assert.equal(planPlacement({ loadCpus: '2', available: [0, 1, 2], taskset: TASKSET }).serverCpus, '0-1')
    const both = planPlacement({ serverCpus: '2', loadCpus: '0', available: [0, 1, 2], taskset: TASKSET })
    assert.deepEqual([both.serverCpus, both.loadCpus], ['2', '0'])
  })

  it('refuses overlapping lists, CPUs it may not use and a side left without a CPU', () => {
    const refuses = (options, pattern) => assert.throws(
      () => planPlacement({ available: [0, 1], taskset: TASKSET, ...options }),
      (err) => err instanceof UsageError && pattern.test(err.message)
    )
    refuses({ serverCpus: '0-1', loadCpus: '1' }, /--server-cpus and --load-cpus share CPU 1: give them disjoint lists/)
    refuses({ serverCpus: '5' }, /--server-cpus names CPU 5, which log-bench may not use here: it may use CPUs 0-1/)
    refuses({ serverCpus: '0-1' }, /--server-cpus takes every CPU .*leave at least one for the load/)
    refuses({ loadCpus: '0-1' }, /--load-cpus takes every CPU .*leave at least one for the server/)
  })

  it('is not pinned, with the reason, without taskset or with one CPU', () => {
    const missing = planPlacement({ available: [0, 1], taskset: null })
    assert.deepEqual(missing, { pinned: false, serverCpus: null, loadCpus: null, reason: 'taskset (util-linux) was not found, so CPU affinity could not be set' })
    assert.deepEqual(placementRecord({ notPinned: missing.reason }), { pinned: false, reason: missing.reason })
    const single = planPlacement({ available: [3], taskset: TASKSET })
    assert.equal(single.pinned, false)
    assert.match(single.reason, /only CPU 3 is available/)
  })

  it('finds taskset on PATH when it is not in a standard place', () => {
    const found = findTaskset({ PATH: '/nonexistent' })
    assert.ok(found === null || found.endsWith('/taskset'))
  })

  it('tries again when taskset -a meets a thread that just ended, and fails a run whose process is gone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lb-taskset-'))
    try {
      // A taskset that fails as the real one does when a thread ends mid-walk, the first two times.
      const count = path.join(dir, 'count')
      const fake = path.join(dir, 'taskset')
      fs.writeFileSync(fake, `#!/bin/sh\nn=$(cat ${count} 2>/dev/null || echo 0); echo $((n + 1)) > ${count}\nif [ "$n" -lt 2 ]; then echo "taskset: failed to get pid 999999's affinity: No such process" >&2; exit 1; fi\nexit 0\n`, { mode: 0o755 })
      const allowed = cpusOf(process.pid)
      assert.equal(await pin({ taskset: fake }, process.pid, allowed, 'this process'), allowed)
      assert.equal(fs.readFileSync(count, 'utf8').trim(), '3')
      fs.rmSync(count)
      await assert.rejects(pin({ taskset: fake }, process.pid, allowed, 'this process', { attempts: 2 }), /could not put this process on CPU .*No such process/)
      // A process that is gone is not tried again.
      fs.rmSync(count)
      await assert.rejects(pin({ taskset: fake }, 2 ** 22 + 12345, '0', 'a gone process'), /could not put a gone process on CPU 0/)
      assert.equal(fs.readFileSync(count, 'utf8').trim(), '1')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('records the planned lists and what the kernel reported', () => {
    const plan = planPlacement({ available: [0, 1], taskset: TASKSET })
    assert.deepEqual(placementRecord(plan, { primary: '0', server: ['1'], load: '0' }), { pinned: true, serverCpus: '1', loadCpus: '0', observed: { primary: '0', server: ['1'], load: '0' } })
  })
})
