// npm install step: builds the native receivers (Linux): the embedded sink's UDP receiver
// (native/udp_receiver.c) and the console transport's pipe reader (native/pipe_reader.c).
// Without it the sink still works, on node:dgram in several reader processes, which loses datagrams
// at rates a raw sender reaches; so a failed build is a warning here, and `log-bench list` and every
// UDP result say which receiver was used. CI sets LOG_BENCH_REQUIRE_NATIVE=1 to make it an error.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'

if (process.platform !== 'linux') {
  console.warn('log-bench: the native receivers are Linux only; the embedded sink will read UDP with node:dgram, the console transport node\'s streams')
  process.exit(0)
}
const gyp = process.env.npm_config_node_gyp
const [command, args] = gyp && fs.existsSync(gyp) ? [process.execPath, [gyp, 'rebuild']] : ['node-gyp', ['rebuild']]
const result = spawnSync(command, args, { encoding: 'utf8' })
if (result.status !== 0) {
  process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').slice(-30).join('\n'))
  const why = result.error ? result.error.message : `node-gyp exited with code ${result.status}`
  const line = `log-bench: building the native receivers failed (${why}); the embedded sink will read UDP with node:dgram, which drops datagrams under load, and the console transport will be read by node's streams, which can slow a logger down. Install python3, make and a C compiler, then run npm rebuild log-bench.`
  if (process.env.LOG_BENCH_REQUIRE_NATIVE) {
    console.error(line)
    process.exit(1)
  }
  console.warn(line)
}
