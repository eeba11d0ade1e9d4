import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { conditionsText } from '../src/report/conditions.js'
import { machineKind } from '../src/results/env.js'
import { syntheticRun } from './helpers.js'

describe('conditions beside the headline', () => {
  const env = {
    cpuModel: 'Some CPU',
    cpuCount: 2,
    logBenchVersion: '1.2.3',
    machine: { virtual: true, hypervisor: 'kvm', container: 'docker', how: 'systemd-detect-virt' },
    loadSamples: [[0, 0.5], [10, 3], [20, 1.5]],
    transportVersions: { 'winston-syslog': '2.7.1', 'bunyan-syslog': '0.3.4' },
    receiverVersions: { rsyslogd: '8.2302.0' }
  }
  const runs = [
    syntheticRun({ lib: 'winston', run: 1, doneMs: 100, transport: 'udp', sink: 'rsyslog-udp' }),
    syntheticRun({ lib: 'winston', run: 1, doneMs: 100, transport: 'tcp', sink: 'embedded-tcp' }),
    syntheticRun({ lib: 'pino', run: 1, doneMs: 100, transport: 'file' })
  ]

  it('says the machine, the load during the runs, the receivers with their versions and the transport packages', () => {
    const text = conditionsText({ env, envs: [{ file: 'x.json', env }], runs })
    assert.equal(text, 'Conditions: Some CPU, 2 cores, a virtual machine (kvm), in a docker container; ' +
      'load during the runs median 1.50, maximum 3.00 (3 samples of the 1-minute load, the runs\' own included); ' +
      'receiving ends: log-bench 1.2.3\'s embedded syslog receiver (TCP), the file (read back), rsyslogd 8.2302.0 over UDP; ' +
      'transport packages: winston-syslog 2.7.1, bunyan-syslog 0.3.4.')
  })

  it('says what results from before these fields did not record, never a guess', () => {
    const old = { cpuModel: 'Some CPU', cpuCount: 2 }
    const text = conditionsText({ env: old, envs: [{ file: 'x.json', env: old }], runs })
    assert.match(text, /VM or not: not recorded; load during the runs not recorded; .*rsyslogd \(version not recorded\) over UDP; transport packages: versions not recorded/)
  })

  it('tells a virtual machine by systemd-detect-virt, else by the DMI vendor or the CPU\'s hypervisor flag', () => {
    const detect = (answers) => (flag) => answers[flag] ?? null
    assert.deepEqual(machineKind({ detect: detect({ '--vm': 'none', '--container': 'none' }), exists: () => false }), { virtual: false, hypervisor: null, container: null, how: 'systemd-detect-virt' })
    const files = (map) => (file) => map[file] ?? null
    assert.deepEqual(machineKind({ detect: () => null, read: files({ '/sys/class/dmi/id/sys_vendor': 'QEMU\n', '/proc/cpuinfo': 'flags\t: fpu\n' }), exists: () => false }).virtual, true)
    assert.equal(machineKind({ detect: () => null, read: files({ '/proc/cpuinfo': 'flags\t\t: fpu vme hypervisor lahf_lm\n' }), exists: (f) => f === '/.dockerenv' }).container, 'docker')
    assert.equal(machineKind({ detect: () => null, read: files({ '/proc/cpuinfo': 'flags\t\t: fpu vme hypervisor\n' }), exists: () => false }).virtual, true)
    assert.equal(machineKind({ detect: () => null, read: files({ '/proc/cpuinfo': 'flags\t\t: fpu vme\n' }), exists: () => false }).virtual, false)
    assert.equal(machineKind({ detect: () => null, read: () => null, exists: () => false }).virtual, null)
  })
})
