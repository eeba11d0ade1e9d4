import { WORKLOADS } from '../engine/workloads.js'

// The harness's own floor: the message is built and handed to a function that does nothing,
// whatever the workload.
export default {
  name: 'noop',
  baseline: true,
  transports: ['console', 'file', 'udp', 'tcp'],
  workloads: WORKLOADS,
  verifies: false,
  async create () {
    return {
      log () {},
      async close () {}
    }
  }
}
