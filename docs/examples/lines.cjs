// A log-bench adapter written as CommonJS: what a .js file is in a project whose package.json says
// "type": "commonjs" (npm init -y writes that), and what a .cjs file always is. Its "library" is
// Node's own streams, one line per event; put your logger in their place.
const fs = require('node:fs')

module.exports = {
  name: 'lines-cjs',
  version: '1.0.0',
  transports: ['console', 'file'],
  workloads: ['string', 'object'],
  async create ({ transport, file, workload }) {
    // console: this worker's stdout, a pipe log-bench reads. file: a path log-bench reads back.
    const stream = transport === 'file' ? fs.createWriteStream(file) : process.stdout
    // The fields of log-bench's workloads: the receiving end looks for them in every line.
    const { OBJECT_FIELDS } = await import('log-bench/workloads')
    const line = workload === 'object' ? (message) => JSON.stringify({ msg: message, ...OBJECT_FIELDS }) : (message) => message
    return {
      log (message) {
        stream.write(line(message) + '\n')
      },
      // Resolves once every byte has left the process: stdout's callback of an empty write comes
      // after the pipe has taken all earlier writes; a file stream's end() after 'finish'.
      close () {
        return new Promise((resolve, reject) => {
          stream.once('error', reject)
          if (stream === process.stdout) stream.write('', resolve)
          else stream.end(resolve)
        })
      }
    }
  }
}
