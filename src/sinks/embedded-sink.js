// The embedded syslog sink, the default receiving end of the udp and tcp transports: UDP and/or TCP
// listeners on 127.0.0.1 that parse every message and check its event in a bitset. Its parts, by role:
//   embedded/listeners.js    the listeners and the verifier (startSink), in whichever process calls it
//   embedded/native-udp.js   the native UDP receiver (a recvmmsg thread) and the node:dgram fallback's choice
//   embedded/handle.js       the harness's side: spawnSink forks the sink's process and asks it for counts
//   embedded/sink-process.js the sink's process: listens, reports arrivals, answers counts, leaves with the harness
//   embedded/shared-udp.js   the fallback's UDP readers: cluster workers of the sink's process on one socket
//   embedded/arrivals.js, priority.js, listen.js   live arrival reports, the sink's raised priority, binding
// `log-bench sink` runs the listeners in the foreground (src/cli/sink.js).
export { DEFAULT_HOST, MAX_FRAME_BYTES, probeUdpReceiveBuffer, startSink, UDP_RECEIVE_BUFFER_BYTES } from './embedded/listeners.js'
export { defaultUdpReceivers, nativeUdpReceiver, udpReaderAbsence, udpReaderName } from './embedded/native-udp.js'
export { spawnSink } from './embedded/handle.js'
export { mergeCounts } from './embedded/shared-udp.js'
export { listenError } from './embedded/listen.js'
export { SINK_NICE } from './embedded/priority.js'
