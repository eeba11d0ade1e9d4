// The harness's own floor: the message is built and handed to a function that does nothing.
export default {
  name: 'noop',
  baseline: true,
  transports: ['console', 'file', 'udp', 'tcp'],
  verifies: false,
  async create () {
    return {
      log () {},
      async close () {}
    }
  }
}
